"""Ad hoc (document ranking) measures, as trec_eval 9.0.8 computes them, over all runs at once.

Each measure is declared once, under the name trec_eval prints, in
``builder.measures.adhoc_declarations``. Every value is computed
per (run, topic) cell from a ``JudgedRanking`` (score descending, docno descending on ties,
cut at depth ``-M``). Notation: R = relevant documents of the topic (qrels relevance >= the
level ``-l``), rel(i) = 1 when the document at rank i is relevant, N = documents retrieved.

Where we differ from trec_eval 9.0.8: interpolated precision (``iprec_at_recall_*`` and
``11pt_avg``) rounds the recall cutoff exactly, ceil(x * R), as the NIST appendices and
trec_eval 8.1 do; ``trec_eval_9`` and ``lround`` (10.0) are options (see
``builder.measures.adhoc_interpolation``). A duplicate docno within a topic is an error that
rejects the run (trec_eval stops on it too, but only within the depth cut).
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc_declarations import (  # noqa: F401 (re-exported)
    CUTOFFS,
    FAMILY,
    INFAP_EPSILON,
    MIN_GEO_MEAN,
    RPREC_MULTIPLES,
    SUCCESS_CUTOFFS,
    TREC_EVAL_DEFAULT,
)
from builder.measures.adhoc_interpolation import (
    RECALL_LEVELS,
    Interpolation,
    best_precision_after,
    interpolated_precision,
    recall_cutoffs,
)
from builder.measures.adhoc_ranking import UNJUDGED, JudgedRanking


class _Cells:
    """Positions of each cell's rows in the evaluation order (rows of a cell are contiguous)."""

    def __init__(self, judged: JudgedRanking) -> None:
        self.size = judged.per_cell().astype(np.int64)
        self.start = np.r_[0, np.cumsum(self.size)[:-1]]

    def count_within(self, running: np.ndarray, k: np.ndarray | int) -> np.ndarray:
        """``running`` (a count so far, per row) at each cell's rank min(k, size); 0 if empty."""
        depth = np.minimum(k, self.size)
        index = np.where(depth > 0, self.start + depth - 1, 0)
        return np.where(depth > 0, running[index] if len(running) else 0, 0)

    def running_count(self, flags: np.ndarray) -> np.ndarray:
        """How many rows so far in the cell (this one included) have ``flags`` (int32: one
        value per retrieved document, so the narrow type halves the largest arrays)."""
        total = np.cumsum(flags, dtype=np.int32)
        filled = self.size > 0
        first = self.start[filled]
        total -= np.repeat(total[first] - flags[first], self.size[filled])
        return total


def _ratio(numerator, denominator) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (trec_eval's guard)."""
    denominator = np.asarray(denominator, dtype=np.float64)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, numerator / safe, 0.0)


