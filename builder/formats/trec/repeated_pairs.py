"""Rows repeating an earlier row's (group, value) pair: a docno judged twice for a topic in
qrels, or retrieved twice for a topic in a run (trec_eval stops on both).

The rows are cut into pieces of about ``PIECE_ROWS`` rows such that no group has rows in two
pieces (files are nearly always written a topic at a time); each piece's values are
dictionary-encoded on their own, on every core. A small piece's hash table stays in the
processor's cache: a 10M-line run's docnos encode about six times faster in pieces of 64K
rows than at once (0.6 s against 3.6 s), and the table never holds every docno at once. A
file whose groups are scattered over it is one piece, encoded as a whole. Repeats are found
in each piece with its codes, so the rows found are the same however the file is cut.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

PIECE_ROWS = 1 << 16
"""About how many rows are encoded at once (a few MB of hash table: the cache's size)."""


def repeated_rows(groups: np.ndarray, values: pa.ChunkedArray,
                  piece_rows: int | None = None) -> np.ndarray:
    """Indices, ascending, of the rows whose (``groups``, ``values``) pair occurs on an
    earlier row; ``groups`` are non-negative integer codes, one per row of ``values``."""
    cuts = group_cuts(groups, PIECE_ROWS if piece_rows is None else piece_rows)
    pieces = list(pairwise(cuts.tolist()))

    def repeated_in(piece: tuple[int, int]) -> np.ndarray:
        start, end = piece
        return _repeated_in(groups[start:end], values.slice(start, end - start)) + start

    if len(pieces) < 2:
        found = [repeated_in(piece) for piece in pieces]
    else:  # Arrow hashes without the interpreter's lock
        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            found = list(pool.map(repeated_in, pieces))
    return np.concatenate([np.zeros(0, np.int64), *found])


def group_cuts(groups: np.ndarray, rows: int) -> np.ndarray:
    """Row positions ``0 = c0 < c1 < ... = len(groups)`` cutting ``groups`` into pieces of
    about ``rows`` rows or more, no group value in two pieces; ``[0, n]`` when the groups
    are not written in stretches (then a stretch is a row or two: one piece, not worth it)."""
    n = len(groups)
    if n <= rows:
        return np.array([0, n], dtype=np.int64)
    starts = np.flatnonzero(groups[1:] != groups[:-1]) + 1  # where a stretch begins (not 0)
    if len(starts) > n // 16:
        return np.array([0, n], dtype=np.int64)
    stretch_group = groups[np.r_[0, starts]].astype(np.int64)
    stretches = len(stretch_group)
    first = np.full(int(stretch_group.max()) + 1, stretches, dtype=np.int64)
    last = np.full(len(first), -1, dtype=np.int64)
    np.minimum.at(first, stretch_group, np.arange(stretches))
    np.maximum.at(last, stretch_group, np.arange(stretches))
    used = last >= 0
    # open[j]: groups with stretches before and from stretch j on (a cut there splits them).
    opened = np.zeros(stretches + 1, dtype=np.int64)
    np.add.at(opened, first[used] + 1, 1)
    np.add.at(opened, last[used] + 1, -1)
    free = starts[np.cumsum(opened)[1:stretches] == 0]
    at = np.searchsorted(free, np.arange(rows, n, rows))
    return np.unique(np.r_[0, free[at[at < len(free)]], n]).astype(np.int64)


def _repeated_in(groups: np.ndarray, values: pa.ChunkedArray) -> np.ndarray:
    """The repeating rows of one piece (indices in the piece)."""
    none = np.zeros(0, np.int64)
    if not len(values):
        return none
    encoded = pc.dictionary_encode(values)
    distinct = len(encoded.chunks[-1].dictionary)  # the last chunk's holds every value
    if distinct == len(values):  # no value twice, whatever the groups
        return none
    codes = np.concatenate([c.indices.to_numpy() for c in encoded.chunks]).astype(np.int64)
    low = int(groups.min())
    pair = (groups.astype(np.int64) - low) * distinct + codes
    if not repeats(pair, (int(groups.max()) - low + 1) * distinct):
        return none
    return np.flatnonzero(pd.Series(pair).duplicated().to_numpy())


def repeats(keys: np.ndarray, bound: int) -> bool:
    """Whether a value of ``keys`` (integers in ``[0, bound)``) occurs twice: the distinct
    values marked in a table when it is small (a few MB), else sorted."""
    if bound <= 16 * len(keys) + (1 << 24):
        seen = np.zeros(bound, dtype=bool)
        seen[keys] = True
        return int(np.count_nonzero(seen)) < len(keys)
    ordered = np.sort(keys)
    return bool((ordered[1:] == ordered[:-1]).any())


def as_chunked(values: pd.Series | pa.Array | pa.ChunkedArray) -> pa.ChunkedArray:
    """A column as an Arrow chunked array (a pandas string column backed by Arrow is not
    copied)."""
    array = values if isinstance(values, pa.Array | pa.ChunkedArray) else pa.array(values)
    return array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])
