"""The EPRUM task: passage (FOL) and element runs scored by expected precision-recall with user
modelling.

Piwowarski and Dupret (SIGIR 2006), computed by ``builder.measures.eprum.passages`` (which
says what the ideal elements and the ranks are) under the user model the options choose:
``classical``, ``tree`` or ``distance`` (``theta``). The runs are read and validated as the
focused task's (element runs resolved to character ranges over the ``corpus`` option), except
that overlapping passages are allowed.

Extras of the Evaluation (made when first read): ``natural`` (run, topic, recall, precision,
ideal_length), the precision at every natural recall point; ``above_one`` (run, topic,
measure, value), the precision values above 1 that EPRUM's factorisation allows
(``builder.measures.eprum.scores.ABOVE_ONE``), which the run pages flag.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from builder.contract import Evaluation, LazyTables, RunRead, TaskKind
from builder.formats.inex.qrels import InexQrels, read_inex_qrels
from builder.measures.eprum.passages import eprum_of_passages, level_scores, natural_points
from builder.measures.eprum.scores import AVERAGE, FAMILY, above_one
from builder.tasks.inex.focused import read_run_files, validate_runs_with
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.passages import EprumOptions


def validate_runs(reads: list[RunRead], qrels: InexQrels, options: EprumOptions) -> list[RunRead]:
    return validate_runs_with(reads, qrels, options.max_results, reject_overlap=False)


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: EprumOptions) -> Evaluation:
    """The 11 levels and ``avgP`` per run and topic, their means under topic ``all``
    (``builder.measures.eprum.passages``); the natural recall points as an extra."""
    rows = eprum_of_passages(qrels, runs, options.model, options.theta, options.exact_limit)
    extras = LazyTables({"natural": lambda: natural_points(rows),
                         "above_one": lambda: above_one(rows)})
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
    options_model=KIND_OPTIONS["eprum"],
    official_measure=AVERAGE,
    leaderboard_measures=(AVERAGE, "P[0.00]", "P[0.10]", "P[0.50]", "P[1.00]"),
)
