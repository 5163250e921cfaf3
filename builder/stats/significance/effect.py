"""Effect sizes of paired differences: mean difference with a bootstrap CI, standardized difference.

For the per-topic differences d (n topics):
- mean difference  mean(d), with the percentile bootstrap confidence interval: the alpha/2 and
  1 - alpha/2 quantiles of mean(d*b) over B bootstrap samples of topics (Efron and Tibshirani
  1993, section 13.3);
- paired standardized difference  mean(d) / sd(d) (sd with n - 1), the effect size of the
  paired t-test (Sakai, "Statistical reform in information retrieval?", SIGIR Forum 48(1), 2014).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import numpy as np

from builder.stats.significance.bootstrap import resample_counts
from builder.stats.significance.resampling import pair_chunks, resampled_sums, tolerance

QUANTILE_THREADS = 2
"""Rows of bootstrap means whose quantiles are found at once: numpy partitions without the
GIL, and each row's quantiles are its own, so the split changes no result."""


def mean_difference_ci(
    d: np.ndarray, n_resamples: int, rng: np.random.Generator, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval ``(low, high)`` of mean(d) for every pair (pairs x topics)."""
    n = d.shape[1]
    if n == 0:
        return np.zeros(len(d)), np.zeros(len(d))
    counts = resample_counts(n, n_resamples, rng)
    tail = (1.0 - level) / 2.0
    low = np.empty(len(d))
    high = np.empty(len(d))
    for chunk in pair_chunks(len(d), n_resamples):
        means = resampled_sums(d[chunk], counts) / n
        low[chunk], high[chunk] = _row_quantiles(means, [tail, 1.0 - tail])
    # A bound that is zero but for float noise (differences such as 0.1 + 0.2 - 0.3) is zero:
    # printed as 4.4e-18, it would say the interval just misses zero.
    noise = tolerance(d) / n
    low[np.abs(low) <= noise] = 0.0
    high[np.abs(high) <= noise] = 0.0
    return low, high


def _row_quantiles(values: np.ndarray, levels: list[float]) -> np.ndarray:
    """``np.quantile(values, levels, axis=1)``, the rows shared between threads."""
    bounds = np.linspace(0, len(values), QUANTILE_THREADS + 1).astype(int)
    parts = [slice(a, b) for a, b in pairwise(bounds) if b > a]
    if len(parts) < 2:
        return np.quantile(values, levels, axis=1)
    with ThreadPoolExecutor(len(parts)) as pool:
        found = list(pool.map(lambda rows: np.quantile(values[rows], levels, axis=1), parts))
    return np.concatenate(found, axis=1)


def standardized_difference(d: np.ndarray) -> np.ndarray:
    """mean(d) / sd(d) per pair; 0 for identical runs, NaN when sd(d) = 0 but mean(d) != 0."""
    if d.shape[1] < 2:
        return np.full(len(d), np.nan)
    mean = d.mean(axis=1)
    sd = d.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = mean / sd
    effect[sd == 0] = np.nan
    effect[~np.any(d != 0, axis=1)] = 0.0
    return effect
