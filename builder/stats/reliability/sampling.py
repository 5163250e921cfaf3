"""Random samples of relevant units and of topics, all iterations at once.

Pool sampling (Pal, Mitra and Chakraborty, "Stability of INEX 2007 evaluation measures",
2008, after Buckley and Voorhees 2004): in every topic with at least ``min_units`` relevant
units, keep a simple random sample without replacement (SRSWOR) of round(p x units) of them;
the others count as non-relevant; smaller topics keep all theirs. Topic sampling: round(p x
topics) topics without replacement. For the error rate (Buckley and Voorhees 2000): topic
samples with replacement, and partitions into disjoint topic sets of equal size.

Samples come as masks (iterations x units) or topic multiplicities (samples x topics), drawn
from the ``numpy.random.Generator`` given, so a seed fixes them.
"""

from __future__ import annotations

import numpy as np


def sample_size(level: float, population: np.ndarray | int) -> np.ndarray:
    """round(level x population), at least 1 where the population is not empty."""
    population = np.asarray(population)
    size = np.floor(level * population + 0.5).astype(np.int64)
    return np.where(population > 0, np.maximum(size, 1), 0)


def within_group_position(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Position (0-based) of each element inside its group when the group is sorted by key."""
    order = np.lexsort((key, group))
    sorted_group = group[order]
    starts = np.flatnonzero(np.r_[True, sorted_group[1:] != sorted_group[:-1]]) if len(group) else []
    sizes = np.diff(np.r_[starts, len(group)])
    position = np.empty(len(group), np.int64)
    position[order] = np.arange(len(group)) - np.repeat(starts, sizes)
    return position


def pool_sample(
    unit_topic: np.ndarray, n_topics: int, level: float, iterations: int,
    min_units: int, rng: np.random.Generator,
) -> np.ndarray:
    """Kept units (iterations x units, bool): SRSWOR of round(level x units) per topic with at
    least ``min_units`` units, all units of the other topics."""
    n_units = len(unit_topic)
    counts = np.bincount(unit_topic, minlength=n_topics)
    keep_count = np.where(counts >= min_units, sample_size(level, counts), counts)
    group = (np.arange(iterations)[:, None] * n_topics + unit_topic[None, :]).ravel()
    position = within_group_position(group, rng.random(iterations * n_units))
    return (position < np.tile(keep_count[unit_topic], iterations)).reshape(iterations, n_units)


def topic_sample(
    n_topics: int, level: float, iterations: int, rng: np.random.Generator,
    replace: bool = False,
) -> np.ndarray:
    """Topic multiplicities (iterations x topics) of samples of round(level x topics) topics,
    without replacement (0/1) or with replacement (counts)."""
    size = int(sample_size(level, n_topics))
    if replace:
        drawn = rng.integers(0, n_topics, size=(iterations, size))
        rows = np.repeat(np.arange(iterations), size)
        counts = np.zeros((iterations, n_topics), np.int64)
        np.add.at(counts, (rows, drawn.ravel()), 1)
        return counts
    return (np.argsort(rng.random((iterations, n_topics)), axis=1) < size).astype(np.int64)


def disjoint_parts(
    n_topics: int, size: int, iterations: int, rng: np.random.Generator
) -> np.ndarray:
    """Per iteration, a random partition of the topics into floor(topics / size) disjoint sets
    of ``size`` topics (the rest left out), as 0/1 matrices (iterations x parts x topics)."""
    parts = n_topics // size if size else 0
    permutation = np.argsort(rng.random((iterations, n_topics)), axis=1)
    part_of = permutation // max(size, 1)  # a random topic order cut into consecutive sets
    return (part_of[:, None, :] == np.arange(parts)[None, :, None]).astype(np.int64)
