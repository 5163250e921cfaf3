from __future__ import annotations

import numpy as np

from builder.stats.significance.randomization import randomization_test
from builder.stats.significance.tukey import permuted_ranges, tukey_hsd_test


def carterette_p(values: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Carterette (TOIS 2012) algorithm 1, trial by trial and topic by topic; p for pairs i < j."""
    n_runs, n_topics = values.shape
    ranges = []
    for _ in range(resamples):
        shuffled = values.copy()
        for t in range(n_topics):
            shuffled[:, t] = values[rng.permutation(n_runs), t]
        means = shuffled.mean(axis=1)
        ranges.append(means.max() - means.min())
    ranges = np.array(ranges)
    means = values.mean(axis=1)
    i, j = np.triu_indices(n_runs, k=1)
    reached = (ranges[None, :] >= np.abs(means[i] - means[j])[:, None] - 1e-9).sum(axis=1)
    return (reached + 1) / (resamples + 1)


def scores(n_runs: int, n_topics: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    topic_ease = rng.beta(2, 3, size=n_topics)
    run_skill = np.linspace(0.15, 0.0, n_runs)[:, None]
    noise = rng.normal(0, 0.08, size=(n_runs, n_topics))
    return np.round(np.clip(topic_ease + run_skill + noise, 0, 1), 4)


def test_vectorised_agrees_with_carterette_within_monte_carlo_error() -> None:
    values = scores(6, 20, seed=1)
    i, j = np.triu_indices(6, k=1)
    resamples = 3_000
    fast = tukey_hsd_test(values, i, j, resamples, np.random.default_rng(2)).p_value
    slow = carterette_p(values, resamples, np.random.default_rng(3))
    error = 5 * np.sqrt(slow * (1 - slow) / resamples) + 2 / resamples
    assert np.all(np.abs(fast - slow) <= error)
    assert fast.min() < 0.05 < fast.max()


def test_two_runs_is_the_randomization_test() -> None:
    values = scores(2, 14, seed=4)
    exact = randomization_test(values[:1] - values[1:], 2**14, np.random.default_rng(0)).p_value
    resamples = 4_000
    tukey = tukey_hsd_test(
        values, np.array([0]), np.array([1]), resamples, np.random.default_rng(5)
    )
    assert abs(tukey.p_value[0] - exact[0]) <= 5 * np.sqrt(exact[0] * (1 - exact[0]) / resamples)


def test_ranges_in_chunks_are_reproducible_and_sorted() -> None:
    values = scores(30, 25, seed=6)
    first = permuted_ranges(values, 1_000, np.random.default_rng(7), chunk_bytes=50_000)
    again = permuted_ranges(values, 1_000, np.random.default_rng(7), chunk_bytes=50_000)
    np.testing.assert_array_equal(first, again)
    assert np.all(np.diff(first) >= 0)
    # the observed range bounds no trial: permuting topics mixes the runs' means
    observed = np.ptp(values.mean(axis=1))
    assert first.max() < observed
