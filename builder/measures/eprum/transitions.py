"""EPRUM navigation probabilities composed from recorded user transitions (section 3.2).

Piwowarski and Dupret (SIGIR 2006), section 3.2 and Fig. 2: users leave rank k for the
elements it points at, then move from element to element; ``P(k ~> x)`` is the probability
that a user who consults rank k reaches x at all, "taking into account all the physical steps
taken by the user". With the transitions recorded as a table, a user's walk is a Markov chain
whose first step is from rank k (``P(k -> u)``) and whose later steps follow ``T(u -> v)``
(a row summing to less than 1 stops there with the rest), so

    P(k ~> x) = h_x(k),  h_x(u) = T(u -> x) + sum_{v != x} T(u -> v) h_x(v),

the probability of ever hitting x (Norris, Markov Chains, 1997, theorem 1.3.2). For every x at
once it is read from the fundamental matrix ``G = (I - T)^{-1}`` (expected visits):
``h_x(u) = G[u, x] / G[x, x]`` for u != x, ``h_x(x) = 1``. On Fig. 2 (from x: 50 % to y,
30 % to z; from y 80 % on to z; from z 12 % on to y) it gives the paper's
P(k ~> y) = 0.5 + 0.3 x 0.12 = 0.536 and P(k ~> z) = 0.3 + 0.5 x 0.8 = 0.7.

Hand-written rather than a Markov-chain library: one matrix inverse per context, which numpy
does; the libraries (e.g. ``pydtmc``) add a dependency for the same line.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def hitting_probabilities(transitions: np.ndarray) -> np.ndarray:
    """``H[u, x]``: probability that a walk from element u ever reaches x (``H[x, x] = 1``).

    ``transitions[u, v] = T(u -> v)``, rows summing to at most 1 (the rest: the user stops);
    a chain from which every walk stops (row sums below 1 on every closed class), so that
    ``I - T`` is invertible. Raises ValueError otherwise.
    """
    transitions = np.asarray(transitions, dtype=float)
    n = len(transitions)
    try:
        visits = np.linalg.inv(np.eye(n) - transitions)
    except np.linalg.LinAlgError:
        raise ValueError("the transitions never let the user stop (a closed loop of "
                         "probability 1)") from None
    hits = visits / np.diag(visits)[None, :]
    np.fill_diagonal(hits, 1.0)
    return np.clip(hits, 0.0, 1.0)


def composed_navigation(first_steps: np.ndarray, transitions: np.ndarray) -> np.ndarray:
    """``P(k ~> x)`` for ranks k (rows) and elements x (columns).

    first_steps[k, u] = P(k -> u), the share of users of rank k whose first step goes to u
    (each user takes one first step: a row sums to at most 1); transitions: between elements
    (``hitting_probabilities``). A user reaches x from rank k by a first step to some u and a
    walk from u that reaches x; the first steps being exclusive events, the probabilities add:
    ``P(k ~> x) = sum_u P(k -> u) H[u, x]``.
    """
    return np.clip(np.asarray(first_steps, dtype=float) @ hitting_probabilities(transitions),
                   0.0, 1.0)


def composed_table(navigation: pd.DataFrame, transitions: pd.DataFrame) -> pd.DataFrame:
    """A navigation table (``topic, rank, element, probability``, extra key columns kept) with
    ``P(k ~> x)`` composed, in every topic that has ``transitions`` (``topic, source, element,
    probability``), from its rows read as first steps; other topics as they are. Zero
    probabilities are left out. One small matrix inverse per topic (a topic's context)."""
    if transitions.empty or navigation.empty:
        return navigation
    keys = [c for c in navigation.columns if c not in ("topic", "rank", "element", "probability")]
    composed = navigation["topic"].isin(transitions["topic"])
    frames = [navigation[~composed]]
    for (topic, *key), first in navigation[composed].groupby(["topic", *keys], sort=False):
        steps = transitions[transitions["topic"] == topic]
        names = pd.Index(pd.unique(pd.concat([first["element"], steps["source"],
                                              steps["element"]])))
        ranks, rank_code = np.unique(first["rank"].to_numpy(), return_inverse=True)
        first_steps = np.zeros((len(ranks), len(names)))
        first_steps[rank_code, names.get_indexer(first["element"])] = first["probability"]
        moves = np.zeros((len(names), len(names)))
        moves[names.get_indexer(steps["source"]), names.get_indexer(steps["element"])] = \
            steps["probability"].to_numpy()
        reach = composed_navigation(first_steps, moves)
        k, x = np.nonzero(reach > 0)
        frame = pd.DataFrame({"topic": topic, "rank": ranks[k], "element": names[x],
                              "probability": reach[k, x]})
        frames.append(frame.assign(**dict(zip(keys, key))))
    return pd.concat(frames, ignore_index=True)[list(navigation.columns)]
