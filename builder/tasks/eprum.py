"""The EPRUM task: passage (FOL) and element runs scored by expected precision-recall with user
modelling.

Piwowarski and Dupret (SIGIR 2006). The ideal elements are the highlighted passages of INEX
passage qrels (idealism 1); rank k of a run is its k-th passage of the topic (file order, as
inex_eval ranks); element runs are resolved to character ranges over the ``corpus`` option, as
in the other passage tasks. ``P(k ~> x)`` comes from the chosen user model
(``builder.measures.eprum.models``): ``classical``, ``tree`` or ``distance`` (``theta``); the
ideal list is the ideal elements by decreasing idealism under the same model (section 7).
Overlapping passages are allowed: a passage seen twice is not rewarded twice.

Extras of the Evaluation: ``natural`` (run, topic, recall, precision, ideal_length), the
precision at every natural recall point (made when first read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import ConfigDict, Field

from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC, Evaluation, LazyTables, RunRead
from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import InexQrels, read_inex_qrels
from builder.measures.eprum.models import DEFAULT_THETA, UserModel, ideal_list, navigation_table
from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT
from builder.measures.eprum.scores import (
    AVERAGE,
    FAMILY,
    LEVEL_NAMES,
    IdealSet,
    score_rows,
    topic_results,
    with_summary,
)
from builder.tasks import TaskKind
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


def passage_ideal(qrels: InexQrels) -> pd.DataFrame:
    """The highlighted passages as ideal elements (``IDEAL_COLUMNS``), named ``file:offset:length``."""
    passages = qrels.passages
    return pd.DataFrame(
        {
            "topic": passages["topic"].to_numpy(),
            "element": (
                passages["file"] + ":" + passages["offset"].astype(str) + ":"
                + passages["length"].astype(str)
            ).to_numpy(),
            "file": passages["file"].to_numpy(),
            "start": passages["offset"].to_numpy(),
            "end": (passages["offset"] + passages["length"]).to_numpy(),
        }
    ).drop_duplicates(["topic", "element"])


def passage_pointers(runs: pd.DataFrame) -> pd.DataFrame:
    """FOL run lines as pointers: rank = position among the topic's lines (``order``)."""
    known = runs[runs["offset"] != UNKNOWN_OFFSET]
    return pd.DataFrame(
        {
            "run": known["run"].to_numpy(),
            "topic": known["topic"].to_numpy(),
            "rank": known["order"].to_numpy(),
            "file": known["file"].to_numpy(),
            "start": known["offset"].to_numpy(),
            "end": (known["offset"] + known["length"]).to_numpy(),
        }
    )


def eprum_of_passages(qrels: InexQrels, runs: pd.DataFrame, options: EprumOptions) -> pd.DataFrame:
    """Every EPRUM value of every run and topic (``score_rows``)."""
    model = UserModel(options.model, options.theta)
    ideal = passage_ideal(qrels)
    elements = ideal[["topic", "element"]].assign(idealism=1.0)
    pointed = ideal_list(ideal).assign(run="ideal")
    ideal_navigation = navigation_table(pointed, ideal, model, ["run"]).drop(columns="run")
    ideal_set = IdealSet(elements, ideal_navigation, pointed[["topic", "rank", "element"]])
    navigation = navigation_table(passage_pointers(runs), ideal, model, ["run"])
    names = list(dict.fromkeys(runs["run"]))
    return score_rows(topic_results(navigation, ideal_set, names, exact_limit=options.exact_limit))


def natural_points(rows: pd.DataFrame) -> pd.DataFrame:
    """``run, topic, recall, precision, ideal_length`` from the ``P[r=k]``/``ML*[r=k]`` rows."""
    recall = rows["measure"].str.extract(r"^(P|ML\*)\[r=(\d+)\]$")
    points = rows.assign(kind=recall[0], recall=recall[1]).dropna(subset=["kind"])
    points = points.assign(recall=points["recall"].astype(int))
    table = points.pivot_table(
        index=["run", "topic", "recall"], columns="kind", values="value", aggfunc="first"
    ).reset_index()
    return table.rename(columns={"P": "precision", "ML*": "ideal_length"}).rename_axis(columns=None)


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: EprumOptions) -> Evaluation:
    """The 11 levels and ``avgP`` per run and topic (every topic with a highlighted passage; a
    run without results for it scores 0), their means under topic ``all``."""
    rows = eprum_of_passages(qrels, runs, options)
    scores = rows[rows["measure"].isin([*LEVEL_NAMES, AVERAGE])]
    scores = with_summary(scores, SUMMARY_TOPIC)
    extras = LazyTables({"natural": lambda: natural_points(rows)})
    return Evaluation(scores[SCORE_COLUMNS].reset_index(drop=True), extras)


def summary_extra(qrels: InexQrels, runs: pd.DataFrame, model: str, theta: float) -> pd.DataFrame:
    """``run, measure, value``: each run's means over topics of the levels and ``avgP``, for
    the EPRUM block of another passage task's run pages (``eprum_model`` option)."""
    scores = evaluate(qrels, runs, EprumOptions(model=model, theta=theta)).scores
    summary = scores[scores["topic"] == SUMMARY_TOPIC]
    return summary[["run", "measure", "value"]].reset_index(drop=True)


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
