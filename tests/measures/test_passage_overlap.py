"""Interval machinery: highlighted overlap sums and overlapping passage pairs."""

from __future__ import annotations

import numpy as np

from builder.measures.inex.overlap import HighlightIndex, first_overlaps


def test_highlighted_overlap_counts_each_highlighted_passage():
    # group 0: [10,20), [15,18) (overlapping, counted once each), [30,40); group 1: [0,100)
    index = HighlightIndex(np.array([0, 0, 1, 0]), np.array([10, 30, 0, 15]), np.array([20, 40, 100, 18]))
    got = index.highlighted_overlap(
        np.array([0, 0, 0, 1, -1, 2]), np.array([0, 12, 35, 50, 0, 0]), np.array([100, 16, 100, 60, 10, 10])
    )
    assert got.tolist() == [10 + 3 + 10, 4 + 1, 5, 10, 0, 0]


def test_first_overlaps_catches_nested_and_partial():
    group = np.array([0, 0, 0, 1, 1, 2, 2])
    start = np.array([0, 10, 2, 0, 5, 0, 3])
    end = np.array([10, 20, 3, 5, 6, 5, 8])
    later, earlier = first_overlaps(group, start, end)
    pairs = sorted(zip(later.tolist(), earlier.tolist()))
    assert pairs == [(2, 0), (6, 5)]  # nested [2,3) in [0,10); partial [3,8) over [0,5)
