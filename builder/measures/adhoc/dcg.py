"""trec_eval's measures over gains equal to the relevance values: binG (``m_binG.c``), G
(``m_G.c``), nDCG (``m_ndcg.c``), ndcg_rel (``m_ndcg_rel.c``), Rndcg (``m_Rndcg.c``) and nDCG
at k (``m_ndcg_cut.c``), computed from the retrieved rows of positive gain and each topic's
ideal ranking (Jarvelin & Kekalainen, "Cumulated gain-based evaluation of IR techniques", ACM
TOIS 20(4), 2002: DCG = sum of gain / log2(rank + 1), nDCG = DCG / the ideal ranking's DCG).
binG, G, ndcg_rel and Rndcg are trec_eval's experimental measures. nDCG with other gains
(``-m ndcg.1=3,2=9``, and likewise ``G``, ``ndcg_rel``, ``Rndcg``) follows trec_eval's
``setup_gains`` (``builder.measures.adhoc.trec_eval.gain_levels``); ``binG`` takes parameters
and ignores them, as trec_eval does.
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.judged.ranking import JudgedRanking
from builder.measures.adhoc.trec_eval.gain_levels import trec_eval_gains
from builder.measures.adhoc.trec_measure import TREC_EVAL, measure_at_cutoffs, single_value_measure
from builder.measures.bibliography import cite
from builder.measures.running_sums import segment_cumsum


def _segment_cumsum_int(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Running sum of integer ``values`` within each stretch of equal ``segment`` (exact: a
    global cumsum minus each stretch's offset), as float64."""
    total = np.cumsum(values, dtype=np.int64)
    if not len(total):
        return total.astype(np.float64)
    first = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    offset = total[first] - values[first]
    return (total - np.repeat(offset, np.diff(np.r_[first, len(total)]))).astype(np.float64)


class Gains:
    """The retrieved rows of non-zero gain and each topic's ideal ranking, for the gain
    measures. By default gain = qrels relevance (trec_eval's ``setup_gains`` without
    parameters: level i has gain i), so unjudged, unpooled and level-0 documents gain 0 and
    are left out, and the ideal ranking is the judged documents of positive relevance, best
    first. ``row_gain`` (per row of ``judged``), ``ideal`` and ``ideal_start`` give other gains
    (``-m ndcg.1=3.5,2=9``: ``builder.measures.adhoc.trec_eval.gain_levels``), whose ideal
    ranking trec_eval may leave unsorted. P = the length of the topic's ideal ranking."""

    def __init__(self, judged: JudgedRanking, num_ret: np.ndarray,
                 row_gain: np.ndarray | None = None, ideal: np.ndarray | None = None,
                 ideal_start: np.ndarray | None = None) -> None:
        self.exact = row_gain is None  # integer gains: running sums exact
        if row_gain is None:
            at = np.flatnonzero(judged.rel > 0)
            gain = judged.rel[at]
            ideal, ideal_start = judged.ideal_gains, judged.ideal_start
        else:
            at = np.flatnonzero(row_gain != 0)
            gain = row_gain[at]
        self.n_cells, n_topics = judged.num_cells, len(judged.topics)
        self.cell, self.rank, self.gain = judged.cell[at], judged.rank[at], gain
        self.discounted = self.gain / np.log2(self.rank + 1.0)
        self.dcg_so_far = segment_cumsum(self.discounted, self.cell)
        self.cell_topic = judged.topic_of_cell()
        self.topic = self.cell_topic[self.cell]
        self.ideal_start = ideal_start
        self.ideal_topic = np.repeat(np.arange(n_topics), np.diff(self.ideal_start))
        self.position = np.arange(len(ideal)) - self.ideal_start[self.ideal_topic]
        self.ideal = ideal
        self.ideal_discounted = ideal / np.log2(self.position + 2.0)
        self.idcg_so_far = segment_cumsum(self.ideal_discounted, self.ideal_topic)
        self.P = np.diff(self.ideal_start)
        self.idcg = _last_of(self.idcg_so_far, self.ideal_start)
        self.num_ret = num_ret

    def per_cell(self, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.cell, weights=weights, minlength=self.n_cells)

    def dcg(self) -> np.ndarray:
        """DCG of each cell's whole ranking (its last running value, 0 if nothing gains)."""
        return self.per_cell(self.discounted)

    def ideal_at(self, so_far: np.ndarray, k: np.ndarray) -> np.ndarray:
        """``so_far`` (a running value over the ideal ranking) at position min(k, P) of each
        retrieved row's topic (k >= 1; a row of positive gain implies P >= 1)."""
        return so_far[self.ideal_start[self.topic] + np.minimum(k, self.P[self.topic]) - 1]

    def running_sum(self, values: np.ndarray, segment: np.ndarray) -> np.ndarray:
        """A running sum within each segment: exact in integers for the default gains, in
        sequence (as trec_eval's loop adds) for others."""
        if self.exact:
            return _segment_cumsum_int(values.astype(np.int64), segment)
        return segment_cumsum(values.astype(np.float64), segment)


