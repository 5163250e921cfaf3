"""The EPRUM task: passage (FOL) and element runs scored by expected precision-recall with user
modelling.

Piwowarski and Dupret (SIGIR 2006), computed by ``builder.measures.eprum.passages`` (which
says what the ideal elements and the ranks are) under the user model the options choose:
``classical``, ``tree`` or ``distance`` (``theta``). The runs are read and validated as the
focused task's (element runs resolved to character ranges over the ``corpus`` option), except
that overlapping passages are allowed.

Extras of the Evaluation: ``natural`` (run, topic, recall, precision, ideal_length), the
precision at every natural recall point (made when first read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import ConfigDict, Field

from builder.contract import Evaluation, LazyTables, RunRead, TaskKind
from builder.formats.inex.qrels import InexQrels, read_inex_qrels
from builder.measures.eprum.models import DEFAULT_THETA
from builder.measures.eprum.passages import eprum_of_passages, level_scores, natural_points
from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT
from builder.measures.eprum.scores import AVERAGE, FAMILY
from builder.tasks.inex.focused import (
    CORPUS_FIELD,
    MAX_RESULTS_FIELD,
    read_run_files,
    validate_runs_with,
)
from builder.tasks.naming import RunNamingOptions


class EprumOptions(RunNamingOptions):
    """Options of the EPRUM task (``site_config.yml`` task ``options``, CLI ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    model: Literal["classical", "tree", "distance"] = Field(
        "tree", description="User model giving P(k ~> x): classical, tree or distance."
    )
    theta: float = Field(
        DEFAULT_THETA, gt=0, description="Distance model: P = 1 / (1 + exp(theta * characters))."
    )
    exact_limit: int = Field(
        DEFAULT_EXACT_LIMIT,
        ge=0,
        description="Exact law of F_k up to this many uncertain elements, normal law above.",
    )
    max_results: int | None = MAX_RESULTS_FIELD
    corpus: Path | None = CORPUS_FIELD


def validate_runs(reads: list[RunRead], qrels: InexQrels, options: EprumOptions) -> list[RunRead]:
    return validate_runs_with(reads, qrels, options.max_results, reject_overlap=False)


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: EprumOptions) -> Evaluation:
    """The 11 levels and ``avgP`` per run and topic, their means under topic ``all``
    (``builder.measures.eprum.passages``); the natural recall points as an extra."""
    rows = eprum_of_passages(qrels, runs, options.model, options.theta, options.exact_limit)
    extras = LazyTables({"natural": lambda: natural_points(rows)})
    return Evaluation(level_scores(rows), extras)


def read_qrels(path: Path, options: object = None) -> InexQrels:
    """The INEX qrels (one reading whatever the ``options``)."""
    return read_inex_qrels(path)


KIND = TaskKind(
    name="eprum",
    family=FAMILY,
    read_qrels=read_qrels,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    options_model=EprumOptions,
    official_measure=AVERAGE,
    leaderboard_measures=(AVERAGE, "P[0.00]", "P[0.10]", "P[0.50]", "P[1.00]"),
)
