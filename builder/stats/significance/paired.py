"""Classical paired tests over many pairs of runs at once: t-test, Wilcoxon signed-rank, sign test.

Each function takes the per-topic differences ``d`` (pairs x topics, ``d = a - b``) and returns
the statistic and the two-sided p-value of every pair, as scipy computes them for one pair
(``scipy.stats.ttest_rel``, ``scipy.stats.wilcoxon``, ``scipy.stats.binomtest``).

A pair whose differences are all zero (the same scores on every topic) has no evidence of a
difference: its statistic is 0 and its p-value 1, where scipy would return NaN or refuse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TestResult:
    """One statistic and one two-sided p-value per pair."""

    statistic: np.ndarray
    p_value: np.ndarray


def _split_identical(d: np.ndarray) -> tuple[np.ndarray, TestResult]:
    """Rows with some nonzero difference, and a result pre-filled with (0, 1) for the others."""
    informative = np.any(d != 0, axis=1)
    blank = TestResult(np.zeros(len(d)), np.ones(len(d)))
    return informative, blank


def t_test(d: np.ndarray) -> TestResult:
    """Paired Student t-test: t = mean(d) / (sd(d) / sqrt(n)), n - 1 degrees of freedom."""
    from scipy import stats

    informative, result = _split_identical(d)
    if informative.any():
        found = stats.ttest_1samp(d[informative], 0.0, axis=1)
        result.statistic[informative] = found.statistic
        result.p_value[informative] = found.pvalue
    return result


def wilcoxon_test(d: np.ndarray) -> TestResult:
    """Wilcoxon signed-rank test (zero differences dropped, scipy's default ``method='auto'``).

    The statistic is scipy's: the smaller of the positive and negative rank sums. scipy chooses
    the method (exact, exhaustive permutation, normal approximation) once for a whole batch, from
    whether any row has zeros or tied magnitudes, so pairs with and without go in separate
    batches: each pair gets the p-value scipy gives it alone.
    """
    from scipy import stats

    informative, result = _split_identical(d)
    magnitudes = np.sort(np.abs(d), axis=1)
    irregular = np.any(magnitudes == 0, axis=1) | np.any(np.diff(magnitudes, axis=1) == 0, axis=1)
    for batch in (informative & irregular, informative & ~irregular):
        if batch.any():
            found = stats.wilcoxon(d[batch], axis=1)
            result.statistic[batch] = found.statistic
            result.p_value[batch] = found.pvalue
    return result


def sign_test(d: np.ndarray) -> TestResult:
    """Sign test: k topics where a beats b among the n with a nonzero difference, k ~ Bin(n, 1/2).

    Two-sided p = min(1, 2 P(X <= min(k, n - k))), which is ``scipy.stats.binomtest(k, n)``
    for p = 1/2 (the distribution is symmetric). The statistic is k.
    """
    from scipy import stats

    wins = np.count_nonzero(d > 0, axis=1)
    decided = np.count_nonzero(d != 0, axis=1)
    tail = stats.binom.cdf(np.minimum(wins, decided - wins), decided, 0.5)
    p_value = np.where(decided > 0, np.minimum(1.0, 2.0 * tail), 1.0)
    return TestResult(wins.astype(np.float64), p_value)
