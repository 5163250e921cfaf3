"""Measures of the retrieved set, whatever its order: the counts and trec_eval's set measures
(its ``-m set``: num_q, num_ret, num_rel, num_rel_ret, utility, set_P, set_recall,
set_relative_P, set_map, set_F), and num_nonrel_judged_ret.

Over the contingency table of one ranking (after the depth cut): a = relevant retrieved
(num_rel_ret), b = other retrieved (N - a, unjudged ones too), c = relevant missed (R - a),
d = others missed.
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.trec_measure import TREC_EVAL, single_value_measure
from builder.measures.registry import Aggregation

NUM_Q = single_value_measure(
    "num_q", None,
    "Number of topics averaged over.",
    aggregation=Aggregation.COUNT,
    display_name="Topics",
)


def num_ret(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """N: documents retrieved, after the depth cut (m_num_ret.c)."""
    return {"num_ret": grid.num_ret}


NUM_RET = single_value_measure(
    "num_ret", num_ret,
    "Documents retrieved (after the depth cut).",
    aggregation=Aggregation.SUM,
    display_name="Retrieved",
)


def num_rel(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """R: the topic's documents of qrels relevance >= the level (m_num_rel.c)."""
    return {"num_rel": grid.R.astype(np.float64)}


NUM_REL = single_value_measure(
    "num_rel", num_rel,
    "Relevant documents in the qrels (relevance >= level); as trec_eval, the summary under -c "
    "counts every qrels line of grade > 0, whatever the level -l.",
    aggregation=Aggregation.SUM,
    display_name="Relevant",
)


def num_rel_ret(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """a: relevant documents retrieved (m_num_rel_ret.c)."""
    return {"num_rel_ret": grid.num_rel_ret}


NUM_REL_RET = single_value_measure(
    "num_rel_ret", num_rel_ret,
    "Relevant documents retrieved.",
    aggregation=Aggregation.SUM,
    display_name="Relevant retrieved",
)


def utility(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """p1*a + p2*b + p3*c + p4*d, trec_eval's default p = (1, -1, 0, 0); d uses the collection
    size (-N, 0 by default) (m_utility.c). Averaged over topics as trec_eval averages it."""
    p1, p2, p3, p4 = (list(grid.params.doubles("utility")) + [0.0] * 4)[:4]
    a, N, R = grid.num_rel_ret, grid.num_ret, grid.R
    value = p1 * a + p2 * (N - a) + p3 * (R - a) + p4 * (grid.collection_size + a - N - R)
    return {grid.name("utility"): value}


def placeholder_utility(coefficients: tuple[float, ...], num_rel: np.ndarray,
                        collection_size: int) -> np.ndarray:
    """utility of trec_eval 10.0's placeholder ranking under -c (one document, not in the
    qrels, for a topic without results; ``trec_eval.c``'s ``bogus_ranking``): a = 0, b = 1,
    c = R, d = -N - 1 - R. 10.0 resets the measure named exactly ``utility`` to 0 afterwards,
    not ``utility`` with parameters."""
    p1, p2, p3, p4 = (list(coefficients) + [0.0] * 4)[:4]
    return p1 * 0 + p2 * 1 + p3 * num_rel + p4 * (collection_size - 1 - num_rel)


UTILITY_PARAMS = (1.0, -1.0, 0.0, 0.0)
"""utility's default coefficients p1..p4 (``m_utility.c``)."""
UTILITY = single_value_measure(
    "utility", utility,
    "Set utility p1*a + p2*b + p3*c + p4*d with a = relevant retrieved, b = other retrieved "
    "(unjudged ones too), c = relevant missed, d = others missed; default p = (1, -1, 0, 0), "
    "so a - b. Averaged over topics, as trec_eval does.",
    f"{TREC_EVAL} m_utility.c",
    params=dict(zip(("p1", "p2", "p3", "p4"), UTILITY_PARAMS)),
    display_name="Utility",
)


def set_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """a / N (m_set_P.c)."""
    return {"set_P": ratio(grid.num_rel_ret, grid.num_ret)}


SET_P = single_value_measure(
    "set_P", set_precision,
    "Relevant retrieved / retrieved.",
    f"{TREC_EVAL} m_set_P.c",
    display_name="Set P",
)


def set_relative_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """a / min(N, R) (m_set_rel_P.c)."""
    return {"set_relative_P": ratio(grid.num_rel_ret, np.minimum(grid.num_ret, grid.R))}


SET_RELATIVE_P = single_value_measure(
    "set_relative_P", set_relative_precision,
    "Relevant retrieved / min(retrieved, R).",
    f"{TREC_EVAL} m_set_rel_P.c",
    display_name="Set relP",
)


def set_recall(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """a / R (m_set_recall.c)."""
    return {"set_recall": ratio(grid.num_rel_ret, grid.R)}


SET_RECALL = single_value_measure(
    "set_recall", set_recall,
    "Relevant retrieved / R.",
    f"{TREC_EVAL} m_set_recall.c",
    display_name="Set recall",
)


def set_map(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """a^2 / (N R), as one division as m_set_map.c: set_P x set_recall rounds differently."""
    a = grid.num_rel_ret
    return {"set_map": ratio(a * a, grid.num_ret * grid.R)}


SET_MAP = single_value_measure(
    "set_map", set_map,
    "set_P x set_recall, computed as one division: relevant retrieved^2 / (retrieved x R).",
    f"{TREC_EVAL} m_set_map.c",
    display_name="Set MAP",
)


def set_f(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """set_F.x = (x + 1) P R / (x P + R) of set_P and set_recall, 0 when nothing relevant is
    retrieved (m_set_F.c, whose help text gives this formula). The parameter x is used as it
    is, not squared: ``set_F.2`` weighs recall as F with beta = sqrt(2) would, not beta = 2."""
    x = grid.params.doubles("set_F")[0]
    p, r = ratio(grid.num_rel_ret, grid.num_ret), ratio(grid.num_rel_ret, grid.R)
    return {grid.name("set_F"): ratio((x + 1.0) * p * r, x * p + r)}


SET_F = single_value_measure(
    "set_F", set_f,
    "Weighted harmonic mean of set_P and set_recall, (x + 1) P R / (x P + R) with trec_eval's "
    "parameter x (default 1, the F1 measure; x plays the part of beta squared).",
    f"{TREC_EVAL} m_set_F.c",
    params={"x": 1.0},
    display_name="Set F",
)


def num_nonrel_judged_ret(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """Retrieved documents judged non-relevant, 0 <= relevance < level
    (m_num_nonrel_judged_ret.c)."""
    cells = grid.cells
    judged_ret = cells.count_within(grid.nonrelevant_so_far, cells.size)
    return {"num_nonrel_judged_ret": judged_ret.astype(np.float64)}


NUM_NONREL_JUDGED_RET = single_value_measure(
    "num_nonrel_judged_ret", num_nonrel_judged_ret,
    "Judged non-relevant documents retrieved.",
    f"{TREC_EVAL} m_num_nonrel_judged_ret.c",
    aggregation=Aggregation.SUM,
    display_name="Non-relevant judged retrieved",
)
