"""Running sums that start again at each segment (a ranking, a run's topic), added one by one in
order, as the official programs' loops add.

A global ``np.cumsum`` minus each segment's offset is faster but rounds a segment's sums by the
magnitude of everything summed before it: the last digits of a run's scores would then depend
on which runs were evaluated with it (in one batch or in another). Here each segment's sums
depend on its own values only, so evaluating the runs together, one by one or in batches gives
the same bits.
"""

from __future__ import annotations

import numpy as np


def segment_cumsum(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Running sum of ``values`` within each stretch of equal ``segment``, added in order.

    Stretches of similar length (within a factor 2) are padded into one 2-D array whose rows
    are summed along; a few passes, padding at most doubles the memory.
    """
    n = len(values)
    out = np.empty(n)
    if not n:
        return out
    starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    sizes = np.diff(np.r_[starts, n])
    position = np.arange(n) - np.repeat(starts, sizes)
    bucket = np.ceil(np.log2(sizes)).astype(np.int64)
    for b in np.unique(bucket):
        chosen = bucket == b
        rows = np.flatnonzero(np.repeat(chosen, sizes))
        width = 1 << int(b)
        flat = np.repeat(np.arange(width * chosen.sum(), step=width), sizes[chosen])
        flat += position[rows]
        grid = np.zeros(width * chosen.sum())
        grid[flat] = values[rows]
        out[rows] = np.cumsum(grid.reshape(-1, width), axis=1).ravel()[flat]
    return out


def segment_cumsum_before(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """The sum of the values before each row within its segment (0 at a segment's first row):
    the running sum of the values shifted down by one row, so no subtraction rounds it."""
    shifted = np.zeros(len(values))
    if len(values) > 1:
        same = segment[1:] == segment[:-1]
        shifted[1:] = np.where(same, values[:-1], 0.0)
    return segment_cumsum(shifted, segment)
