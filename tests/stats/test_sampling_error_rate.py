"""Pool and topic samples, and the error rate against a direct count of Buckley and Voorhees'
formula."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from builder.stats.reliability.error_rate import error_rate, error_rates, outcomes, swap_rate
from builder.stats.reliability.sampling import disjoint_parts, pool_sample, topic_sample
from builder.stats.reliability.stability import Scores


def test_pool_sample_keeps_a_share_of_big_topics_only():
    unit_topic = np.repeat([0, 1, 2], [20, 9, 10])
    masks = pool_sample(unit_topic, 3, 0.4, 5, 10, np.random.default_rng(0))
    kept = np.stack([np.bincount(unit_topic, weights=m, minlength=3) for m in masks])
    assert (kept == [8, 9, 4]).all()
    assert len({m.tobytes() for m in masks}) == 5  # the iterations differ
    assert pool_sample(unit_topic, 3, 1.0, 2, 1, np.random.default_rng(0)).all()


def test_topic_samples_and_disjoint_parts():
    rng = np.random.default_rng(1)
    without = topic_sample(50, 0.2, 4, rng)
    assert (without.sum(axis=1) == 10).all() and without.max() == 1
    with_replacement = topic_sample(50, 0.2, 4, rng, replace=True)
    assert (with_replacement.sum(axis=1) == 10).all()
    parts = disjoint_parts(50, 12, 3, rng)
    assert parts.shape == (3, 4, 50)
    assert (parts.sum(axis=2) == 12).all() and parts.sum(axis=1).max() == 1


def brute_error_rate(means: np.ndarray, fuzziness: float) -> float:
    """Buckley and Voorhees 2000 counted pair by pair (means: run x topic set)."""
    errors = total = 0
    for a, b in itertools.combinations(range(len(means)), 2):
        greater = less = equal = 0
        for x, y in zip(means[a], means[b]):
            if abs(x - y) >= fuzziness * max(x, y) and x != y:
                greater, less = greater + (x > y), less + (x < y)
            else:
                equal += 1
        errors += min(greater, less)
        total += greater + less + equal
    return errors / total


@pytest.mark.parametrize("seed", range(4))
def test_error_rate_equals_the_formula_counted_directly(seed):
    rng = np.random.default_rng(seed)
    means = rng.random((7, 10)) * 0.2 + 0.3
    means[2] = means[3] * 1.01  # within the fuzziness: always "A == B"
    signs = outcomes(means[None], 0.05)
    assert error_rate(signs)[0] == pytest.approx(brute_error_rate(means, 0.05))


def test_swap_rate_counts_reversed_decisions():
    first = np.array([[[1, 1, -1, 0]]])
    second = np.array([[[-1, 1, 1, -1]]])
    assert swap_rate(first, second)[0] == pytest.approx(2 / 3)


def test_error_rates_table_has_bounds_where_partitions_exist():
    rng = np.random.default_rng(5)
    per_topic = rng.random((1, 6, 20)) * np.linspace(0.5, 1.0, 6)[None, :, None]
    scores = Scores(per_topic, np.ones((6, 20), bool), per_topic.mean(axis=-1))
    table = error_rates(["m"], scores, [0.8, 0.4, 0.2], 10, 0.05, rng)
    assert table["topics"].tolist() == [16, 8, 4]
    assert np.isnan(table.loc[0, "error_upper"]) and not table.loc[1:, "error_upper"].isna().any()
    assert ((table["error_lower"] >= 0) & (table["error_lower"] <= 0.5)).all()
