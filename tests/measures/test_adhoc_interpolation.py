"""Recall cutoffs of interpolated precision: exact ceil, trec_eval 9's +0.9, 10.0's lround."""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.interpolation import RECALL_LEVELS, recall_cutoffs


def cutoff(level: str, R: int, how: str) -> int:
    return int(recall_cutoffs(level, np.array([R]), how)[0])


def test_exact_is_integer_ceiling_for_every_level_and_R():
    for level in RECALL_LEVELS:
        for R in range(200):
            tenths = round(float(level) * 10)
            assert cutoff(level, R, "exact") == -((-tenths * R) // 10)


def test_trec_eval_9_floating_error_corner_case():
    # 0.7 * 3 + 0.9 = 2.9999999999999996 in doubles, so trec_eval 9 takes the 2nd relevant.
    assert (cutoff("0.70", 3, "exact"), cutoff("0.70", 3, "trec_eval_9")) == (3, 2)
    assert (cutoff("0.30", 57, "exact"), cutoff("0.30", 57, "trec_eval_9")) == (18, 17)


def test_lround_rounds_to_nearest():
    assert (cutoff("0.10", 14, "exact"), cutoff("0.10", 14, "lround")) == (2, 1)
    assert cutoff("0.50", 5, "lround") == 3


def test_exact_reads_any_level_as_the_decimal_written():
    # ceil(0.25 * 5) = 2, ceil(0.25 * 4) = 1, ceil(0.7 * 10) = 7
    assert recall_cutoffs(0.25, np.array([5, 4]), "exact").tolist() == [2, 1]
    assert recall_cutoffs(0.7, np.array([10]), "exact").tolist() == [7]
