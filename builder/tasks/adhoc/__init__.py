"""The ``adhoc`` task kind: TREC run files scored like trec_eval (``-q -c -M1000 -l1``).

``evaluate`` returns the long score table for every declared adhoc measure, per topic and
under topic ``all``, plus extra tables made when first read (``pr_points``,
``relevant_points``, ``uninterpolated_precision``, ``curve_points``); both are made by
``builder.tasks.adhoc.score_table``, which describes them.

The kind in one place; its parts by concept: ``reading``
(the read and validate stages), ``parallel`` (the run x topic grid scored on both cores),
``overlap`` (later files read while earlier runs are scored) and ``score_table``; its
options, trec_eval's, are ``builder.tasks.options.adhoc``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import pandas as pd

from builder.contract import Evaluation, RunRead, TaskKind
from builder.measures.adhoc import scores as measures
from builder.tasks.adhoc.overlap import read_and_score
from builder.tasks.adhoc.parallel import score_cells_parallel
from builder.tasks.adhoc.reading import qrels_findings, read_qrels, read_run_files, validate_runs
from builder.tasks.adhoc.score_table import score_table
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.adhoc import AdhocOptions

__all__ = ["KIND", "AdhocOptions"]

def evaluate(
    qrels: pd.DataFrame,
    runs: pd.DataFrame,
    options: AdhocOptions,
    only: Collection[str] | None = None,
) -> Evaluation:
    """Score the concatenated accepted runs; rows per run x topic, then topic ``all``.
    ``only``: the measures wanted (default all; ``measures.compute`` skips the families none
    of them needs, as ``appendix evaluate -m`` asks). On both cores for enough lines
    (``builder.tasks.adhoc.parallel``)."""
    return score_table(score_cells_parallel(qrels, runs, options, only), options)


def read_and_evaluate(paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions,
                      only: Collection[str] | None = None
                      ) -> tuple[list[RunRead], Evaluation | None]:
    """``read_runs`` then ``evaluate`` of the accepted runs, with reading and scoring
    overlapped (``builder.tasks.adhoc.overlap``): the same reads and scores."""
    reads, cells = read_and_score(paths, qrels, options, only)
    return reads, None if cells is None else score_table(cells, options)


KIND = TaskKind(
    name="adhoc",
    family=measures.FAMILY,
    read_qrels=read_qrels,
    qrels_findings=qrels_findings,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    read_and_evaluate=read_and_evaluate,
    options_model=KIND_OPTIONS["adhoc"],
    official_measure="map",
    leaderboard_measures=("map", "P_10", "ndcg_cut_10", "Rprec", "bpref", "recip_rank"),
    default_measures=measures.TREC_EVAL_DEFAULT,
    topic_parts=True,
)
