"""Precision and recall down a ranking: average precision (map, gm_map, map_cut), precision
and recall at cutoffs (P, recall, relative_P, success), at R (Rprec, Rprec_mult) and at the
first relevant document (recip_rank).

Precision at rank i is rel(1..i) / i; a ranking shorter than the cutoff counts its missing
ranks as not relevant (trec_eval's rule: P_10 of a ranking of 5 documents divides by 10).
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.cells import ratio
from builder.measures.adhoc.trec_measure import (
    TREC_BOOK,
    TREC_EVAL,
    adhoc_measure,
    measure_at_cutoffs,
    single_value_measure,
    trec_measure,
)
from builder.measures.registry import Aggregation

RPREC_MULTIPLES = tuple(f"{i / 5:.2f}" for i in range(1, 11))


def _average_precision(grid: AdhocGrid) -> np.ndarray:
    return grid.mean_over_relevant(grid.precision)


def average_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """AP = sum over the relevant retrieved of the precision at their rank, divided by R
    (TREC book; m_map.c)."""
    return {"map": grid.shared(_average_precision)}


MAP = single_value_measure(
    "map", average_precision,
    "Average precision: sum of precision at each relevant retrieved rank, divided by R.",
    f"{TREC_BOOK}, average precision; {TREC_EVAL} m_map.c",
    display_name="MAP",
)


def geometric_mean_average_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """AP per topic; the summary is their geometric mean, each floored at 0.00001
    (``Aggregation.GMEAN``, m_gm_map.c)."""
    return {"gm_map": grid.shared(_average_precision)}


GM_MAP = single_value_measure(
    "gm_map", geometric_mean_average_precision,
    "Geometric mean over topics of average precision, each floored at 0.00001.",
    f"{TREC_EVAL} m_gm_map.c",
    aggregation=Aggregation.GMEAN,
    display_name="GMAP",
)


def r_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """rel(1..R) / R (TREC book; m_Rprec.c)."""
    return {"Rprec": ratio(grid.relevant_in_top(grid.R), grid.R)}


RPREC = single_value_measure(
    "Rprec", r_precision,
    "Precision after R documents retrieved.",
    f"{TREC_BOOK}, R-precision; m_Rprec.c",
    display_name="R-prec",
)


def reciprocal_rank(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """1 / rank of the first relevant document, 0 when none is retrieved (m_recip_rank.c)."""
    return {"recip_rank": ratio(np.ones(grid.num_cells), grid.first_relevant_rank)}


RECIP_RANK = single_value_measure(
    "recip_rank", reciprocal_rank,
    "Reciprocal rank of the first relevant document.",
    f"{TREC_EVAL} m_recip_rank.c",
    display_name="MRR",
)


def precision_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """P_k = rel(1..k) / k (TREC book, precision at cutoff; m_P.c)."""
    return {name: grid.relevant_in_top(k) / k for k, name in grid.cutoffs("P")}


P = measure_at_cutoffs(
    "P", precision_at, "Precision after {k} documents (missing ones count as non-relevant).",
    f"{TREC_BOOK}, precision at cutoff; m_P.c", reads_top_k=True,
    display_name="P@{k}",
)


def recall_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """recall_k = rel(1..k) / R (m_recall.c)."""
    return {name: ratio(grid.relevant_in_top(k), grid.R) for k, name in grid.cutoffs("recall")}


RECALL = measure_at_cutoffs(
    "recall", recall_at, "Recall after {k} documents.", f"{TREC_EVAL} m_recall.c",
    reads_top_k=True,
    display_name="R@{k}",
)


def r_precision_multiples(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """rel(1..c) / c with c = (long)(x * R + 0.9) for each multiple x (m_Rprec_mult.c,
    unchanged in 10.0)."""
    values = {}
    for multiple, name in grid.levels("Rprec_mult"):
        cut = np.floor(float(multiple) * grid.R + 0.9).astype(np.int64)
        values[name] = ratio(grid.relevant_in_top(cut), cut)
    return values


RPREC_MULT_DISPLAY = "R-prec×{k:g}"
RPREC_MULT = trec_measure(
    "Rprec_mult", r_precision_multiples,
    *(adhoc_measure(
        f"Rprec_mult_{multiple}",
        f"Precision after {multiple} x R documents, cutoff (long)({multiple}*R + 0.9).",
        f"{TREC_EVAL} m_Rprec_mult.c",
        params={"multiple": float(multiple)},
        display_name=RPREC_MULT_DISPLAY.format(k=float(multiple)),
        display_template=RPREC_MULT_DISPLAY,
    ) for multiple in RPREC_MULTIPLES),
)


def average_precision_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """AP over the first k documents: the precisions at the relevant ranks <= k, still
    divided by R (m_map_cut.c)."""
    rank, precision = grid.relevant_rank, grid.precision
    return {name: grid.mean_over_relevant(np.where(rank <= k, precision, 0.0))
            for k, name in grid.cutoffs("map_cut")}


MAP_CUT = measure_at_cutoffs(
    "map_cut", average_precision_at,
    "Average precision over the first {k} documents (still divided by R).",
    f"{TREC_EVAL} m_map_cut.c", reads_top_k=True,
    display_name="MAP@{k}",
)


def relative_precision_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """rel(1..k) / min(k, R): precision relative to the best possible (m_rel_P.c)."""
    return {name: ratio(grid.relevant_in_top(k), np.minimum(k, grid.R))
            for k, name in grid.cutoffs("relative_P")}


RELATIVE_P = measure_at_cutoffs(
    "relative_P", relative_precision_at,
    "Relevant in the first {k} / min({k}, R): precision relative to the best possible.",
    f"{TREC_EVAL} m_rel_P.c", reads_top_k=True,
    display_name="relP@{k}",
)


def success_at(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """1 when the first relevant document is at rank <= k, else 0 (m_success.c)."""
    first = grid.first_relevant_rank
    return {name: ((first >= 1) & (first <= k)).astype(np.float64)
            for k, name in grid.cutoffs("success")}


SUCCESS = measure_at_cutoffs(
    "success", success_at, "1 if a relevant document is among the first {k}, else 0.",
    f"{TREC_EVAL} m_success.c", reads_top_k=True,
    display_name="Success@{k}",
)
