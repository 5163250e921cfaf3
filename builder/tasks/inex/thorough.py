"""The INEX thorough task (inex_eval 3.1 ``-t``) with HiXEval (seed 003).

Read and validated as the focused task, except that results may overlap; scored by the
thorough family (``builder.measures.inex.thorough.scores``). Extras as the focused task.
"""

from __future__ import annotations

import pandas as pd

from builder.contract import Evaluation, RunRead, TaskKind
from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.focused.precision import OFFICIAL_CUTOFFS
from builder.measures.inex.ranking import rank_passages
from builder.measures.inex.thorough.scores import FAMILY, thorough_score_table
from builder.tasks.inex.eprum_block import eprum_extras
from builder.tasks.inex.focused import (
    qrels_findings,
    read_qrels,
    read_run_files,
    run_extras,
    validate_runs_with,
)
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.passages import ThoroughOptions


def validate_runs(reads: list[RunRead], qrels: InexQrels, options: ThoroughOptions) -> list[RunRead]:
    return validate_runs_with(reads, qrels, options.max_results, reject_overlap=False)


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: ThoroughOptions) -> Evaluation:
    ranked = rank_passages(runs, qrels)
    scores = thorough_score_table(ranked, qrels, options.complete, options.alpha, options.corpus,
                                  options.overlap, options.no_relevant_text,
                                  options.ip_recall, options.hixeval_trel,
                                  options.hixeval_partly_seen)
    return Evaluation(scores, run_extras(ranked, runs) | eprum_extras(qrels, runs, options))


KIND = TaskKind(
    name="thorough",
    family=FAMILY,
    read_qrels=read_qrels,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    options_model=KIND_OPTIONS["thorough"],
    official_measure="iP[0.01]",
    leaderboard_measures=(*OFFICIAL_CUTOFFS, "MAiP"),
    qrels_findings=qrels_findings,
)
