"""Multiple-comparison corrections over the family of all pairs of runs.

Holm (1979) controls the family-wise error rate and is uniformly more powerful than Bonferroni;
Benjamini and Hochberg (1995) control the false discovery rate. p-values that are NaN (no test
was possible) pass through and do not count in the family.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def bonferroni(p: np.ndarray) -> np.ndarray:
    """p_adj = min(1, m p)."""
    return np.minimum(1.0, len(p) * p)


def holm(p: np.ndarray) -> np.ndarray:
    """Step-down: with p_(1) <= ... <= p_(m), p_adj(k) = max_{l <= k} min(1, (m - l + 1) p_(l))."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, stepped)
    return adjusted


def benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Step-up: p_adj(k) = min_{l >= k} min(1, m p_(l) / l) (``scipy.stats.false_discovery_control``)."""
    from scipy import stats

    if len(p) == 0:
        return p.copy()
    return stats.false_discovery_control(p, method="bh")


CORRECTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "holm": holm,
    "bonferroni": bonferroni,
    "bh": benjamini_hochberg,
    "none": lambda p: p.copy(),
}


def adjust(p_values: np.ndarray, method: str) -> np.ndarray:
    """The p-values adjusted by ``method`` (a key of ``CORRECTIONS``) over their whole family."""
    try:
        correction = CORRECTIONS[method]
    except KeyError:
        raise ValueError(
            f"unknown correction {method!r}; known: {', '.join(CORRECTIONS)}"
        ) from None
    p_values = np.asarray(p_values, dtype=np.float64)
    adjusted = np.full_like(p_values, np.nan)
    tested = ~np.isnan(p_values)
    adjusted[tested] = correction(p_values[tested])
    return adjusted
