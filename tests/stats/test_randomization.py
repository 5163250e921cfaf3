from __future__ import annotations

import itertools

import numpy as np
import pytest

from builder.stats.significance.randomization import randomization_test, sign_flips


def exhaustive_p(d: np.ndarray) -> float:
    """Fisher's p-value of one pair by enumerating every sign vector, one at a time."""
    observed = abs(d.sum())
    reached = 0
    for signs in itertools.product((-1.0, 1.0), repeat=len(d)):
        reached += abs(np.dot(signs, d)) >= observed - 1e-9
    return reached / 2 ** len(d)


def differences(n_pairs: int, n_topics: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = np.round(rng.random((n_pairs, n_topics)), 2)
    b = np.round(np.clip(a + rng.normal(0.05, 0.2, size=a.shape), 0, 1), 2)
    return a - b


def test_issue_example() -> None:
    d = np.array([[0.5 - 0.4, 0.4 - 0.2, 0.3 - 0.35, 0.2 - 0.1]])
    result = randomization_test(d, 10_000, np.random.default_rng(0))
    assert result.p_value[0] == pytest.approx(0.25)
    assert result.statistic[0] == pytest.approx(0.0875)


def test_exact_test_equals_exhaustive_enumeration() -> None:
    d = differences(12, 9, seed=3)
    result = randomization_test(d, 2**9, np.random.default_rng(0))
    np.testing.assert_allclose(result.p_value, [exhaustive_p(row) for row in d], rtol=1e-12)


def test_enumeration_when_affordable_else_sampled() -> None:
    rng = np.random.default_rng(0)
    assert sign_flips(9, 512, rng).shape == (512, 9)
    assert len({tuple(row) for row in sign_flips(9, 512, rng)}) == 512
    assert sign_flips(10, 512, rng).shape == (512, 10)


def test_same_seed_same_p_values() -> None:
    d = differences(20, 30, seed=4)
    first = randomization_test(d, 2_000, np.random.default_rng(11)).p_value
    again = randomization_test(d, 2_000, np.random.default_rng(11)).p_value
    other = randomization_test(d, 2_000, np.random.default_rng(12)).p_value
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_sampled_p_within_monte_carlo_error_of_exact() -> None:
    d = differences(30, 14, seed=5)
    exact = randomization_test(d, 2**14, np.random.default_rng(0)).p_value
    resamples = 4_000
    sampled = randomization_test(d, resamples, np.random.default_rng(1)).p_value
    # 5 standard errors of a binomial proportion, plus the (c + 1) / (B + 1) offset
    error = 5 * np.sqrt(exact * (1 - exact) / resamples) + 1 / resamples
    assert np.all(np.abs(sampled - exact) <= error)
    assert 0.05 < exact.mean() < 0.95  # the vectors are neither all alike nor all different


def test_identical_runs_and_chunking() -> None:
    d = differences(3000, 14, seed=6)  # sampled, in two chunks of pairs at B = 5000
    d[7] = 0.0
    result = randomization_test(d, 5_000, np.random.default_rng(2))
    assert result.p_value[7] == 1.0
    single = randomization_test(d[-1:], 5_000, np.random.default_rng(2))
    assert single.p_value[0] == result.p_value[-1]
