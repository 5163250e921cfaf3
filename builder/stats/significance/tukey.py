"""Randomised Tukey HSD: one joint test of all runs, no correction needed.

Carterette, "Multiple testing in statistical analysis of systems-based information retrieval
experiments", ACM TOIS 30(1), 2012, section 4.2 (algorithm 1): under the null hypothesis that all
runs are alike, the scores of a topic are exchangeable across runs. In each of B trials, permute
every topic's scores across the runs independently, take the run means and record their range
(max - min). A pair's p-value is the fraction of trials whose range reaches the pair's absolute
difference of means, p = (c + 1) / (B + 1), counting the observed arrangement, whose range is at
least any pair's difference (algorithm 1 has c / B, which can be 0).
"""

from __future__ import annotations

import numpy as np

from builder.stats.significance.paired import TestResult
from builder.stats.significance.resampling import CHUNK_BYTES, RELATIVE_TOLERANCE


def permuted_ranges(
    values: np.ndarray, n_resamples: int, rng: np.random.Generator, chunk_bytes: int = CHUNK_BYTES
) -> np.ndarray:
    """The range of run means in each of B trials that permute every topic across runs.

    values: runs x topics. Returns B ranges, sorted ascending.
    """
    n_runs, n_topics = values.shape
    by_topic = np.ascontiguousarray(values.T)
    per_trial = max(1, chunk_bytes // (8 * max(1, n_runs * n_topics)))
    ranges = np.empty(n_resamples)
    for start in range(0, n_resamples, per_trial):
        stop = min(start + per_trial, n_resamples)
        trials = np.broadcast_to(by_topic, (stop - start, n_topics, n_runs))
        means = rng.permuted(trials, axis=2).mean(axis=1)
        ranges[start:stop] = means.max(axis=1) - means.min(axis=1)
    ranges.sort()
    return ranges


def tukey_hsd_test(
    values: np.ndarray, i: np.ndarray, j: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> TestResult:
    """Randomised Tukey HSD p-values of pairs ``(i[p], j[p])`` of rows of ``values`` (runs x topics).

    The statistic is the difference of means ``mean_i - mean_j``.
    """
    if values.shape[1] == 0 or len(i) == 0:
        return TestResult(np.zeros(len(i)), np.ones(len(i)))
    means = values.mean(axis=1)
    difference = means[i] - means[j]
    ranges = permuted_ranges(values, n_resamples, rng)
    reach = np.abs(difference) - RELATIVE_TOLERANCE * (1.0 + np.abs(values).max())
    reached = n_resamples - np.searchsorted(ranges, reach, side="left")
    p_value = (reached + 1) / (n_resamples + 1)
    return TestResult(difference, p_value)
