"""EPRUM's minimum expected search length: one ideal list per recall (section 5).

Piwowarski and Dupret (SIGIR 2006), section 2 and 5: precision at recall r compares the
evaluated list with "the minimum number of consulted list items for achieving a recall r over
all lists", and "it is possible to define one ideal list for any given recall r". Their
example: pointers a^, b^, c^ with b, c ideal, each pointer reaching its element for certain and
a^ reaching b and c with probability 0.9: for r = 1 the best list starts with b^ (E[ML*_1] = 1),
for r = 2 it is (a^, b^, c^) (E[ML*_2] = 1 + 0.19 + 0.1 = 1.29). One list for every r gives
E[ML*_1] = 1.01 on (a^, b^, c^).

The lists considered are the orders of the ideal list's ranks (the ``ideal:K`` rows of a
navigation table: what a list may hold), each scored by eq. 4, ``E[ML*_r] = 1 +
sum_{k=1}^{N-1} P(F*_k < r)``; per r the smallest. Up to ``EXACT_ITEMS`` ranks every order is
scored (N! lists, all at once): the minimum is exact. Above, the minimum is taken over the
given order and the greedy order (at each position the rank that adds the most expected
discoveries, ``sum_x P(x in S_k)``): an upper bound on the minimum, so EPRUM precision, which
is proportional to E[ML*_r], is then an upper bound too; ``exact`` says which.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from builder.measures.eprum.precision_recall import (
    DEFAULT_EXACT_LIMIT,
    count_below,
    expected_ideal_search_length,
    seen_probabilities,
)

IDEAL_LISTS = ("per_recall", "one")
"""The ``ideal_lists`` option: the best order of the ideal list's ranks for each recall
(section 5), or the ideal list as given for every recall."""

EXACT_ITEMS = 7
"""Every order of up to this many ideal-list ranks is scored (7! = 5040 lists)."""


def search_lengths(lists: np.ndarray, max_recall: int,
                   exact_limit: int = DEFAULT_EXACT_LIMIT) -> np.ndarray:
    """Eq. 4's ``E[ML_r]`` (lists x r) of a stack of lists (lists x ranks x elements of
    ``P(k ~> x)``), all at once."""
    n_lists, ranks, width = lists.shape
    seen = 1.0 - np.cumprod(1.0 - lists, axis=1)
    below = count_below(seen.reshape(n_lists * ranks, width), max_recall, exact_limit)
    below = below.reshape(n_lists, ranks, max_recall)
    return 1.0 + below[:, :-1].sum(axis=1)


def greedy_order(items: np.ndarray) -> np.ndarray:
    """The order taking, at each position, the rank that most raises ``sum_x P(x in S_k)``
    (the first such rank on a tie).

    Each step scores every rank at once (a row-wise sum of ``items * missed``, the same
    pairwise sums as one rank's), the ranks already taken left out: n numpy steps for n
    ranks, not n squared Python calls.
    """
    count = len(items)
    order = np.empty(count, dtype=np.int64)
    taken = np.zeros(count, dtype=bool)
    missed = np.ones(items.shape[1])
    for position in range(count):
        gains = (items * missed).sum(axis=1)
        gains[taken] = -np.inf
        best = int(np.argmax(gains))
        order[position] = best
        taken[best] = True
        missed = missed * (1.0 - items[best])
    return order


def minimum_search_length(items: np.ndarray, max_recall: int,
                          exact_items: int = EXACT_ITEMS,
                          exact_limit: int = DEFAULT_EXACT_LIMIT
                          ) -> tuple[np.ndarray, np.ndarray, bool]:
    """Per r = 1..max_recall: the smallest ``E[ML*_r]`` over the orders of ``items`` (ranks x
    elements of ``P(k ~> x)``), the order that gives it (r x ranks), and whether the minimum
    is exact (at most ``exact_items`` ranks) or an upper bound (see the module docstring)."""
    items = np.asarray(items, dtype=float)
    n = len(items)
    if n == 0:
        return np.zeros(max_recall), np.zeros((max_recall, 0), np.int64), True
    exact = n <= exact_items
    if exact:
        orders = np.array(list(permutations(range(n))), dtype=np.int64)
    else:
        orders = np.stack([np.arange(n), greedy_order(items)])
    lengths = search_lengths(items[orders], max_recall, exact_limit)  # orders x r
    best = np.argmin(lengths, axis=0)
    return lengths[best, np.arange(max_recall)], orders[best], exact


def ideal_search_length(ideal_navigation: np.ndarray, max_recall: int, per_recall: bool,
                        exact_limit: int = DEFAULT_EXACT_LIMIT) -> np.ndarray:
    """``E[ML*_r]`` for r = 1..max_recall: the minimum over the orders of the ideal list's
    ranks for each r (``per_recall``, section 5), or the given order's (one list for all r)."""
    if per_recall:
        return minimum_search_length(ideal_navigation, max_recall, exact_limit=exact_limit)[0]
    return expected_ideal_search_length(
        count_below(seen_probabilities(ideal_navigation), max_recall, exact_limit))
