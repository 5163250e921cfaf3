"""EPRUM against the paper's worked examples and brute-force enumeration of navigation outcomes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from builder.measures.eprum.idealism import evaluate_topic
from builder.measures.eprum.precision_recall import (
    count_below,
    expected_ideal_search_length,
    expected_inverse_search_length,
    precision_at_recall,
    recall_of_level,
    seen_probabilities,
)

# Section 4, Fig. 3 and Table 1: the list (c, d, a); ideal elements a and b (columns).
KEY_EXAMPLE = np.array([[0.4, 0.4], [0.6, 0.4], [1.0, 0.0]])


def test_eq1_noisy_or_of_fig3():
    seen = seen_probabilities(np.array([[0.4], [0.6], [1.0]]))
    assert seen[:, 0] == pytest.approx([0.4, 0.76, 1.0], abs=1e-15)


def test_section4_key_example_exactly():
    below = count_below(seen_probabilities(KEY_EXAMPLE), 2)
    inverse = expected_inverse_search_length(below)
    assert inverse == pytest.approx([0.8056, 0.3744], abs=1e-12)
    precision, ideal_length = precision_at_recall(KEY_EXAMPLE)
    assert ideal_length.tolist() == [1.0, 2.0]
    assert precision == pytest.approx([0.8056, 0.7488], abs=1e-12)


def test_section4_table1_scenario_probabilities():
    """Table 1's PS row: P(F_k) changes as the nine scenarios say (rank where F reaches 1, 2)."""
    below = count_below(seen_probabilities(KEY_EXAMPLE), 2)
    # P(ML_1 = k) = P(F_{k-1} < 1) - P(F_k < 1): scenarios 1-4 and 7 / 5, 6, 8 / 9.
    first = -np.diff(np.r_[1.0, below[:, 0]])
    assert first == pytest.approx([0.16 + 0.096 + 0.144 + 0.144 + 0.096, 0.0864 + 0.1296 + 0.0576, 0.0864])
    second = -np.diff(np.r_[1.0, below[:, 1]])
    assert second == pytest.approx([0.16, 0.096 + 0.144 + 0.0864, 0.096 + 0.0576])


def test_section5_ideal_list_search_length():
    """Elements a, b, c; b and c ideal; the ideal list (a^, b^, c^): 1.29 for recall 2."""
    ideal = np.array([[0.9, 0.9], [1.0, 0.0], [0.0, 1.0]])
    length = expected_ideal_search_length(count_below(seen_probabilities(ideal), 2))
    assert length[1] == pytest.approx(1.29, abs=1e-12)


def test_recall_of_level_is_exact_integer_ceiling():
    assert recall_of_level(30, 10) == 3  # 0.3 * 10 in floats is 3.0000000000000004
    assert recall_of_level(0, 7) == 1
    assert recall_of_level(100, 7) == 7
    assert recall_of_level(10, 7) == 1
    assert recall_of_level(50, 7) == 4


