"""Interpolated precision at recall levels (``iprec_at_recall``, ``11pt_avg``), and the three
ways to round the recall cutoff.

Interpolated precision at recall x (seed 004, the "interpolated" table of a TREC appendix):
the best precision at or after the rank of the c-th relevant document, with c = ceil(x * R)
for R relevant documents; 0 when the run retrieves fewer than c relevant documents
(``m_iprec_at_recall.c``). The programs differ in how they round x * R:

- ``exact``: c = ceil(x * R), in integers. The NIST appendices and trec_eval 8.1.
- ``trec_eval_9``: c = (long)(x * R + 0.9) in doubles (trec_eval 9.0.x, pytrec_eval). Equal to
  ceil except where floating error bites: x = 0.7, R = 3 gives 0.7 * 3 + 0.9 = 2.9999999999999996,
  so c = 2 where ceil(2.1) = 3 (also x = 0.3, R = 57; x = 0.7, R = 23, 33, 43, 53 ...).
- ``lround``: c = lround(x * R) (trec_eval 10.0): rounds to nearest, e.g. x = 0.1, R = 14 gives
  c = 1 where ceil(1.4) = 2.

We differ from trec_eval 9.0.8 by default: ``exact`` is the default, as the NIST appendices;
``trec_eval_9`` and ``lround`` are options (and the 9.0.8 and 10.0 profiles).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.trec_eval.profiles import DEFAULT_RULES, Interpolation
from builder.measures.adhoc.trec_measure import (
    TREC_BOOK,
    TREC_EVAL,
    adhoc_measure,
    single_value_measure,
    trec_measure,
)

RECALL_LEVELS: tuple[str, ...] = tuple(f"{i / 10:.2f}" for i in range(11))
"""The eleven standard recall levels, as trec_eval prints them."""


def recall_cutoffs(
    level: str | float, num_rel: np.ndarray, interpolation: Interpolation
) -> np.ndarray:
    """The number c of relevant documents that recall ``level`` stands for, per topic.

    ``exact`` reads the level as the decimal it is written as (0.1 is one tenth, not the
    double nearest to it), so ceil is taken in integers."""
    x = float(level)
    num_rel = np.asarray(num_rel, dtype=np.int64)
    if interpolation == "exact":
        fraction = Fraction(str(level)).limit_denominator(10**9)
        return -((-fraction.numerator * num_rel) // fraction.denominator)
    if interpolation == "trec_eval_9":
        return np.floor(x * num_rel.astype(np.float64) + 0.9).astype(np.int64)
    if interpolation == "lround":
        return np.floor(x * num_rel.astype(np.float64) + 0.5).astype(np.int64)
    raise ValueError(f"unknown interpolation {interpolation!r}")


def best_precision_after(rel_cell: np.ndarray, rel_precision: np.ndarray) -> np.ndarray:
    """Best precision at or after each retrieved relevant document, within its cell.

    The arrays hold one entry per retrieved relevant document, in ranking order.
    """
    reversed_best = pd.Series(rel_precision[::-1]).groupby(rel_cell[::-1]).cummax()
    return reversed_best.to_numpy()[::-1]


def interpolated_precision(
    best_after: np.ndarray, first_rel: np.ndarray, num_rel_ret: np.ndarray, cutoffs: np.ndarray
) -> np.ndarray:
    """Interpolated precision per cell at one recall level.

    best_after from ``best_precision_after``; first_rel is each cell's index of its first
    relevant document in that array; cutoffs from ``recall_cutoffs``. A cutoff of 0 reads like
    1 (the best precision anywhere); one beyond the relevant retrieved gives 0.
    """
    wanted = np.maximum(cutoffs, 1)
    reachable = wanted <= num_rel_ret
    if not len(best_after):
        return np.zeros(len(cutoffs))
    return np.where(reachable, best_after[np.where(reachable, first_rel + wanted - 1, 0)], 0.0)


def _best_precision(grid: AdhocGrid) -> tuple[np.ndarray, np.ndarray]:
    """Per relevant row the best precision at or after it, and each cell's first relevant row."""
    best_after = best_precision_after(grid.relevant_cell, grid.precision)
    return best_after, np.searchsorted(grid.relevant_cell, np.arange(grid.num_cells))


def _at_recall(grid: AdhocGrid, level: str | float) -> np.ndarray:
    return _at_recall_cutoffs(grid, recall_cutoffs(level, grid.R, grid.interpolation))


def precision_at_recall(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """iprec_at_recall_x: the best precision at or after the c-th relevant document, c the
    grid's rounding of x * R; 0 when fewer than c are retrieved (TREC book; trec_eval 8.1)."""
    return {name: _at_recall(grid, level) for level, name in grid.levels("iprec_at_recall")}


IPREC_DISPLAY = "iP[{k:.2f}]"
IPREC_AT_RECALL = trec_measure(
    "iprec_at_recall", precision_at_recall,
    *(adhoc_measure(
        f"iprec_at_recall_{level}",
        f"Interpolated precision at recall {level}: best precision at or after the "
        f"ceil({level}*R)-th relevant document.",
        f"{TREC_BOOK}, interpolated recall-precision table; trec_eval 8.1",
        params={"recall": float(level)},
        differs=DEFAULT_RULES.see(),
        display_name=IPREC_DISPLAY.format(k=float(level)),
        display_template=IPREC_DISPLAY,
    ) for level in RECALL_LEVELS),
)


def eleven_point_average(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """The mean of iprec_at_recall over the levels 0.0, 0.1 ... 1.0 (or those given), as
    m_11pt_avg.c walks them: from the last level given to the first, the trailing levels
    whose cutoff c exceeds the relevant retrieved adding 0, then each level's interpolated
    precision while the cutoffs do not rise and stay >= 1; once a cutoff rises or is 0 (the
    walk down the ranking never meets it), that level and every level before it add the
    interpolated precision at the first relevant document. Ascending levels (the default)
    are the TREC book's mean; others are walked as trec_eval walks them."""
    levels = grid.params.doubles("11pt_avg")
    num_rel_ret = grid.num_rel_ret
    skipping = np.ones(grid.num_cells, bool)
    stuck = np.zeros(grid.num_cells, bool)
    previous = np.full(grid.num_cells, np.inf)
    first = _at_recall_cutoffs(grid, np.ones(grid.num_cells, np.int64))
    total = np.zeros(grid.num_cells)
    for level in reversed(levels):
        cutoffs = recall_cutoffs(level, grid.R, grid.interpolation)
        skipping &= cutoffs > num_rel_ret
        stuck |= ~skipping & ((cutoffs < 1) | (cutoffs > previous))
        matched = ~skipping & ~stuck
        previous = np.where(matched, cutoffs, previous)
        at_level = _at_recall_cutoffs(grid, cutoffs)
        total = total + np.where(skipping, 0.0, np.where(stuck, first, at_level))
    return {grid.name("11pt_avg"): total / len(levels)}


def _at_recall_cutoffs(grid: AdhocGrid, cutoffs: np.ndarray) -> np.ndarray:
    best_after, first_index = grid.shared(_best_precision)
    return interpolated_precision(best_after, first_index, grid.num_rel_ret, cutoffs)


ELEVEN_POINT_AVERAGE = single_value_measure(
    "11pt_avg", eleven_point_average,
    "Mean of the interpolated precision at the 11 recall levels 0.0 ... 1.0.",
    f"{TREC_BOOK}; {TREC_EVAL} m_11pt_avg.c",
    differs=DEFAULT_RULES.see(),
    display_name="11-pt average",
)
