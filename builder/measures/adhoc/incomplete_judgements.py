"""Measures for incomplete judgements: bpref and infAP, built to rank systems as average
precision would when the pool misses relevant documents, and how much of a ranking is judged
(unj_k, trec_eval 10.0; judged@k, ir_measures).

A retrieved document is *judged* when the qrels list it; a negative qrels relevance marks a
document in the pool but not judged (``UNJUDGED``): it counts neither as relevant nor as
judged non-relevant (bpref, infAP), and as unjudged for unj_k but as listed for judged@k.
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.judged.ranking import NOT_IN_POOL, JudgedRanking
from builder.measures.adhoc.trec_measure import (
    TREC_EVAL,
    TREC_EVAL_10,
    measure_at_cutoffs,
    single_value_measure,
)
from builder.measures.bibliography import cite
from builder.measures.registry import Aggregation

INFAP_EPSILON = 0.00001
"""infAP's smoothing e (``m_infap.c``)."""


def _bpref(grid: AdhocGrid) -> np.ndarray:
    """Per relevant row: 1 - min(nonrel above, R) / min(nonrel judged, R), 1 when no judged
    non-relevant document is above it; summed per cell and divided by R (m_bpref.c)."""
    R = grid.R[grid.relevant_cell]
    above = grid.nonrelevant_before
    num_nonrel = grid.judged.num_nonrel[grid.topic][grid.relevant_cell]
    penalty = ratio(np.minimum(above, R), np.minimum(num_nonrel, R))
    return grid.mean_over_relevant(np.where(above > 0, 1.0 - penalty, 1.0))


def binary_preference(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """bpref (Buckley & Voorhees SIGIR 2004; trec_eval's m_bpref.c): see ``_bpref``."""
    return {"bpref": grid.shared(_bpref)}


BPREF = single_value_measure(
    "bpref", binary_preference,
    "Binary preference: 1 - (judged non-relevant above it, capped at R) / min(R, "
    "non-relevant), averaged over the relevant documents.",
    f"{cite('buckley2004')}; {TREC_EVAL} m_bpref.c",
    differs="Negative qrels relevance counts neither as relevant nor as judged non-relevant.",
    display_name="bpref",
)


def geometric_mean_bpref(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """bpref per topic; the summary is their geometric mean, each floored at 0.00001
    (``Aggregation.GMEAN``, m_gm_bpref.c)."""
    return {"gm_bpref": grid.shared(_bpref)}


GM_BPREF = single_value_measure(
    "gm_bpref", geometric_mean_bpref,
    "Geometric mean over topics of bpref, each floored at 0.00001.",
    f"{TREC_EVAL} m_gm_bpref.c",
    aggregation=Aggregation.GMEAN,
    display_name="GM bpref",
)


def inferred_average_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """infAP (Yilmaz & Aslam CIKM 2006), m_infap.c's deterministic formula in its operation
    order: per relevant row at 0-based rank j > 0, with rel = relevant above it, nonrel and
    unjudged the judged non-relevant and pooled-unjudged documents above it,
    1/(j+1) + j/(j+1) * ((rel + nonrel + unjudged)/j) * ((rel + e)/(rel + nonrel + 2e)),
    e = 0.00001; 1 at rank 1. Summed per cell and divided by R."""
    j = grid.relevant_rank - 1.0
    safe_j = np.where(j > 0, j, 1.0)
    previous_rel = grid.relevant_count - 1
    nonrel, unjudged, e = grid.nonrelevant_before, grid.unjudged_before, INFAP_EPSILON
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
        (previous_rel + nonrel + unjudged) / safe_j
    ) * ((previous_rel + e) / (previous_rel + nonrel + 2 * e))
    return {"infAP": grid.mean_over_relevant(np.where(j == 0, 1.0, term))}


INFAP = single_value_measure(
    "infAP", inferred_average_precision,
    "Inferred AP (Yilmaz & Aslam CIKM 2006), trec_eval's deterministic formula over judged, "
    "unjudged-in-pool and unpooled documents.",
    f"{cite('yilmaz2006')}; {TREC_EVAL} m_infap.c",
    display_name="infAP",
)


def unjudged_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """unj_k = documents among the first k not judged (absent from the qrels, or judged
    negatively) / k; ranks beyond N count as judged (trec_eval 10.0's m_unjudged.c)."""
    unjudged_so_far = grid.cells.running_count(grid.judged.rel < 0)
    return {name: grid.cells.count_within(unjudged_so_far, k) / k
            for k, name in grid.cutoffs("unj")}


UNJ = measure_at_cutoffs(
    "unj", unjudged_at,
    "Fraction of the first {k} documents not judged (missing ranks count as judged).",
    f"{TREC_EVAL_10} m_unjudged.c", reads_top_k=True, higher_is_better=False,
    display_name="Unjudged@{k}",
)


def judged_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """judged@k = documents listed in the qrels (whatever their grade) among the first
    min(k, N) / min(k, N): ir_measures' ``Judged@k`` (from OpenNIR), whose ranking breaks
    score ties by docno *ascending*. Only the rows that can be in a top k are counted (a few
    per ranking, not all)."""
    wanted = grid.cutoffs("judged@")
    if not wanted:
        return {}
    judged = grid.judged
    deepest = max(k for k, _ in wanted)
    rank_ascending = _docno_ascending_rank(judged)
    top = np.flatnonzero((rank_ascending <= deepest) & (judged.rel != NOT_IN_POOL))
    top_cell, top_rank = judged.cell[top], rank_ascending[top]
    values = {}
    for k, name in wanted:
        listed = np.bincount(top_cell[top_rank <= k], minlength=grid.num_cells)
        values[name] = ratio(listed.astype(np.float64), np.minimum(k, grid.cells.size))
    return values


def _docno_ascending_rank(judged: JudgedRanking) -> np.ndarray:
    """Each row's rank when score ties are broken by docno ascending: a tie's rows in reverse
    (computed on the rows of ties only)."""
    tied = judged.tied
    if tied is None or len(tied) != len(judged.rank) or not tied.any():
        return judged.rank  # no ties known (a ranking rebuilt without them): trec_eval's order
    # The rows of ties of two or more: a row tied with the one above, or the row above it.
    in_tie = np.flatnonzero(tied | np.r_[tied[1:], False])
    first = ~tied[in_tie]  # each tie's first row; a tie's rows are consecutive
    size = np.diff(np.r_[np.flatnonzero(first), len(in_tie)])
    start = np.repeat(in_tie[first], size)
    rank = judged.rank.copy()
    rank[in_tie] += (2 * start + np.repeat(size, size) - 1 - 2 * in_tie).astype(rank.dtype)
    return rank


JUDGED = measure_at_cutoffs(
    "judged@", judged_at,
    "Fraction of the first min({k}, retrieved) documents listed in the qrels (score ties "
    "broken by docno ascending, as ir_measures does).",
    "ir_measures Judged@k (MacAvaney et al.; OpenNIR)",
    display_name="Judged@{k}",
)
