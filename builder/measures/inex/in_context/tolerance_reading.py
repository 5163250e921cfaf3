"""Reading an article with a tolerance to irrelevance (inex_eval 3.1 ``-i``).

The restricted relevant in context task scores an article by what a reader sees who

1. reads the retrieved passages in document order (inex_eval 3.1 keeps an article's passages
   sorted by offset, ``Article.AddPassage``, whatever their order in the run), then the rest
   of the article (``[0, doc_chars)`` less the retrieved text) in document order
   (``Article.setNCReadingOrderPassages``), and
2. stops as soon as ``tolerance`` characters of non-relevant text have been read
   (inex_eval 3.1: 300).

The article score is the precision of the text read, ``rel_read / read`` (0 when nothing
relevant is read). Reverse-engineered from inex_eval 3.1's outputs on the INEX 2009-2010
data (``../shared/data/inex_ipcs``): every per-topic value is reproduced to 1e-9, and checked
against the program's classes (``Qrel.RelevanceSizeUsingT2I``) and on random campaigns.
An unknown passage (offset ``X``) reads no text (inex_eval 3.1's outputs on random campaigns),
though ``ret_size`` counts it as ``UNKNOWN_PASSAGE_LENGTH`` characters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.measures.inex.in_context.relevant_text import union_passages
from builder.measures.inex.overlap import HighlightIndex

UNKNOWN_PASSAGE_LENGTH = 18
"""inex_eval's ``meanPassageLength``: the size given to a passage unknown to the database."""


@dataclass(frozen=True)
class ReadingIndex:
    """Where each article's non-relevant text lies: the gaps between its relevant passages.

    ``NR(x) = x - C(x)`` counts non-relevant characters before ``x``; the gaps give its inverse.
    """

    coverage: HighlightIndex
    gap_keys: np.ndarray
    gap_start: np.ndarray
    gap_nonrelevant_before: np.ndarray
    key_span: int

    @classmethod
    def build(
        cls, article: np.ndarray, start: np.ndarray, end: np.ndarray, n_articles: int, span: int,
        tolerance: int,
    ) -> ReadingIndex:
        u_article, u_start, u_end = union_passages(
            np.asarray(article, np.int64), np.asarray(start, np.int64), np.asarray(end, np.int64)
        )
        coverage = HighlightIndex(u_article, u_start, u_end)
        every = np.arange(n_articles, dtype=np.int64)
        # Gap i of an article runs from the end of relevant passage i - 1 (0 for the first)
        # to the start of passage i (``span``, i.e. never, after the last).
        gap_article = np.concatenate([every, u_article])
        order = np.lexsort((np.concatenate([np.zeros(n_articles, np.int64), u_end]), gap_article))
        gap_article = gap_article[order]
        gap_start = np.concatenate([np.zeros(n_articles, np.int64), u_end])[order]
        end_order = np.lexsort((np.concatenate([u_start, np.full(n_articles, span)]),
                                np.concatenate([u_article, every])))
        gap_end = np.concatenate([u_start, np.full(n_articles, span, np.int64)])[end_order]
        length = gap_end - gap_start
        before = np.cumsum(length) - length
        first = np.r_[True, gap_article[1:] != gap_article[:-1]]
        before -= np.maximum.accumulate(np.where(first, before, 0))
        key_span = 2 * span + tolerance + 2
        return cls(coverage, gap_article * key_span + before, gap_start, before, key_span)

    def nonrelevant_before(self, article: np.ndarray, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.int64)
        return x - self.coverage.covered_before(np.asarray(article, np.int64), x)

    def position_of_nonrelevant(self, article: np.ndarray, count: np.ndarray) -> np.ndarray:
        """The smallest x with NR(x) = count (count >= 1): where that much irrelevance is read."""
        idx = np.searchsorted(self.gap_keys, article * self.key_span + count, side="left") - 1
        return self.gap_start[idx] + (count - self.gap_nonrelevant_before[idx])


