"""The union of each article's relevant passages, for many articles at once.

The relevant size of a query interval ``[a, b)`` of an article,

    rsize(a, b) = sum_p |[a, b) ∩ p| = C(b) - C(a),   C(x) = sum_p clip(x - start_p, 0, len_p)

(seed 001, the ``rsize`` of eq. 1 and 4), is ``passage_overlap.HighlightIndex``. Summing over
passages, as inex_eval's ``Qrel.RelevanceSize`` does, counts text twice where qrel passages
overlap; ``union_passages`` gives the union when a character must be relevant or not (the
tolerance-to-irrelevance reading).
"""

from __future__ import annotations

import numpy as np


def union_passages(
    article: np.ndarray, start: np.ndarray, end: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The union of each article's intervals, as sorted disjoint ``(article, start, end)``."""
    order = np.lexsort((start, article))
    article, start, end = article[order], start[order], end[order]
    if len(article) == 0:
        return article, start, end
    # Running maximum of the ends within an article: a new interval begins where the start
    # lies beyond every end seen so far in the same article.
    reach = _group_cummax(article, end)
    new_article = np.r_[True, article[1:] != article[:-1]]
    begins = new_article | np.r_[True, start[1:] > reach[:-1]]
    group = np.cumsum(begins) - 1
    last = np.r_[np.flatnonzero(begins)[1:], len(article)] - 1
    return article[begins], start[begins], reach[last][: group[-1] + 1]


def _group_cummax(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Cumulative maximum of ``value`` restarting at each new ``group`` (sorted by group)."""
    # Lift each group above every earlier one so a single global cummax never leaks across.
    lift = (group - group.min()) * (int(value.max()) - int(value.min()) + 1)
    return np.maximum.accumulate(value - value.min() + lift) - lift + value.min()
