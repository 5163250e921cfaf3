"""The two tools every ad hoc measure module uses: where each (run, topic) cell's rows lie in a
``JudgedRanking`` (its rows are contiguous, in rank order), and trec_eval's guarded ratio (0
where the denominator is 0)."""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.judged.ranking import JudgedRanking


class Cells:
    """Positions of each cell's rows in the evaluation order (rows of a cell are contiguous)."""

    def __init__(self, judged: JudgedRanking) -> None:
        self.size = judged.per_cell().astype(np.int64)
        self.start = np.r_[0, np.cumsum(self.size)[:-1]]

    def count_within(self, running: np.ndarray, k: np.ndarray | int) -> np.ndarray:
        """``running`` (a count so far, per row) at each cell's rank min(k, size); 0 if empty."""
        depth = np.minimum(k, self.size)
        index = np.where(depth > 0, self.start + depth - 1, 0)
        return np.where(depth > 0, running[index] if len(running) else 0, 0)

    def running_count(self, flags: np.ndarray) -> np.ndarray:
        """How many rows so far in the cell (this one included) have ``flags`` (int32: one
        value per retrieved document, so the narrow type halves the largest arrays)."""
        total = np.cumsum(flags, dtype=np.int32)
        filled = self.size > 0
        first = self.start[filled]
        total -= np.repeat(total[first] - flags[first], self.size[filled])
        return total


def ratio(numerator, denominator) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (trec_eval's guard)."""
    denominator = np.asarray(denominator, dtype=np.float64)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, numerator / safe, 0.0)
