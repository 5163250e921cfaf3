from __future__ import annotations

import numpy as np
import pytest

from builder.stats.significance.bootstrap import resample_counts
from builder.stats.significance.effect import mean_difference_ci, standardized_difference


def test_standardized_difference_is_mean_over_sd() -> None:
    d = np.array([[0.1, 0.2, -0.05, 0.1], [0.0, 0.0, 0.0, 0.0], [0.2, 0.2, 0.2, 0.2]])
    effect = standardized_difference(d)
    assert effect[0] == pytest.approx(0.0875 / np.std(d[0], ddof=1))
    assert effect[1] == 0.0
    assert np.isnan(effect[2])


def test_ci_is_the_percentile_interval_of_resampled_means() -> None:
    rng = np.random.default_rng(1)
    d = np.round(rng.normal(0.02, 0.1, size=(4, 25)), 4)
    low, high = mean_difference_ci(d, 2_000, np.random.default_rng(3))
    counts = resample_counts(25, 2_000, np.random.default_rng(3))
    for k in range(4):
        means = np.array([np.repeat(d[k], c.astype(int)).mean() for c in counts])
        assert low[k] == pytest.approx(np.quantile(means, 0.025))
        assert high[k] == pytest.approx(np.quantile(means, 0.975))
        assert low[k] < d[k].mean() < high[k]


def test_ci_narrows_with_more_topics_and_is_a_point_for_constant_differences() -> None:
    rng = np.random.default_rng(2)
    few = rng.normal(0, 0.1, size=(1, 10))
    many = rng.normal(0, 0.1, size=(1, 200))
    width = [np.subtract(*mean_difference_ci(x, 1_000, rng)[::-1])[0] for x in (few, many)]
    assert width[1] < width[0]
    low, high = mean_difference_ci(np.full((1, 8), 0.125), 500, rng)
    assert low[0] == pytest.approx(0.125) and high[0] == pytest.approx(0.125)
