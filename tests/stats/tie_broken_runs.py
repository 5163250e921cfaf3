"""Runs rewritten so that trec_eval itself breaks their ties by grade: the tests' way to check
``builder.stats.reliability.ties.tie_table``'s best and worst bounds against an evaluation."""

from __future__ import annotations

import numpy as np

from builder.stats.reliability.adhoc_rejudge import AdhocJudgements, rejudge
from builder.stats.reliability.ties import tie_groups


def tie_broken_scores(judgements: AdhocJudgements, run_scores: np.ndarray,
                      highest_first: bool) -> np.ndarray:
    """Scores for the run table's rows that make trec_eval rank every tied group with the
    highest grades first (or last): each ranked row gets minus its new rank. Rows of topics
    outside the qrels keep their score."""
    judged = rejudge(judgements)
    group = tie_groups(judged, run_scores[judged.row])
    key = -judged.rel.astype(np.int64) if highest_first else judged.rel.astype(np.int64)
    order = np.lexsort((np.arange(len(key)), key, group))
    rewritten = run_scores.astype(np.float64).copy()
    rewritten[judged.row[order]] = -judged.rank.astype(np.float64)
    return rewritten