def compute(
    judged: JudgedRanking, *, rel_level: int, interpolation: Interpolation
) -> dict[str, np.ndarray]:
    """Every per-topic measure on the flat run x topic grid (``JudgedRanking.cell`` order)."""
    cells = _Cells(judged)
    n_cells = judged.num_cells
    rel = judged.rel
    is_rel = (rel >= 0) & (rel >= rel_level)
    rel_so_far = cells.running_count(is_rel)
    topic = judged.topic_of_cell()
    R = judged.num_rel[topic]

    # Measures that only look at the relevant retrieved rows work on that subset.
    at = np.flatnonzero(is_rel)
    rel_cell, rel_rank = judged.cell[at], judged.rank[at].astype(np.float64)
    rel_count = rel_so_far[at]
    nonrel_so_far = cells.running_count((rel >= 0) & (rel < rel_level))
    nonrel_before = nonrel_so_far[at]
    unjudged_before = cells.running_count(rel == UNJUDGED)[at]
    R_rel = R[rel_cell]

    def per_cell(weights: np.ndarray) -> np.ndarray:
        return np.bincount(rel_cell, weights=weights, minlength=n_cells)

    out: dict[str, np.ndarray] = {}
    out["num_ret"] = cells.size.astype(np.float64)
    out["num_rel"] = R.astype(np.float64)
    num_rel_ret = np.bincount(rel_cell, minlength=n_cells).astype(np.float64)
    out["num_rel_ret"] = num_rel_ret
    precision = rel_count / rel_rank
    out["map"] = _ratio(per_cell(precision), R)
    out["gm_map"] = out["map"]
    out["Rprec"] = _ratio(cells.count_within(rel_so_far, R), R)
    num_nonrel = judged.num_nonrel[topic][rel_cell]
    out["bpref"] = _ratio(per_cell(_bpref_terms(nonrel_before, num_nonrel, R_rel)), R)
    first = rel_count == 1
    first_rel_rank = np.zeros(n_cells)
    first_rel_rank[rel_cell[first]] = rel_rank[first]
    out["recip_rank"] = _ratio(np.ones(n_cells), first_rel_rank)

    best_after = best_precision_after(rel_cell, precision)
    first_index = np.searchsorted(rel_cell, np.arange(n_cells))
    iprec_sum = np.zeros(n_cells)
    for level in RECALL_LEVELS:
        cut = recall_cutoffs(level, R, interpolation)
        value = interpolated_precision(best_after, first_index, num_rel_ret, cut)
        out[f"iprec_at_recall_{level}"] = value
        iprec_sum += value
    rel_in_top = {k: cells.count_within(rel_so_far, k) for k in CUTOFFS}
    for k in CUTOFFS:
        out[f"P_{k}"] = rel_in_top[k] / k
    for k in CUTOFFS:
        out[f"recall_{k}"] = _ratio(rel_in_top[k], R)
    out["infAP"] = _ratio(
        per_cell(_infap_terms(rel_rank, rel_count, nonrel_before, unjudged_before)), R
    )
    out["11pt_avg"] = iprec_sum / len(RECALL_LEVELS)
    out["gm_bpref"] = out["bpref"]
    for multiple in RPREC_MULTIPLES:
        cut = np.floor(float(multiple) * R + 0.9).astype(np.int64)
        out[f"Rprec_mult_{multiple}"] = _ratio(cells.count_within(rel_so_far, cut), cut)
    out.update(_ndcg(judged))
    for k in CUTOFFS:
        out[f"map_cut_{k}"] = _ratio(per_cell(np.where(rel_rank <= k, precision, 0.0)), R)
    for k in CUTOFFS:
        out[f"relative_P_{k}"] = _ratio(rel_in_top[k], np.minimum(k, R))
    for k in SUCCESS_CUTOFFS:
        out[f"success_{k}"] = ((first_rel_rank >= 1) & (first_rel_rank <= k)).astype(np.float64)
    set_p = _ratio(num_rel_ret, out["num_ret"])
    set_recall = _ratio(num_rel_ret, R)
    out["set_P"] = set_p
    out["set_relative_P"] = _ratio(num_rel_ret, np.minimum(out["num_ret"], R))
    out["set_recall"] = set_recall
    out["set_map"] = set_p * set_recall
    out["set_F"] = _ratio(2 * set_p * set_recall, set_p + set_recall)
    out["num_nonrel_judged_ret"] = cells.count_within(nonrel_so_far, cells.size).astype(np.float64)
    return out


def _bpref_terms(nonrel_before, num_nonrel, R) -> np.ndarray:
    """Per relevant row: 1 - min(nonrel above, R) / min(nonrel judged, R) (m_bpref.c)."""
    penalty = _ratio(np.minimum(nonrel_before, R), np.minimum(num_nonrel, R))
    return np.where(nonrel_before > 0, 1.0 - penalty, 1.0)


def _infap_terms(rank, rel_count, nonrel_before, unjudged_before) -> np.ndarray:
    """Per relevant row at 0-based rank j > 0 (m_infap.c, same operation order):
    1/(j+1) + j/(j+1) * ((rel-1 + nonrel + unjudged)/j) * ((rel-1 + e)/(rel-1 + nonrel + 2e))."""
    j = rank - 1.0
    safe_j = np.where(j > 0, j, 1.0)
    previous_rel = rel_count - 1
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
        (previous_rel + nonrel_before + unjudged_before) / safe_j
    ) * ((previous_rel + INFAP_EPSILON) / (previous_rel + nonrel_before + 2 * INFAP_EPSILON))
    return np.where(j == 0, 1.0, term)


def _ndcg(judged: JudgedRanking) -> dict[str, np.ndarray]:
    """nDCG and nDCG at cutoffs; gains are the relevance values (m_ndcg.c, m_ndcg_cut.c)."""
    at = np.flatnonzero(judged.rel > 0)
    cell, rank = judged.cell[at], judged.rank[at]
    discounted = judged.rel[at] / np.log2(rank + 1.0)
    ideal = judged.ideal_gains
    position = np.arange(len(ideal)) - np.repeat(
        judged.ideal_start[:-1], np.diff(judged.ideal_start)
    )
    ideal_discounted = ideal / np.log2(position + 2.0)
    ideal_topic = np.repeat(np.arange(len(judged.topics)), np.diff(judged.ideal_start))
    topic = judged.topic_of_cell()
    n_topics, n_cells = len(judged.topics), judged.num_cells
    out = {}
    ideal_total = np.bincount(ideal_topic, weights=ideal_discounted, minlength=n_topics)
    dcg = np.bincount(cell, weights=discounted, minlength=n_cells)
    out["ndcg"] = _ratio(dcg, ideal_total[topic])
    for k in CUTOFFS:
        top = position < k
        ideal_k = np.bincount(ideal_topic[top], weights=ideal_discounted[top], minlength=n_topics)
        within = rank <= k
        dcg_k = np.bincount(cell[within], weights=discounted[within], minlength=n_cells)
        out[f"ndcg_cut_{k}"] = _ratio(dcg_k, ideal_k[topic])
    return out