def _last_of(running: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The last value of ``running`` in each stretch ``start[i]:start[i+1]`` (0 if empty)."""
    filled = start[1:] > start[:-1]
    return np.where(filled, running[np.maximum(start[1:] - 1, 0)] if len(running) else 0, 0.0)


def _gains(grid: AdhocGrid) -> Gains:
    return Gains(grid.judged, grid.cells.size)


def gains_of(grid: AdhocGrid, family: str) -> Gains:
    """The gains ``family`` (``ndcg``, ``G``, ``ndcg_rel``, ``Rndcg``) is computed with: the
    relevance values, or the ``level=gain`` pairs it is given, as trec_eval's ``setup_gains``
    reads and orders them."""
    pairs = grid.params.pairs(family)
    if not pairs:
        return grid.shared(_gains)
    row_gain, ideal, ideal_start = trec_eval_gains(
        grid.judged, pairs, integer_names=grid.params.integer_levels,
        order=grid.params.gain_order)
    return Gains(grid.judged, grid.cells.size, row_gain, ideal, ideal_start)


def binary_g(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """binG: sum over the relevant retrieved, at 0-based rank i, of 1 / log2(3 + i - relevant
    so far), i.e. 1 / log2(2 + the documents above it not relevant), divided by R (m_binG.c)."""
    terms = 1.0 / np.log2(grid.relevant_rank + 2.0 - grid.relevant_count)
    return {"binG": grid.mean_over_relevant(terms)}


BIN_G = single_value_measure(
    "binG", binary_g,
    "Binary G: sum over relevant retrieved of 1 / log2(2 + non-relevant or unjudged above "
    "it), divided by R.",
    f"{TREC_EVAL} m_binG.c (experimental)",
    display_name="binG",
)


def g_measure(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """G (m_G.c): sum over retrieved docs of gain / log2(2 + cost(r) - gained(r)), divided by
    the sum of the ideal gains; gained(r) = gain of ranks 1..r, cost(r) = the ideal gains of
    the first min(r, P) ideal positions, each counted at least 1 (trec_eval's min_cost), + 1
    per rank beyond P."""
    gains = gains_of(grid, "G")
    ideal_so_far = gains.running_sum(gains.ideal, gains.ideal_topic)
    cost_so_far = gains.running_sum(np.maximum(gains.ideal, 1), gains.ideal_topic)
    beyond = np.maximum(gains.rank - gains.P[gains.topic], 0)
    has_ideal = gains.P[gains.topic] > 0
    ideal_cost = gains.ideal_at(cost_so_far, gains.rank) if len(cost_so_far) else 0.0
    cost = np.where(has_ideal, ideal_cost, 0.0) + beyond
    gained = gains.running_sum(gains.gain, gains.cell)
    terms = gains.gain / np.log2(2.0 + cost - gained)
    sum_ideal = _last_of(ideal_so_far, gains.ideal_start)[gains.cell_topic]
    return {grid.name("G"): ratio(gains.per_cell(terms), sum_ideal)}


G = single_value_measure(
    "G", g_measure,
    "Normalized gain: sum over retrieved documents of gain / log2(2 + cost(r) - gained(r)), "
    "gained(r) = gain of ranks 1..r, cost(r) = ideal gain of the first min(r, P) positions "
    "+ 1 per rank beyond P (P = documents of positive gain); divided by the total ideal "
    "gain. Gain = qrels relevance value, or as G.1=3.5,2=9 gives it.",
    f"{TREC_EVAL} m_G.c (experimental)",
    display_name="G",
)


def ndcg(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """nDCG = DCG / IDCG over the whole ranking, gains the relevance values (m_ndcg.c); with
    gains per level (``-m ndcg.1=3,2=9``), trec_eval's (``gains_of``)."""
    gains, judged = gains_of(grid, "ndcg"), grid.judged
    ideal_total = np.bincount(
        gains.ideal_topic, weights=gains.ideal_discounted, minlength=len(judged.topics)
    )
    return {grid.name("ndcg"): ratio(gains.dcg(), ideal_total[grid.topic])}


NDCG = single_value_measure(
    "ndcg", ndcg,
    "nDCG (Jarvelin & Kekalainen 2002), gain = qrels relevance value, discount "
    "log2(rank+1), ideal ranking from all judged documents.",
    f"{cite('jarvelin2002')}; {TREC_EVAL} m_ndcg.c",
    display_name="nDCG",
)


def ndcg_rel(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """ndcg_rel (m_ndcg_rel.c): nDCG at each retrieved doc of positive gain, DCG(r) /
    IDCG(min(r, P)), plus (P - those retrieved) x DCG(N) / IDCG(P), all divided by P."""
    gains = gains_of(grid, "ndcg_rel")
    point = gains.gain > 0  # rows of negative gain change the DCG, are no point
    at_docs = np.bincount(gains.cell[point], weights=(gains.dcg_so_far / gains.ideal_at(
        gains.idcg_so_far, gains.rank))[point], minlength=gains.n_cells)
    P = gains.P[gains.cell_topic]
    missed = (P - np.bincount(gains.cell[point], minlength=gains.n_cells)).astype(np.float64)
    total = at_docs + ratio(missed * gains.dcg(), gains.idcg[gains.cell_topic])
    return {grid.name("ndcg_rel"): np.where(total > 0, ratio(total, P), 0.0)}


NDCG_REL = single_value_measure(
    "ndcg_rel", ndcg_rel,
    "nDCG averaged over the P documents of positive gain: DCG(r) / IDCG(min(r, P)) at each "
    "one retrieved (rank r), DCG(N) / IDCG(P) for each one missed; divided by P.",
    f"{TREC_EVAL} m_ndcg_rel.c (experimental)",
    display_name="nDCG (rel)",
)


def r_ndcg(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """Rndcg (m_Rndcg.c): mean of DCG(c) / IDCG(c) at each c where the ideal gain changes
    (c = documents of the ideal ranking above a lower gain, the last c = P), plus DCG(N) /
    IDCG(P) when N > P + 1 (trec_eval's final point; none when N = P + 1); 0 when R = 0."""
    gains = gains_of(grid, "Rndcg")
    ideal, topic_of, position = gains.ideal, gains.ideal_topic, gains.position
    last_of_topic = position == gains.P[topic_of] - 1
    change = np.flatnonzero(np.r_[ideal[1:] != ideal[:-1], True] | last_of_topic)
    n_changes = np.bincount(topic_of[change], minlength=len(gains.P))
    change_start = np.r_[0, np.cumsum(n_changes)]
    per_cell = n_changes[gains.cell_topic]
    point_cell = np.repeat(np.arange(gains.n_cells), per_cell)
    nth = np.arange(len(point_cell)) - np.repeat(np.r_[0, np.cumsum(per_cell)[:-1]], per_cell)
    point = change[change_start[gains.cell_topic[point_cell]] + nth]
    at_point = _dcg_at(gains, point_cell, position[point] + 1) / gains.idcg_so_far[point]
    total = np.bincount(point_cell, weights=at_point, minlength=gains.n_cells)
    P = gains.P[gains.cell_topic]
    final = gains.num_ret > P + 1
    total = total + np.where(final, ratio(gains.dcg(), gains.idcg[gains.cell_topic]), 0.0)
    return {grid.name("Rndcg"): np.where(grid.R > 0, ratio(total, per_cell + final), 0.0)}


RNDCG = single_value_measure(
    "Rndcg", r_ndcg,
    "nDCG averaged at the R levels: DCG(c) / IDCG(c) at each c where the ideal gain drops "
    "(last c = P), plus DCG(N) / IDCG(P) when N > P + 1; 0 when R = 0.",
    f"{TREC_EVAL} m_Rndcg.c (experimental)",
    display_name="R-nDCG",
)


def _dcg_at(gains: Gains, cell: np.ndarray, k: np.ndarray) -> np.ndarray:
    """DCG of ``cell``'s ranking over its first k documents (cells in order, k >= 1)."""
    width = int(gains.rank.max()) + 1 if len(gains.rank) else 1
    keys = gains.cell.astype(np.int64) * width + gains.rank
    wanted = cell.astype(np.int64) * width + np.minimum(k, width - 1)
    last = np.searchsorted(keys, wanted, side="right") - 1
    safe = np.maximum(last, 0)
    found = (last >= 0) & (gains.cell[safe] == cell) if len(keys) else np.zeros(len(cell), bool)
    return np.where(found, gains.dcg_so_far[safe] if len(keys) else 0.0, 0.0)


def ndcg_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """nDCG over the first k documents: DCG(k) / the ideal ranking's DCG(k) (m_ndcg_cut.c)."""
    gains, judged = grid.shared(_gains), grid.judged
    n_topics = len(judged.topics)
    values = {}
    for k, name in grid.cutoffs("ndcg_cut"):
        top = gains.position < k
        ideal_k = np.bincount(gains.ideal_topic[top], weights=gains.ideal_discounted[top],
                              minlength=n_topics)
        within = gains.rank <= k
        dcg_k = np.bincount(gains.cell[within], weights=gains.discounted[within],
                            minlength=grid.num_cells)
        values[name] = ratio(dcg_k, ideal_k[grid.topic])
    return values


NDCG_CUT = measure_at_cutoffs(
    "ndcg_cut", ndcg_at, "nDCG over the first {k} documents.", f"{TREC_EVAL} m_ndcg_cut.c",
    reads_top_k=True,
    display_name="nDCG@{k}",
)
