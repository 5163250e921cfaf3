"""Fisher's randomization test for paired differences, over all pairs of runs at once.

Under the null hypothesis the labels of the two runs are exchangeable on each topic, so every
sign vector s in {-1, +1}^n is as likely as the observed one. The two-sided p-value is the
fraction of sign vectors whose statistic |sum_t s_t d_t| reaches the observed |sum_t d_t|
(Fisher 1935; Smucker, Allan and Carterette, CIKM 2007, section 3.1).

Exact enumeration of the 2^n sign vectors when 2^n <= B; otherwise B random sign vectors and
p = (c + 1) / (B + 1), counting the observed arrangement (Phipson and Smyth 2010; Smucker et al.
use c / B, which can be 0 and then survives any correction). A sampled p-value is thus at least
1 / (B + 1): see ``resolution`` in ``builder.stats.significance.tables`` for what that means under a
correction over many pairs. One B x n matrix of flips serves every pair: the resampled sums of
all pairs are the matrix product ``d @ flips.T``, computed in chunks of pairs.
"""

from __future__ import annotations

import numpy as np

from builder.stats.significance.paired import TestResult
from builder.stats.significance.resampling import pair_chunks, resampled_sums, tolerance


def exact_enumeration(n_topics: int, n_resamples: int) -> bool:
    """Whether the 2^n sign vectors are enumerated: when they are no more than B."""
    return n_topics < 63 and 2**n_topics <= n_resamples


def sign_flips(n_topics: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """All 2^n sign vectors (exact enumeration) or n_resamples random ones, as float rows."""
    if exact_enumeration(n_topics, n_resamples):
        codes = np.arange(2**n_topics, dtype=np.int64)[:, None] >> np.arange(n_topics)
        return ((codes & 1) * 2 - 1).astype(np.float64)
    return rng.integers(0, 2, size=(n_resamples, n_topics)).astype(np.float64) * 2 - 1


def randomization_test(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> TestResult:
    """Two-sided randomization test of every pair; ``d`` is pairs x topics, ``d = a - b``.

    The statistic is the mean difference. Pairs with identical scores get p = 1.
    """
    flips = sign_flips(d.shape[1], n_resamples, rng)
    observed = np.abs(d.sum(axis=1))
    reach = observed - tolerance(d)
    counts = np.empty(len(d), dtype=np.int64)
    for chunk in pair_chunks(len(d), len(flips)):
        resampled = np.abs(resampled_sums(d[chunk], flips))
        counts[chunk] = np.count_nonzero(resampled >= reach[chunk, None], axis=1)
    if exact_enumeration(d.shape[1], n_resamples):
        p_value = counts / len(flips)
    else:
        p_value = (counts + 1) / (len(flips) + 1)
    identical = ~np.any(d != 0, axis=1)
    p_value[identical] = 1.0
    return TestResult(d.mean(axis=1) if d.shape[1] else np.zeros(len(d)), p_value)
