"""Interpolated precision at recall levels, and the three ways to round the recall cutoff.

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
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import numpy as np
import pandas as pd

Interpolation = Literal["exact", "trec_eval_9", "lround"]

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
