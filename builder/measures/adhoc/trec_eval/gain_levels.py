"""trec_eval's gain per relevance level and the ideal ranking it builds from them
(``setup_gains`` and the ideal loop of ``m_ndcg.c``, ``m_G.c``, ``m_ndcg_rel.c``,
``m_Rndcg.c``; ``gain_init.c`` in 10.0), for ``-m ndcg.1=3.5,2=9`` and its kin.

``setup_gains`` makes one entry per ``level=gain`` parameter, in the order given (10.0 skips a
name that is not an integer, ``valid_int``; 9.0.8 reads every name with ``atol``, so ``p=3``
is level 0), then one entry per relevance level 0 .. the topic's highest not named, gain =
level. A level's count of judged documents goes to the first entry naming it. The entries are
then sorted with ``qsort`` and the comparator ``(int)(gain1 - gain2)``, which calls gains less
than 1 apart equal (3.5 and 4 are "equal"); glibc's ``qsort`` is a stable merge sort, so equal
entries keep the order in which they were made. The ideal ranking walks the entries from the
last, each non-empty entry giving as many documents as it counts, and stops at the first
non-empty entry of gain <= 0 (or at once when the last entry's gain is <= 0). A retrieved
document gains the gain of the first entry, in sorted order, of its level (unjudged: level -1,
judged negative: -2; 0 when no entry names the level).

So with ``ndcg.1=3.5,2=9`` and levels 0 .. 4 the entries 3.5 (level 1), 9 (2), 0, 3, 4 sort as
0, 3.5, 3, 4, 9 (3.5 - 3 is 0 for the comparator): the ideal ranking gives 9, 4, 3, 3, 3.5, 3.5
where the definition gives 9, 4, 3.5, 3.5, 3, 3. ``order="sorted"`` sorts the entries by gain,
exactly (the definition: the ideal ranking is the judged documents of positive gain, best
first); that is an option, trec_eval's order the default.

The comparator and glibc's merge sort (``msort.c``: halves of n // 2 and n - n // 2, merged
taking from the left half while ``compare <= 0``) are written out: a topic has a few levels,
and Python's sort has no comparator of C's ``int`` semantics to borrow.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np

from builder.formats.text.c_numbers import c_atol
from builder.measures.adhoc.judged.ranking import NOT_IN_POOL, UNJUDGED, JudgedRanking

GainOrder = Literal["trec_eval", "sorted"]
_VALID_INT = re.compile(r"[+-]?\d+", re.ASCII)
_INT_MIN = -(2**31)


def compare_gains(gain1: float, gain2: float) -> int:
    """trec_eval's ``comp_rel_gain``: ``gain1 - gain2`` converted to C's ``int``, truncated
    toward zero (x86's conversion gives INT_MIN for a value out of range or NaN)."""
    difference = gain1 - gain2
    if math.isnan(difference) or not -(2.0**31) < difference < 2.0**31:
        return _INT_MIN
    return int(difference)


def glibc_merge_sort(items: Sequence[int], compare: Callable[[int, int], int]) -> list[int]:
    """``items`` sorted as glibc's ``qsort`` sorts them (``msort_with_tmp``): a top-down merge
    sort, the left half n // 2 long, an item of the left half taken while ``compare(left,
    right) <= 0`` (stable)."""
    n = len(items)
    if n <= 1:
        return list(items)
    left = glibc_merge_sort(items[: n // 2], compare)
    right = glibc_merge_sort(items[n // 2:], compare)
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if compare(left[i], right[j]) <= 0:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def level_entries(pairs: Sequence[tuple[str, float]], num_levels: int, *,
                  integer_names: bool, order: GainOrder
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``setup_gains`` for a topic whose highest judged level is ``num_levels - 1``: each
    entry's level, gain and the level whose count it holds (-1: none), in sorted order."""
    levels, gains = [], []
    for name, gain in pairs:
        if integer_names and not _VALID_INT.fullmatch(name):
            continue
        levels.append(c_atol(name))
        gains.append(float(gain))
    counted = [-1] * len(levels)
    for level in range(num_levels):
        if level in levels:
            counted[levels.index(level)] = level
        else:
            levels.append(level)
            gains.append(float(level))
            counted.append(level)
    if order == "sorted":
        ranked = sorted(range(len(gains)), key=gains.__getitem__)
    else:
        ranked = glibc_merge_sort(range(len(gains)), lambda a, b: compare_gains(gains[a], gains[b]))
    return (np.array([levels[i] for i in ranked], np.int64),
            np.array([gains[i] for i in ranked], np.float64),
            np.array([counted[i] for i in ranked], np.int64))


def _level_counts(judged: JudgedRanking) -> np.ndarray:
    """Judged documents per (topic, level 0 .. highest): the positive levels from the ideal
    gains, level 0 the judged documents left (R + judged non-relevant, whatever ``-l``)."""
    n_topics = len(judged.topics)
    positive = judged.ideal_gains.astype(np.int64)
    span = int(positive.max(initial=0)) + 1
    topic = np.repeat(np.arange(n_topics), np.diff(judged.ideal_start))
    counts = np.bincount(topic * span + positive, minlength=n_topics * span).reshape(n_topics, span)
    counts[:, 0] = judged.num_rel + judged.num_nonrel - np.diff(judged.ideal_start)
    return counts


def trec_eval_gains(judged: JudgedRanking, pairs: Sequence[tuple[str, float]], *,
                    integer_names: bool = True, order: GainOrder = "trec_eval"
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gain of each retrieved row, and each topic's ideal ranking of gains (flat, split by
    the returned starts), as trec_eval builds them from ``pairs`` (``level=gain`` in the
    order given). Entries depend on a topic's highest level only: made once per highest."""
    counts = _level_counts(judged)
    n_topics = len(judged.topics)
    nonempty = counts > 0
    num_levels = np.where(nonempty.any(axis=1),
                          counts.shape[1] - np.argmax(nonempty[:, ::-1], axis=1), 0)
    lowest = min(NOT_IN_POOL, UNJUDGED)
    width = counts.shape[1] - lowest
    lookup = np.zeros((n_topics, width))
    ideal_topic, ideal_gain = [], []
    for highest in np.unique(num_levels):
        topics = np.flatnonzero(num_levels == highest)
        level, gain, counted = level_entries(pairs, int(highest), integer_names=integer_names,
                                             order=order)
        # get_gain: the first entry of a level, in sorted order (reversed, the last write wins).
        first = (level >= lowest) & (level < counts.shape[1])
        for at in np.flatnonzero(first)[::-1]:
            lookup[topics, level[at] - lowest] = gain[at]
        walk = slice(None, None, -1)
        block_counts = np.where(counted[walk] >= 0, counts[topics][:, np.maximum(counted, 0)][:, walk], 0)
        block_gain = gain[walk]
        if not len(block_gain) or block_gain[0] <= 0:
            continue
        stops = (block_counts > 0) & (block_gain <= 0)
        kept = np.where(np.cumsum(stops, axis=1) == 0, block_counts, 0)
        ideal_topic.append(np.repeat(np.repeat(topics, len(block_gain)), kept.ravel()))
        ideal_gain.append(np.repeat(np.tile(block_gain, len(topics)), kept.ravel()))
    topic_of_row = judged.topic_of_cell()[judged.cell]
    row_gain = lookup[topic_of_row, judged.rel.astype(np.int64) - lowest]
    topic = np.concatenate(ideal_topic) if ideal_topic else np.zeros(0, np.int64)
    ideal = np.concatenate(ideal_gain) if ideal_gain else np.zeros(0)
    by_topic = np.argsort(topic, kind="stable")
    starts = np.r_[0, np.cumsum(np.bincount(topic, minlength=n_topics))]
    return row_gain, ideal[by_topic], starts
