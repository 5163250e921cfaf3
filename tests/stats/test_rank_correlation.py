"""Kendall's tau against scipy; tau_ap against a brute-force walk of the definition."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from builder.stats.reliability.rank_correlation import kendall_tau, tau_ap


def brute_tau_ap(x: list[float], y: list[float]) -> float:
    """Yilmaz et al. 2008 eq. 2 walked item by item, with the module's rule for ties: the
    estimated list y is ordered by y descending, then x descending, then position; a pair tied
    in both lists agrees, a pair tied in one counts 1/2."""
    n = len(x)
    reference = sorted(range(n), key=lambda i: (-x[i], i))
    place = {item: p for p, item in enumerate(reference)}
    order = sorted(range(n), key=lambda i: (-y[i], place[i]))
    total = 0.0
    for i in range(1, n):
        item = order[i]
        correct = 0.0
        for above in order[:i]:
            tied_x, tied_y = x[above] == x[item], y[above] == y[item]
            if tied_x and tied_y:
                correct += 1
            elif tied_x or tied_y:
                correct += 0.5
            elif x[above] > x[item]:
                correct += 1
        total += correct / i
    return 2.0 / (n - 1) * total - 1.0


@pytest.mark.parametrize("seed", range(6))
def test_kendall_tau_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 40))
    x = rng.integers(0, 6, n).astype(float)  # many ties
    y = np.vstack([rng.integers(0, 6, n), rng.random(n), x + rng.normal(0, 0.5, n)])
    expected = [scipy.stats.kendalltau(x, row).statistic for row in y]
    assert kendall_tau(x, y) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_tau_ap_equals_brute_force_with_ties(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 25))
    x = rng.integers(0, 5, n).astype(float)
    y = np.vstack([rng.integers(0, 5, n), rng.random(n), x[::-1].copy()])
    expected = [brute_tau_ap(list(x), list(row)) for row in y]
    assert tau_ap(x, y) == pytest.approx(expected, abs=1e-12)


def test_tau_ap_without_ties_is_the_papers_and_weighs_the_top():
    x = np.arange(10, 0, -1, dtype=float)
    swap_top, swap_bottom = x.copy(), x.copy()
    swap_top[[0, 1]] = swap_top[[1, 0]]
    swap_bottom[[8, 9]] = swap_bottom[[9, 8]]
    top, bottom = tau_ap(x, np.vstack([swap_top, swap_bottom]))
    tau_top, tau_bottom = kendall_tau(x, np.vstack([swap_top, swap_bottom]))
    assert tau_top == tau_bottom  # Kendall's tau does not care where the swap is
    assert top < bottom < 1.0
    # Yilmaz et al.: swapping the top two of n costs 2/(n-1) * 1 (C(2) = 0 instead of 1)
    assert top == pytest.approx(1 - 2.0 / 9)


def test_identical_rankings_give_exactly_one():
    x = np.array([0.3, 0.3, 0.1, 0.5, 0.0, 0.5])
    assert kendall_tau(x, x[None])[0] == 1.0
    assert tau_ap(x, x[None])[0] == 1.0


def test_tau_ap_in_blocks_equals_brute_force(monkeypatch):
    """A few rows of comparisons at a time (as for the thousands of (run, topic) pairs of the
    measure agreement) gives the walk's values, with ties in both lists."""
    import builder.stats.reliability.rank_correlation as module

    monkeypatch.setattr(module, "_BLOCK", 7 * 60)  # 3 samples x 60 systems: 2 rows a block
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, 60).astype(float)
    y = np.vstack([rng.integers(0, 4, 60), x[::-1].copy(), x])
    expected = [brute_tau_ap(list(x), list(row)) for row in y]
    assert tau_ap(x, y) == pytest.approx(expected, abs=1e-12)
