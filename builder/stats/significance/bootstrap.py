"""Sakai's studentized shifted paired bootstrap test, over all pairs of runs at once.

Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR 2006, figure 1: with the
per-topic differences z (n topics), t(z) = mean(z) / (sd(z) / sqrt(n)); the shifted differences
w = z - mean(z) obey the null hypothesis; for each of B bootstrap samples w*b (n topics drawn
with replacement), t(w*b) = mean(w*b) / (sd(w*b) / sqrt(n)); the achieved significance level is
ASL = #{b : |t(w*b)| >= |t(z)|} / B. We report (ASL B + 1) / (B + 1) instead (Davison and
Hinkley 1997, eq. 4.11), which is never 0 and so cannot survive any correction by luck.

A bootstrap sample is a B x n matrix of counts (how often each topic is drawn), shared by all
pairs, so the resampled sums of all pairs are the products ``w @ counts.T`` and
``w**2 @ counts.T``, computed in chunks of pairs.
"""

from __future__ import annotations

import numpy as np

from builder.stats.significance.paired import TestResult
from builder.stats.significance.resampling import (
    RELATIVE_TOLERANCE,
    pair_chunks,
    resampled_sums,
)


def resample_counts(n_topics: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """B x n float64 matrix: how often each topic is drawn in each bootstrap sample of n topics."""
    drawn = rng.integers(0, n_topics, size=(n_resamples, n_topics))
    flat = (drawn + n_topics * np.arange(n_resamples)[:, None]).ravel()
    counts = np.bincount(flat, minlength=n_resamples * n_topics)
    return counts.reshape(n_resamples, n_topics).astype(np.float64)


def studentized(total: np.ndarray, total_squares: np.ndarray, n: int) -> np.ndarray:
    """t = mean / (sd / sqrt(n)) from the sum and the sum of squares of n values.

    A sample whose values are all equal has sd = 0: t is 0 if its mean is 0, else infinite.
    """
    mean = total / n
    variance = np.maximum(total_squares - n * mean**2, 0.0) / (n - 1)
    flat = variance <= RELATIVE_TOLERANCE * (total_squares / n + 1e-300)
    nonzero_mean = np.abs(mean) > RELATIVE_TOLERANCE
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(variance / n)
    return np.where(flat, np.where(nonzero_mean, np.copysign(np.inf, mean), 0.0), t)


def bootstrap_test(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> TestResult:
    """Two-sided studentized shifted bootstrap test of every pair (``d``: pairs x topics).

    The statistic is the observed studentized mean difference t(z). Pairs with identical
    scores, or fewer than 2 topics, get p = 1.
    """
    n = d.shape[1]
    if n < 2:
        return TestResult(np.zeros(len(d)), np.ones(len(d)))
    counts = resample_counts(n, n_resamples, rng)
    observed = studentized(d.sum(axis=1), (d**2).sum(axis=1), n)
    shifted = d - d.mean(axis=1, keepdims=True)
    # |t*| >= r  <=>  (n - 1) S1^2 >= r^2 (n S2 - S1^2)  for the sums S1, S2 of a sample: no
    # square root nor division over the pairs x B block.
    reach = np.where(np.isfinite(observed), observed**2 * (1.0 - RELATIVE_TOLERANCE), 0.0)
    extreme = np.empty(len(d), dtype=np.int64)
    for chunk in pair_chunks(len(d), n_resamples):
        w = shifted[chunk]
        r2 = reach[chunk, None]
        total_squared = resampled_sums(w, counts) ** 2
        reached = total_squared * (n - 1 + r2) >= r2 * n * resampled_sums(w**2, counts)
        extreme[chunk] = np.count_nonzero(reached, axis=1)
    # constant nonzero differences: t(z) is infinite and no shifted sample (all zeros) reaches it
    extreme[~np.isfinite(observed)] = 0
    p_value = (extreme + 1) / (n_resamples + 1)
    p_value[~np.any(d != 0, axis=1)] = 1.0
    return TestResult(observed, p_value)
