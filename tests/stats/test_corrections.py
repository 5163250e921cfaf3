from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from builder.stats.significance.corrections import adjust

P = np.array([0.01, 0.04, 0.03, 0.005, 0.2])


def test_bonferroni() -> None:
    np.testing.assert_allclose(adjust(P, "bonferroni"), [0.05, 0.2, 0.15, 0.025, 1.0])


def test_holm_step_down() -> None:
    # sorted: .005 x5 = .025, .01 x4 = .04, .03 x3 = .09, .04 x2 = .08 -> .09 (monotone), .2 x1
    np.testing.assert_allclose(adjust(P, "holm"), [0.04, 0.09, 0.09, 0.025, 0.2])


def test_benjamini_hochberg_step_up() -> None:
    # sorted: .005 x5/1 = .025, .01 x5/2 = .025, .03 x5/3 = .05, .04 x5/4 = .05, .2 x5/5 = .2
    expected = [0.025, 0.05, 0.05, 0.025, 0.2]
    np.testing.assert_allclose(adjust(P, "bh"), expected)
    np.testing.assert_allclose(adjust(P, "bh"), stats.false_discovery_control(P))


def test_nan_is_left_out_of_the_family() -> None:
    with_nan = np.array([0.01, np.nan, 0.02])
    adjusted = adjust(with_nan, "bonferroni")
    np.testing.assert_allclose(adjusted[[0, 2]], [0.02, 0.04])
    assert np.isnan(adjusted[1])


def test_holm_is_between_bonferroni_and_none() -> None:
    p = np.random.default_rng(0).random(200) ** 3
    holm = adjust(p, "holm")
    assert np.all(p <= holm) and np.all(holm <= adjust(p, "bonferroni"))
    np.testing.assert_array_equal(adjust(p, "none"), p)


def test_unknown_correction() -> None:
    with pytest.raises(ValueError, match="known: holm"):
        adjust(P, "sidak")