def brute_force(navigation: np.ndarray, ideal: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """E[A_r/ML_r] and E[ML*_r] by enumerating every outcome of the uncertain cells."""
    def outcomes(table):
        cells = [tuple(c) for c in np.argwhere((table > 0) & (table < 1))]
        for bits in itertools.product([0, 1], repeat=len(cells)):
            reached = table >= 1
            weight = 1.0
            for (k, x), bit in zip(cells, bits):
                reached = reached.copy() if bit else reached
                reached[k, x] = bool(bit)
                weight *= table[k, x] if bit else 1 - table[k, x]
            found = np.cumsum(reached, axis=0) > 0  # seen by rank k
            yield weight, found.sum(axis=1)

    t = navigation.shape[1]
    inverse = np.zeros(t)
    for weight, count in outcomes(navigation):
        for r in range(1, t + 1):
            ranks = np.flatnonzero(count >= r)
            if len(ranks):
                inverse[r - 1] += weight / (ranks[0] + 1)
    if ideal is None:
        return inverse, np.arange(1, t + 1, dtype=float)
    length = np.zeros(t)
    for weight, count in outcomes(ideal):
        for r in range(1, t + 1):
            length[r - 1] += weight * (np.flatnonzero(count >= r)[0] + 1)
    return inverse, length


def random_table(rng, ranks, elements, uncertain):
    table = np.where(rng.random((ranks, elements)) < 0.3, 1.0, 0.0)
    cells = rng.choice(ranks * elements, size=min(uncertain, ranks * elements), replace=False)
    table.flat[cells] = rng.uniform(0.01, 0.99, len(cells))
    return table


@pytest.mark.parametrize("seed", range(40))
def test_exact_computation_equals_enumeration(seed):
    rng = np.random.default_rng(seed)
    ranks, elements = int(rng.integers(1, 6)), int(rng.integers(1, 5))
    navigation = random_table(rng, ranks, elements, int(rng.integers(0, 13)))
    ideal = None
    if seed % 2:
        # An ideal list that surely reaches every element at its end, as eq. 4 assumes.
        ideal = np.vstack([random_table(rng, 2, elements, int(rng.integers(0, 7))), np.eye(elements)])
    expected_inverse, expected_length = brute_force(navigation, ideal)
    precision, length = precision_at_recall(navigation, ideal)
    assert length == pytest.approx(expected_length, abs=1e-12)
    assert precision == pytest.approx(expected_length * expected_inverse, abs=1e-12)


def test_twelve_uncertain_cells_against_enumeration():
    rng = np.random.default_rng(12)
    navigation = rng.uniform(0.05, 0.95, (4, 3))  # 12 uncertain cells, 4096 outcomes
    inverse, _ = brute_force(navigation, None)
    below = count_below(seen_probabilities(navigation), 3)
    assert expected_inverse_search_length(below) == pytest.approx(inverse, abs=1e-12)


def test_normal_approximation_is_close_above_the_limit():
    rng = np.random.default_rng(5)
    navigation = rng.uniform(0.0, 0.2, (30, 50))
    seen = seen_probabilities(navigation)
    exact = expected_inverse_search_length(count_below(seen, 50))
    approximate = expected_inverse_search_length(count_below(seen, 50, exact_limit=10))
    assert not np.array_equal(exact, approximate)
    assert np.abs(exact - approximate).max() < 0.01


def test_graded_idealism_integrates_over_satisfaction_levels():
    """a ideal for 80% of the users, b for 30%: I_s = {a} on (0.3, 0.8], {a, b} on (0, 0.3]."""
    idealism = np.array([0.8, 0.3])
    result = evaluate_topic(KEY_EXAMPLE, idealism)
    only_a, _ = precision_at_recall(KEY_EXAMPLE[:, :1])
    both, _ = precision_at_recall(KEY_EXAMPLE)
    assert result.natural[0] == pytest.approx((0.5 * only_a[0] + 0.3 * both[0]) / 0.8)
    assert result.natural[1] == pytest.approx(both[1])  # only the levels with two ideal elements
    assert result.average == pytest.approx((0.5 * only_a.mean() + 0.3 * both.mean()) / 0.8)
    # P[1.00]: recall 1 of {a} on the upper slice, recall 2 of {a, b} on the lower one.
    assert result.levels[-1] == pytest.approx((0.5 * only_a[0] + 0.3 * both[1]) / 0.8)


def test_unreachable_ideal_element_and_no_ideal_element():
    result = evaluate_topic(np.array([[1.0, 0.0]]))
    assert result.natural.tolist() == [1.0, 0.0]
    assert result.average == 0.5
    assert evaluate_topic(np.array([[1.0]]), np.array([0.0])) is None


@pytest.mark.parametrize("seed", range(6))
def test_graded_idealism_equals_users_enumerated_over_satisfaction_levels(seed):
    """Every satisfaction level s on a grid finer than the idealism values, each user's ideal
    set brute-forced, averaged over the users who have an ideal element."""
    rng = np.random.default_rng(100 + seed)
    navigation = random_table(rng, 4, 3, 6)
    idealism = rng.choice([0.0, 0.2, 0.5, 0.7, 1.0], size=3)
    idealism[0] = max(idealism[0], 0.5)
    result = evaluate_topic(navigation, idealism)
    grid = (np.arange(1000) + 0.5) / 1000
    natural = np.zeros(3)
    users = np.zeros(3)
    levels = np.zeros(11)
    average = 0.0
    having = 0
    enumerated: dict[tuple[bool, ...], np.ndarray] = {}
    for s in grid:
        members = idealism >= s
        t = int(members.sum())
        if t == 0:
            continue
        key = tuple(members.tolist())
        if key not in enumerated:
            enumerated[key] = brute_force(navigation[:, members], None)[0]
        inverse = enumerated[key]
        precision = np.arange(1, t + 1) * inverse
        natural[:t] += precision
        users[:t] += 1
        levels += [precision[recall_of_level(level, t) - 1] for level in range(0, 101, 10)]
        average += precision.mean()
        having += 1
    t = len(result.natural)
    assert result.natural == pytest.approx(natural[:t] / users[:t], abs=1e-12)
    assert result.levels == pytest.approx(levels / having, abs=1e-12)
    assert result.average == pytest.approx(average / having, abs=1e-12)
