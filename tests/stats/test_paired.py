from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from builder.stats.significance.paired import sign_test, t_test, wilcoxon_test

A = np.array([0.5, 0.4, 0.3, 0.2])
B = np.array([0.4, 0.2, 0.35, 0.1])


def test_issue_example() -> None:
    d = (A - B)[None, :]
    assert t_test(d).p_value[0] == pytest.approx(0.188, abs=5e-4)
    assert wilcoxon_test(d).p_value[0] == pytest.approx(0.25)
    assert sign_test(d).p_value[0] == pytest.approx(0.625)
    assert sign_test(d).statistic[0] == 3


def random_pairs(n_topics: int) -> tuple[np.ndarray, np.ndarray]:
    """Score vectors like a campaign's: rounded to 4 decimals, with ties and equal topics."""
    rng = np.random.default_rng(n_topics)
    a = np.round(rng.beta(1, 3, size=(16, n_topics)), 4)
    b = np.round(np.clip(a + rng.normal(0, 0.1, size=a.shape), 0, 1), 4)
    b[::3, :6] = a[::3, :6]  # zero differences
    b[1::4, 6:9] = np.round(b[1::4, 6:9], 1)  # tied magnitudes
    return a, b


@pytest.mark.parametrize("n_topics", [10, 25])  # scipy's exhaustive permutations below 14
def test_p_values_equal_scipy_pair_by_pair(n_topics: int) -> None:
    a, b = random_pairs(n_topics)
    d = a - b
    t, w, s = t_test(d), wilcoxon_test(d), sign_test(d)
    for k in range(len(a)):
        expected_t = stats.ttest_rel(a[k], b[k])
        expected_w = stats.wilcoxon(a[k], b[k])
        wins, decided = int(np.sum(d[k] > 0)), int(np.sum(d[k] != 0))
        expected_s = stats.binomtest(wins, decided, 0.5)
        assert t.statistic[k] == pytest.approx(expected_t.statistic, rel=1e-12)
        assert t.p_value[k] == pytest.approx(expected_t.pvalue, rel=1e-12)
        assert w.statistic[k] == pytest.approx(expected_w.statistic)
        assert w.p_value[k] == pytest.approx(expected_w.pvalue, rel=1e-12)
        assert s.p_value[k] == pytest.approx(expected_s.pvalue, rel=1e-12)


def test_identical_runs_have_p_one() -> None:
    d = np.zeros((2, 5))
    d[1] = [0.1, -0.2, 0.0, 0.3, 0.05]
    for test in (t_test, wilcoxon_test, sign_test):
        result = test(d)
        assert result.p_value[0] == 1.0
        assert 0 < result.p_value[1] < 1
