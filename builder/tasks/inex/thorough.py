"""The INEX thorough task (inex_eval 3.1 ``-t``) with HiXEval (seed 003).

Read and validated as the focused task, except that results may overlap; scored by the
thorough family (``builder.measures.inex.thorough.scores``). Extras as the focused task.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import ConfigDict, Field

from builder.contract import Evaluation, RunRead, TaskKind
from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.focused.precision import OFFICIAL_CUTOFFS
from builder.measures.inex.ranking import rank_passages
from builder.measures.inex.thorough.scores import FAMILY, thorough_score_table
from builder.tasks.inex.eprum_block import EprumBlockOptions, eprum_extras
from builder.tasks.inex.focused import (
    CORPUS_FIELD,
    MAX_RESULTS_FIELD,
    NO_RELEVANT_TEXT_FIELD,
    qrels_findings,
    read_qrels,
    read_run_files,
    run_extras,
    validate_runs_with,
)
from builder.tasks.naming import RunNamingOptions


class ThoroughOptions(RunNamingOptions, EprumBlockOptions):
    """Options of the thorough task (``site_config.yml`` task ``options``, CLI ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    complete: bool = Field(False, description="Average over every qrels topic (inex_eval -c).")
    max_results: int | None = MAX_RESULTS_FIELD
    no_relevant_text: Literal["zero", "nan"] = NO_RELEVANT_TEXT_FIELD
    alpha: float = Field(1.0, ge=0.0, le=1.0, description="HiXEval overlap weight: 1 overlap=on, 0 off.")
    overlap: Literal["once", "each"] = Field(
        "once", description="inex_eval's measures: text retrieved by two results counts once "
        "(inex_eval -t) or each time (every result in full).")
    corpus: Path | None = CORPUS_FIELD


def validate_runs(reads: list[RunRead], qrels: InexQrels, options: ThoroughOptions) -> list[RunRead]:
    return validate_runs_with(reads, qrels, options.max_results, reject_overlap=False)


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: ThoroughOptions) -> Evaluation:
    ranked = rank_passages(runs, qrels)
    scores = thorough_score_table(ranked, qrels, options.complete, options.alpha, options.corpus,
                                  options.overlap, options.no_relevant_text)
    return Evaluation(scores, run_extras(ranked, runs) | eprum_extras(qrels, runs, options))


KIND = TaskKind(
    name="thorough",
    family=FAMILY,
    read_qrels=read_qrels,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    options_model=ThoroughOptions,
    official_measure="iP[0.01]",
    leaderboard_measures=(*OFFICIAL_CUTOFFS, "MAiP"),
    qrels_findings=qrels_findings,
)