def read_with_tolerance(
    group: np.ndarray, start: np.ndarray, end: np.ndarray, unknown: np.ndarray,
    group_article: np.ndarray, group_doc_chars: np.ndarray, index: ReadingIndex, tolerance: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Relevant and total characters read per group (an article in a run's topic).

    ``group``, ``start``, ``end``, ``unknown`` are the retrieved passages, sorted by group (in
    any order within a group: they are read by offset); ``group_article`` is the qrels article of each group (>= 0).
    """
    n_groups = len(group_article)
    seg_group, seg_start, seg_end, seg_unknown = _reading_order(
        group, start, end, unknown, group_doc_chars
    )
    article = group_article[seg_group]
    relevant = np.where(seg_unknown, 0, index.coverage.highlighted_overlap(article, seg_start, seg_end))
    # inex_eval 3.1 -i reads no text of a passage of unknown offset (its ret_size counts 18).
    length = np.where(seg_unknown, 0, seg_end - seg_start)
    nonrelevant = length - relevant
    total = np.cumsum(nonrelevant)
    before = total - nonrelevant
    before -= np.maximum.accumulate(np.where(np.r_[True, seg_group[1:] != seg_group[:-1]], before, 0))
    read = before < tolerance
    stops = read & (before + nonrelevant >= tolerance)
    rel_read = np.where(read & ~stops, relevant, 0)
    nonrel_read = np.where(read & ~stops, nonrelevant, 0)

    # In the segment where the tolerance runs out, read up to the last tolerated character.
    s = np.flatnonzero(stops & ~seg_unknown)
    s_article = article[s]
    target = index.nonrelevant_before(s_article, seg_start[s]) + (tolerance - before[s])
    stop_at = index.position_of_nonrelevant(s_article, target)
    rel_read[s] = index.coverage.highlighted_overlap(s_article, seg_start[s], stop_at)
    nonrel_read[stops] = tolerance - before[stops]

    rel_total = np.bincount(seg_group, weights=rel_read, minlength=n_groups)
    nonrel_total = np.bincount(seg_group, weights=nonrel_read, minlength=n_groups)
    return rel_total.astype(np.int64), (rel_total + nonrel_total).astype(np.int64)


def _reading_order(
    group: np.ndarray, start: np.ndarray, end: np.ndarray, unknown: np.ndarray, doc_chars: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each article's retrieved passages, then its unretrieved text, both in document order."""
    n_groups = len(doc_chars)
    known = ~unknown
    # A zero-length sentinel at the article's end closes the last gap.
    k_group = np.concatenate([group[known], np.arange(n_groups)])
    k_start = np.concatenate([start[known], doc_chars])
    k_end = np.concatenate([end[known], doc_chars])
    order = np.lexsort((k_start, k_group))
    k_group, k_start, k_end = k_group[order], k_start[order], k_end[order]
    first = np.r_[True, k_group[1:] != k_group[:-1]]
    # The furthest end read so far in the article (a passage may run past the sentinel).
    shift = k_group.astype(np.int64) * (int(max(k_end.max(initial=0), 0)) + 1)
    reach = np.maximum.accumulate(k_end + shift) - shift
    previous_end = np.where(first, 0, np.r_[0, reach[:-1]])
    # Not cut at the article's end: before a passage that starts past it, inex_eval 3.1 reads
    # the text up to the passage's start as unretrieved (non-relevant) text too.
    gap_end = k_start
    gaps = gap_end > previous_end

    seg_group = np.concatenate([group, k_group[gaps]])
    seg_start = np.concatenate([start, previous_end[gaps]])
    seg_end = np.concatenate([end, gap_end[gaps]])
    seg_unknown = np.concatenate([unknown, np.zeros(int(gaps.sum()), bool)])
    retrieved_first = np.r_[np.zeros(len(group), np.int64), np.ones(int(gaps.sum()), np.int64)]
    order = np.lexsort((seg_start, retrieved_first, seg_group))
    return seg_group[order], seg_start[order], seg_end[order], seg_unknown[order]
