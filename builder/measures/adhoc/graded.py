"""Graded measures campaigns publish beyond trec_eval: ERR, nERR and nDCG at k as the TREC Web
track's ``gdeval.pl`` computes them, and the fraction of judged documents in the top k.

- ``err@k``: expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, "Expected
  reciprocal rank for graded relevance", CIKM 2009, eq. 4): sum over ranks i <= k of
  R_i / i x prod_{j<i} (1 - R_j), with R_i = (2^g_i - 1) / 2^4 (gdeval's ``err``, grade cap 4).
- ``nerr@k``: err@k divided by the err@k of the ideal ranking (the topic's judged grades,
  best first).
- ``ndcg@k``: gdeval's nDCG, exponential gains (2^g - 1) / log(i + 1) over the first k, divided
  by the same sum over the ideal ranking (Burges et al. ICML 2005; gdeval's ``dcg``).
- ``judged@k``: judged documents (listed in the qrels, whatever their grade) among the first
  min(k, N) retrieved, divided by min(k, N): ir_measures' ``Judged@k`` (from OpenNIR), whose
  ranking breaks score ties by docno *ascending*.

Grades are the qrels' values, negative ones as 0; gdeval refuses a grade above 4
(``$MAX_JUDGMENT``), so we cap grades at 4. Rankings are trec_eval's (score descending, docno
descending, as gdeval sorts them too).
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.judged.ranking import NOT_IN_POOL, JudgedRanking
from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.running_sums import segment_cumsum_before

MAX_GRADE = 4
"""gdeval's ``$MAX_JUDGMENT``: ERR's R_i = (2^g - 1) / 2^4."""
GRADED = ("err@", "nerr@", "ndcg@")


def _stop_probability(grade: np.ndarray) -> np.ndarray:
    return (2.0 ** np.clip(grade, 0, MAX_GRADE) - 1.0) / 2.0**MAX_GRADE


def _err_terms(cell: np.ndarray, position: np.ndarray, grade: np.ndarray) -> np.ndarray:
    """R_i / i x prod_{j<i} (1 - R_j) at each row (rows of positive grade, in rank order per
    cell; rows of grade 0 change nothing). The product is a running sum of logs: 1 - R >= 1/16."""
    r = _stop_probability(grade)
    # Summed within each cell only, so that a ranking's terms do not depend on the others.
    before = segment_cumsum_before(np.log1p(-r), cell)
    return r * np.exp(before) / position


def _ideal(judged: JudgedRanking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(topic, 1-based position, grade) of each topic's ideal ranking (positive grades)."""
    topic = np.repeat(np.arange(len(judged.topics)), np.diff(judged.ideal_start))
    position = np.arange(len(topic)) - judged.ideal_start[topic] + 1.0
    return topic, position, np.minimum(judged.ideal_gains, MAX_GRADE)


def graded_measures(judged: JudgedRanking, num_ret: np.ndarray, params: AdhocParams) -> dict:
    """err@k, nerr@k, ndcg@k (gdeval) and judged@k per cell, for the cutoffs of ``params``."""
    out: dict[str, np.ndarray] = {}
    n_cells, n_topics = judged.num_cells, len(judged.topics)
    cell_topic = judged.topic_of_cell()
    at = np.flatnonzero(judged.rel > 0)
    cell, rank = judged.cell[at], judged.rank[at].astype(np.float64)
    grade = np.minimum(judged.rel[at], MAX_GRADE).astype(np.float64)
    err_terms = _err_terms(cell, rank, grade)
    topic, position, ideal_grade = _ideal(judged)
    ideal_err_terms = _err_terms(topic, position, ideal_grade)
    dcg_terms = (2.0**grade - 1.0) / np.log(rank + 1.0)
    ideal_dcg_terms = (2.0**ideal_grade - 1.0) / np.log(position + 1.0)

    def per_cell(terms, k):
        return np.bincount(cell[rank <= k], weights=terms[rank <= k], minlength=n_cells)

    def per_topic(terms, k):
        within = position <= k
        return np.bincount(topic[within], weights=terms[within], minlength=n_topics)[cell_topic]

    for family, name, k in _cutoffs(params, GRADED):
        if family == "err@":
            out[name] = per_cell(err_terms, k)
        elif family == "nerr@":
            out[name] = ratio(per_cell(err_terms, k), per_topic(ideal_err_terms, k))
        else:
            out[name] = ratio(per_cell(dcg_terms, k), per_topic(ideal_dcg_terms, k))
    judged_at = _cutoffs(params, ("judged@",))
    if judged_at:
        # Only the rows that can be in a top k are counted (a few per ranking, not all).
        deepest = max(k for _, _, k in judged_at)
        rank_ascending = _docno_ascending_rank(judged)
        top = np.flatnonzero((rank_ascending <= deepest) & (judged.rel != NOT_IN_POOL))
        top_cell, top_rank = judged.cell[top], rank_ascending[top]
        for _, name, k in judged_at:
            listed = np.bincount(top_cell[top_rank <= k], minlength=n_cells).astype(np.float64)
            out[name] = ratio(listed, np.minimum(k, num_ret))
    return out


def _cutoffs(params: AdhocParams, families: tuple[str, ...]) -> list[tuple[str, str, int]]:
    return [
        (family, name, k)
        for family in families
        for k, name in zip(params.long_cutoffs(family), params.names(family))
    ]


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
