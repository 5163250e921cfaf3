"""Repeated (group, value) pairs found piece by piece are those found at once, whatever the cut."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from builder.formats.trec.repeated_pairs import group_cuts, repeated_rows


def _rows_at_once(groups: np.ndarray, values: list[str]) -> np.ndarray:
    return np.flatnonzero(pd.DataFrame({"g": groups, "v": values}).duplicated().to_numpy())


def _stretched(seed: int) -> tuple[np.ndarray, list[str]]:
    """Topics written in stretches (one topic coming back later), docnos repeated now and then
    within a topic and across topics, in chunks of uneven sizes."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(rng.permutation(40), rng.integers(1, 200, 40))
    groups = np.r_[groups, groups[len(groups) // 2]]  # a topic of the middle again at the end
    values = [f"d{v}" for v in rng.integers(0, 300, len(groups))]
    return groups, values


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("piece_rows", [1, 7, 100, 1 << 16])
def test_pieces_find_the_rows_found_at_once(seed, piece_rows):
    groups, values = _stretched(seed)
    sizes = np.diff(np.r_[0, np.sort(np.random.default_rng(seed).integers(0, len(values), 5)),
                          len(values)])
    offsets = np.r_[0, np.cumsum(sizes)]
    chunked = pa.chunked_array([pa.array(values[a:b], pa.large_string())
                                for a, b in pairwise(offsets.tolist())])
    expected = _rows_at_once(groups, values)
    assert len(expected)  # the case has repeats to find
    assert repeated_rows(groups, chunked, piece_rows).tolist() == expected.tolist()


def test_no_repeat_and_no_row():
    groups = np.repeat(np.arange(50), 20)
    values = pa.chunked_array([pa.array([f"d{i}" for i in range(1000)])])
    assert repeated_rows(groups, values, 10).tolist() == []
    assert repeated_rows(np.zeros(0, np.int64), pa.chunked_array([], pa.string())).tolist() == []


def test_cuts_never_split_a_group():
    groups, _ = _stretched(1)
    cuts = group_cuts(groups, 50)
    assert cuts[0] == 0 and cuts[-1] == len(groups) and len(cuts) > 3
    pieces = [set(groups[a:b].tolist()) for a, b in pairwise(cuts.tolist())]
    assert sum(len(p) for p in pieces) == len(set().union(*pieces))  # pairwise disjoint
    # The topic back at the end keeps everything from its first row on in one piece.
    assert groups[-1] in pieces[-1] and len(pieces[-1]) > 5


def test_scattered_groups_are_one_piece():
    groups = np.tile(np.arange(5), 100)  # every row a new stretch
    assert group_cuts(groups, 10).tolist() == [0, 500]
