from __future__ import annotations

import numpy as np
import pytest

from builder.stats.significance.bootstrap import bootstrap_test, resample_counts


def sakai_asl(z: np.ndarray, samples: np.ndarray) -> float:
    """Sakai (SIGIR 2006) figure 1 for one pair, sample by sample: samples is B x n topic indices."""
    n = len(z)
    t_observed = z.mean() / (z.std(ddof=1) / np.sqrt(n))
    w = z - z.mean()
    reached = 0
    for drawn in samples:
        sample = w[drawn]
        sd = sample.std(ddof=1)
        t = sample.mean() / (sd / np.sqrt(n)) if sd > 1e-12 else np.inf
        reached += abs(t) >= abs(t_observed) * (1 - 1e-9)
    return (reached + 1) / (len(samples) + 1)


def differences(n_pairs: int, n_topics: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = np.round(rng.random((n_pairs, n_topics)), 3)
    b = np.round(np.clip(a + rng.normal(0.05, 0.2, size=a.shape), 0, 1), 3)
    return a - b


def test_counts_are_draws_with_replacement() -> None:
    counts = resample_counts(7, 500, np.random.default_rng(0))
    assert counts.shape == (500, 7)
    np.testing.assert_array_equal(counts.sum(axis=1), 7)
    assert 0.9 < counts.mean(axis=0).min() and counts.mean(axis=0).max() < 1.1


def test_vectorised_test_equals_sakai_sample_by_sample() -> None:
    d = differences(6, 15, seed=1)
    resamples = 1_000
    result = bootstrap_test(d, resamples, np.random.default_rng(5))
    # the same draws as resample_counts makes from the same seed
    samples = np.random.default_rng(5).integers(0, 15, size=(resamples, 15))
    expected = [sakai_asl(z, samples) for z in d]
    np.testing.assert_allclose(result.p_value, expected, rtol=1e-12)
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / np.sqrt(15))
    np.testing.assert_allclose(result.statistic, t)


def test_agrees_with_t_test_on_normal_differences() -> None:
    from scipy import stats

    rng = np.random.default_rng(2)
    d = rng.normal(0.03, 0.1, size=(40, 50))
    result = bootstrap_test(d, 4_000, rng)
    t_p = stats.ttest_1samp(d, 0.0, axis=1).pvalue
    assert np.abs(result.p_value - t_p).max() < 0.05


def test_same_seed_same_p_values_and_degenerate_pairs() -> None:
    d = differences(5, 20, seed=3)
    d[0] = 0.0
    d[1] = 0.25
    first = bootstrap_test(d, 500, np.random.default_rng(9))
    again = bootstrap_test(d, 500, np.random.default_rng(9))
    np.testing.assert_array_equal(first.p_value, again.p_value)
    assert first.p_value[0] == 1.0
    assert first.p_value[1] == pytest.approx(1 / 501)
