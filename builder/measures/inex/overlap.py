"""Interval machinery for character-level passage evaluation, over all passages at once.

Passages are half-open character intervals ``[start, end)`` grouped by an integer group id
(an article of a topic). Two questions are answered with sorted arrays and ``searchsorted``,
never a Python loop per passage:

- how many highlighted characters does a retrieved passage cover (``highlighted_overlap``);
- which passages of the same group share characters (``first_overlaps``).
"""

from __future__ import annotations

import numpy as np

_SHIFT = np.int64(1) << np.int64(32)
_BIAS = np.int64(1) << np.int64(31)


def _keys(group: np.ndarray, position: np.ndarray) -> np.ndarray:
    """One sortable int64 per (group, position): groups apart, positions in order inside."""
    clipped = np.clip(position, -_BIAS, _BIAS - 1)
    return group.astype(np.int64) * _SHIFT + (clipped.astype(np.int64) + _BIAS)


class HighlightIndex:
    """The highlighted passages of every judged article, ready for overlap sums.

    For a point x of group g, ``F(x) = sum_i |[a_i, b_i) ∩ (-inf, x)|`` over the group's
    highlighted passages; a retrieved passage ``[s, e)`` covers ``F(e) - F(s)`` highlighted
    characters. F is a difference of two sums over sorted starts and sorted ends:
    ``F(x) = (n_a(x) x - sum a_i) - (n_b(x) x - sum b_i)`` for ``a_i < x`` and ``b_i < x``,
    each found with one ``searchsorted`` over group-then-position keys and read from running
    totals. Overlapping highlighted passages count once each, as inex_eval 3.1 counts them
    (``Qrel.RelevanceSize`` adds the overlap with every passage).
    """

    def __init__(self, group: np.ndarray, start: np.ndarray, end: np.ndarray) -> None:
        self._starts = self._sorted(group, start)
        self._ends = self._sorted(group, end)

    @staticmethod
    def _sorted(group: np.ndarray, position: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keys = _keys(group, position)
        order = np.argsort(keys, kind="stable")
        totals = np.concatenate([[0], np.cumsum(position[order].astype(np.int64))])
        return keys[order], totals

    @staticmethod
    def _below(side: tuple[np.ndarray, np.ndarray], group: np.ndarray, x: np.ndarray) -> np.ndarray:
        keys, totals = side
        first = np.searchsorted(keys, _keys(group, np.full_like(x, -_BIAS)), side="left")
        upto = np.searchsorted(keys, _keys(group, x), side="left")
        return (upto - first) * x.astype(np.int64) - (totals[upto] - totals[first])

    def covered_before(self, group: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``F(x)``: highlighted characters of the group before position x."""
        return self._below(self._starts, group, x) - self._below(self._ends, group, x)

    def highlighted_overlap(self, group: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """Highlighted characters inside each ``[start, end)`` (group -1: none)."""
        known = group >= 0
        overlap = np.zeros(len(group), dtype=np.int64)
        g = group[known]
        overlap[known] = self.covered_before(g, end[known]) - self.covered_before(g, start[known])
        return overlap


def first_overlaps(group: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of passages of one group that share at least one character.

    Returns ``(i, j)`` index arrays: for each passage i that shares characters with a passage
    that starts before it (or at the same place and comes first in input order), j is the one
    of those reaching furthest right. Every overlapping group yields at least one pair, nested
    passages included: sorted by start, a passage overlaps an earlier one exactly when it starts
    before the running maximum of the earlier ends. Empty passages share no character.
    """
    nonempty = np.flatnonzero(end > start)
    g, s, e = group[nonempty], start[nonempty], end[nonempty]
    order = np.lexsort((nonempty, s, g))
    g, s, e, index = g[order], s[order], e[order], nonempty[order]
    if len(g) < 2:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    new_group = np.concatenate([[True], g[1:] != g[:-1]])
    # running argmax of ends inside each group: a cumulative max over ends lifted by group rank
    group_rank = np.cumsum(new_group) - 1
    lifted = group_rank.astype(np.float64) * (float(e.max()) - float(e.min()) + 1.0) + (e - e.min())
    running = np.maximum.accumulate(lifted)
    holder = _running_argmax(lifted, running)
    previous = np.concatenate([[-1], holder[:-1]])
    hit = ~new_group
    hit[1:] &= s[1:] < e[previous[1:]]
    rows = np.flatnonzero(hit)
    return index[rows], index[previous[rows]]


def _running_argmax(values: np.ndarray, running: np.ndarray) -> np.ndarray:
    """Position of the element holding the running maximum at each position."""
    positions = np.arange(len(values))
    is_holder = values == running
    return np.maximum.accumulate(np.where(is_holder, positions, 0))
