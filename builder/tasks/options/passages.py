"""The options of the kinds that read passage (FOL) and element runs: INEX's focused, thorough
and in-context tasks, and EPRUM; with the EPRUM block the passage tasks can add to their run
pages (``builder.tasks.inex.eprum_block``).

The defaults the measures own (EPRUM's theta and exact limit, the in-context ranks) are read
from them when an options object is made, so that the command line reads these models for its
flags without importing the measures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.config.flags import Flag
from builder.tasks.naming import RunNamingOptions
from builder.tasks.options.adhoc import COMPLETE_FLAG

UserModel = Literal["classical", "tree", "distance"]
"""EPRUM's user models (``builder.measures.eprum.models.ModelName``; a test holds them equal)."""


def _theta() -> float:
    from builder.measures.eprum.models import DEFAULT_THETA

    return DEFAULT_THETA


def _exact_limit() -> int:
    from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT

    return DEFAULT_EXACT_LIMIT


def _in_context_ranks() -> tuple[int, ...]:
    from builder.measures.inex.in_context.generalized_precision import RANKS

    return RANKS


NO_RELEVANT_TEXT_FIELD = Field(
    "zero", description="art_rec and char_rec of a topic without relevant text: 0, or NaN as "
    "inex_eval 3.1 prints it (its means are then NaN too).")
MAX_RESULTS_FIELD = Field(
    None, ge=1, description="Cut each topic after this many results (default: none, every line "
    "is evaluated as inex_eval 3.1 does; INEX allowed 1500).")
EXACT_LIMIT_FIELD = Field(
    default_factory=_exact_limit, ge=0,
    description="Exact law of F_k up to this many uncertain elements, normal law above.")
CORPUS_FIELD = Field(None, description="The XML corpus (a folder, tar or zip of articles named "
                     "by file id) over which element runs are resolved.")
Corpus = Annotated[Path | None, Flag("--corpus", metavar="DIR")]


class EprumBlockOptions(BaseModel):
    """The options a passage task adds to its own to show EPRUM on its run pages."""

    model_config = ConfigDict(defer_build=True)  # as RunNamingOptions: made on first use

    eprum_model: UserModel | None = Field(
        None, description="Also show EPRUM under this user model on the run pages (none: off)."
    )
    eprum_theta: float = Field(
        default_factory=_theta, gt=0,
        description="The distance user model's theta per character (EPRUM).")


class FocusedOptions(RunNamingOptions, EprumBlockOptions):
    """Options of the focused task (``site_config.yml`` task ``options``, CLI ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    complete: Annotated[bool, COMPLETE_FLAG] = Field(
        False, description="Average over every qrels topic (inex_eval -c).")
    max_results: int | None = MAX_RESULTS_FIELD
    no_relevant_text: Literal["zero", "nan"] = NO_RELEVANT_TEXT_FIELD
    ip_recall: Literal["inex_eval", "definition"] = Field(
        "inex_eval", description="How iP[x] decides R >= x at an exact recall boundary: "
        "inex_eval 3.1's buckets floor(100 R) of a double (R = 29/100 falls in bucket 28), or "
        "the definition, exactly (Kamps et al. 2008).")
    corpus: Corpus = CORPUS_FIELD


class ThoroughOptions(FocusedOptions):
    """Options of the thorough task: the focused task's, and how overlapping results count."""

    alpha: float = Field(1.0, ge=0.0, le=1.0, description="HiXEval overlap weight: 1 overlap=on, 0 off.")
    overlap: Literal["once", "each"] = Field(
        "once", description="inex_eval's measures: text retrieved by two results counts once "
        "(inex_eval -t) or each time (every result in full).")
    hixeval_trel: Literal["paper", "documents"] = Field(
        "paper", description="HiXEval's Trel: the paper's, the highlighted characters across "
        "documents at alpha = 1 and across all elements of the judged articles at alpha < 1 "
        "(read from the corpus, for every result; across documents without one), or across "
        "documents always (recall can then exceed 1 at alpha < 1).")
    hixeval_partly_seen: Literal["paper", "union"] = Field(
        "paper", description="HiXEval's rval of a partly seen element: the paper's, its rsize "
        "less that of every earlier descendant, nested ones each time (can be negative), or "
        "less its highlighted text seen before, once (passages always: the paper's rule is "
        "for elements).")


class InContextOptions(RunNamingOptions, EprumBlockOptions):
    """Options shared by the three in-context tasks."""

    model_config = ConfigDict(extra="forbid")

    complete: Annotated[bool, COMPLETE_FLAG] = Field(
        False, description="inex_eval -c: topics without results count 0")
    ranks: tuple[int, ...] = Field(default_factory=_in_context_ranks,
                                   description="the r of gP[r] and gR[r]")
    max_results: int | None = MAX_RESULTS_FIELD
    gp_short_runs: Literal["inex_eval", "paper"] = Field(
        "inex_eval",
        description="gP[r] of a topic with n < r articles: gP[n] (inex_eval) or sum / r (eq. 11)",
    )
    corpus: Corpus = CORPUS_FIELD
    no_relevant_text: Literal["zero", "nan"] = Field(
        "zero", description="gR[r] and AgP of a topic without relevant text: 0, or NaN as "
        "inex_eval 3.1 prints it (its means, MAgP included, are then NaN too).")


class RelevantInContextOptions(InContextOptions):
    beta: float = Field(0.25, gt=0, description="F-beta of an article; 0.25 inex_eval 3.1, 1 paper")


class RestrictedRelevantInContextOptions(InContextOptions):
    tolerance: int = Field(300, ge=1, description="irrelevant characters read before stopping")


class BestInContextOptions(InContextOptions):
    entry_score: Literal["inex_eval", "paper_eq8", "paper_eq9"] = Field(
        "inex_eval", description="(n - d) / n with n = 500, eq. 8 A*L/(A*L + d), or eq. 9 n = 1000"
    )
    n: int | None = Field(None, gt=0, description="n of (n - d) / n (default 500, eq. 9: 1000)")
    a: float = Field(0.1, gt=0, description="A of eq. 8")


class EprumOptions(RunNamingOptions):
    """Options of the EPRUM task (``site_config.yml`` task ``options``, CLI ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    model: Annotated[UserModel, Flag("--model")] = Field(
        "tree", description="User model giving P(k ~> x): classical, tree or distance."
    )
    theta: float = Field(
        default_factory=_theta, gt=0,
        description="Distance model: P = 1 / (1 + exp(theta * characters)).")
    exact_limit: int = EXACT_LIMIT_FIELD
    max_results: int | None = MAX_RESULTS_FIELD
    corpus: Corpus = CORPUS_FIELD
