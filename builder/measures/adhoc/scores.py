"""Ad hoc (document ranking) measures, as trec_eval 9.0.8 computes them, over all runs at once.

Each measure is declared once, under the name trec_eval prints, in
``builder.measures.adhoc.declarations``. Every value is computed
per (run, topic) cell from a ``JudgedRanking`` (score descending, docno descending on ties,
cut at depth ``-M``). Notation: R = relevant documents of the topic (qrels relevance >= the
level ``-l``), rel(i) = 1 when the document at rank i is relevant, N = documents retrieved.

Where we differ from trec_eval 9.0.8: interpolated precision (``iprec_at_recall_*`` and
``11pt_avg``) rounds the recall cutoff exactly, ceil(x * R), as the NIST appendices and
trec_eval 8.1 do; ``trec_eval_9`` and ``lround`` (10.0) are options (see
``builder.measures.adhoc.interpolation``). A duplicate docno within a topic is an error that
rejects the run (trec_eval stops on it too, but only within the depth cut).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from builder.measures.adhoc.dcg import Gains, g_measure, ndcg, ndcg_cut, ndcg_rel, rndcg
from builder.measures.adhoc.declarations import (  # noqa: F401 (re-exported)
    CUTOFFS,
    FAMILY,
    INFAP_EPSILON,
    RPREC_MULTIPLES,
    SUCCESS_CUTOFFS,
    TREC_EVAL_DEFAULT,
)
from builder.measures.adhoc.gains import ndcg_with_gains, rbp_measures
from builder.measures.adhoc.graded import GRADED, graded_measures
from builder.measures.adhoc.interpolation import (
    Interpolation,
    best_precision_after,
    interpolated_precision,
    recall_cutoffs,
)
from builder.measures.adhoc.judged.cells import Cells, ratio
from builder.measures.adhoc.judged.ranking import UNJUDGED, JudgedRanking
from builder.measures.adhoc.trec_eval.params import AdhocParams

DEFAULT_PARAMS = AdhocParams()


def compute(
    judged: JudgedRanking,
    *,
    rel_level: int,
    interpolation: Interpolation,
    params: AdhocParams = DEFAULT_PARAMS,
    collection_size: int = 0,
    only: Collection[str] | None = None,
) -> dict[str, np.ndarray]:
    """Every per-topic measure on the flat run x topic grid (``JudgedRanking.cell`` order),
    named as trec_eval prints them with ``params`` (its ``-m FAMILY.PARAMS``);
    ``collection_size`` is trec_eval's ``-N`` (utility's d). ``only``: the names wanted
    (default all); the families none of them needs are not computed, which is what makes
    re-scoring a few measures under many sampled judgements cheap."""

    def wanted(*families: str) -> bool:
        return only is None or any(n in only for f in families for n in params.names(f))

    def named(family: str, values) -> list[tuple]:
        return [(value, name) for value, name in _named(params, family, values)
                if only is None or name in only]
    cells = Cells(judged)
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
    out["map"] = ratio(per_cell(precision), R)
    out["gm_map"] = out["map"]
    out["Rprec"] = ratio(cells.count_within(rel_so_far, R), R)
    num_nonrel = judged.num_nonrel[topic][rel_cell]
    if wanted("bpref", "gm_bpref"):
        out["bpref"] = ratio(per_cell(_bpref_terms(nonrel_before, num_nonrel, R_rel)), R)
    first = rel_count == 1
    first_rel_rank = np.zeros(n_cells)
    first_rel_rank[rel_cell[first]] = rel_rank[first]
    out["recip_rank"] = ratio(np.ones(n_cells), first_rel_rank)

    if wanted("iprec_at_recall", "11pt_avg"):
        best_after = best_precision_after(rel_cell, precision)
        first_index = np.searchsorted(rel_cell, np.arange(n_cells))

    def iprec(level: float) -> np.ndarray:
        cut = recall_cutoffs(level, R, interpolation)
        return interpolated_precision(best_after, first_index, num_rel_ret, cut)

    for level, name in named("iprec_at_recall", params.double_cutoffs):
        out[name] = iprec(level)

    def rel_in_top(k: int) -> np.ndarray:
        return cells.count_within(rel_so_far, k)

    for k, name in named("P", params.long_cutoffs):
        out[name] = rel_in_top(k) / k
    for k, name in named("recall", params.long_cutoffs):
        out[name] = ratio(rel_in_top(k), R)
    if wanted("infAP"):
        out["infAP"] = ratio(
            per_cell(_infap_terms(rel_rank, rel_count, nonrel_before, unjudged_before)), R
        )
    if "bpref" in out:
        out["gm_bpref"] = out["bpref"]
    for multiple, name in named("Rprec_mult", params.double_cutoffs):
        cut = _rprec_mult_cutoff(multiple, R)
        out[name] = ratio(cells.count_within(rel_so_far, cut), cut)
    (utility,) = params.names("utility")
    out[utility] = _utility(
        out["num_ret"], num_rel_ret, R, params.doubles("utility"), collection_size
    )
    if wanted("11pt_avg"):
        levels = params.doubles("11pt_avg")
        (pt_avg,) = params.names("11pt_avg")
        out[pt_avg] = sum(iprec(level) for level in levels) / len(levels)
    if wanted("binG"):
        out["binG"] = ratio(per_cell(_bin_g_terms(rel_rank, rel_count)), R)
    if wanted("G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut"):
        gains = Gains(judged, cells.size)
        if wanted("G"):
            out["G"] = g_measure(gains)
        if wanted("ndcg"):
            (ndcg_name,) = params.names("ndcg")
            ndcg_gains = params.pairs("ndcg")
            out[ndcg_name] = (ndcg(judged, gains) if not ndcg_gains
                         else ndcg_with_gains(judged, ndcg_gains))
        if wanted("ndcg_rel"):
            out["ndcg_rel"] = ndcg_rel(gains)
        if wanted("Rndcg"):
            out["Rndcg"] = np.where(R > 0, rndcg(gains), 0.0)
        out.update(ndcg_cut(judged, gains, named("ndcg_cut", params.long_cutoffs)))
    for k, name in named("map_cut", params.long_cutoffs):
        out[name] = ratio(per_cell(np.where(rel_rank <= k, precision, 0.0)), R)
    for k, name in named("relative_P", params.long_cutoffs):
        out[name] = ratio(rel_in_top(k), np.minimum(k, R))
    for k, name in named("success", params.long_cutoffs):
        out[name] = ((first_rel_rank >= 1) & (first_rel_rank <= k)).astype(np.float64)
    set_p = ratio(num_rel_ret, out["num_ret"])
    set_recall = ratio(num_rel_ret, R)
    out["set_P"] = set_p
    out["set_relative_P"] = ratio(num_rel_ret, np.minimum(out["num_ret"], R))
    out["set_recall"] = set_recall
    # One division, as m_set_map.c: the product of the two ratios rounds differently.
    out["set_map"] = ratio(num_rel_ret * num_rel_ret, out["num_ret"] * R)
    (set_f,) = params.names("set_F")
    out[set_f] = _set_f(set_p, set_recall, params.doubles("set_F")[0])
    out["num_nonrel_judged_ret"] = cells.count_within(nonrel_so_far, cells.size).astype(np.float64)
    if wanted("rbp", "rbp_resid"):
        out.update(rbp_measures(judged, cells.size, params))
    if wanted("unj"):
        unjudged_so_far = cells.running_count(rel < 0)
        for k, name in named("unj", params.long_cutoffs):
            out[name] = cells.count_within(unjudged_so_far, k) / k
    if wanted(*GRADED, "judged@"):
        out.update(graded_measures(judged, cells.size, params))
    return out if only is None else {name: out[name] for name in out if name in only}


TOP_K_FAMILIES = ("P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj")
"""Families whose value at cutoff k reads only the first k documents of a ranking (and the
qrels): a ranking cut deeper than every k gives them the same values, to the last bit. Not
``judged@k`` (trec_eval breaks its ties by docno across the cut) nor gdeval's ``err@k``,
``nerr@k`` (their running sums over all rows round differently on a cut ranking, 1e-14)."""


def ranks_read(names: Collection[str], params: AdhocParams = DEFAULT_PARAMS) -> int | None:
    """The deepest rank the measures ``names`` read, None when one of them reads the whole
    ranking (a pool sample then re-scores rankings cut there, at a fraction of the cost)."""
    cutoff = {name: k for family in TOP_K_FAMILIES
              for k, name in zip(params.long_cutoffs(family), params.names(family))}
    if not names or any(name not in cutoff for name in names):
        return None
    return max(cutoff[name] for name in names)


def _named(params: AdhocParams, family: str, values) -> list[tuple]:
    """(parameter value, printed name) pairs of a family with cutoff parameters."""
    return list(zip(values(family), params.names(family)))


def _rprec_mult_cutoff(multiple: float, R: np.ndarray) -> np.ndarray:
    """(long)(x * R + 0.9), m_Rprec_mult.c (unchanged in 10.0)."""
    return np.floor(float(multiple) * R + 0.9).astype(np.int64)


def _set_f(set_p: np.ndarray, set_recall: np.ndarray, beta: float) -> np.ndarray:
    """(beta^2 + 1) P R / (beta^2 P + R), m_set_F.c."""
    b2 = beta * beta
    return ratio((b2 + 1.0) * set_p * set_recall, b2 * set_p + set_recall)


def _bpref_terms(nonrel_before, num_nonrel, R) -> np.ndarray:
    """Per relevant row: 1 - min(nonrel above, R) / min(nonrel judged, R) (m_bpref.c)."""
    penalty = ratio(np.minimum(nonrel_before, R), np.minimum(num_nonrel, R))
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


def _utility(num_ret, num_rel_ret, R, coefficients, collection_size: int) -> np.ndarray:
    """p1*a + p2*b + p3*c + p4*d over the retrieved/relevant contingency table; trec_eval's
    default p = (1, -1, 0, 0); d uses the collection size N (-N, 0 by default) (m_utility.c)."""
    p1, p2, p3, p4 = (list(coefficients) + [0.0] * 4)[:4]
    return (
        p1 * num_rel_ret
        + p2 * (num_ret - num_rel_ret)
        + p3 * (R - num_rel_ret)
        + p4 * (collection_size + num_rel_ret - num_ret - R)
    )


def _bin_g_terms(rank, rel_count) -> np.ndarray:
    """Per relevant row at 0-based rank i: 1 / log2(3 + i - relevant so far), i.e. 2 + the
    documents above it that are not relevant (m_binG.c; the sum is divided by R)."""
    return 1.0 / np.log2(rank + 2.0 - rel_count)
