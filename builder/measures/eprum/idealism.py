"""EPRUM for one topic with graded idealism: the satisfaction levels of section 3.1.

Piwowarski and Dupret (SIGIR 2006), section 3.1: ``P(x in I)`` is the share of users who regard
x as ideal. A user's satisfaction level S is uniform on [0, 1] and his ideal set is
``I_s = {x : P(x in I) >= s}``. With the distinct idealism values v_1 > ... > v_m > 0 (and
v_{m+1} = 0), I_s is constant on each slice (v_{j+1}, v_j], of width ``w_j = v_j - v_{j+1}``:
EPRUM is computed for each slice's ideal set (``builder.measures.eprum.precision_recall``) and integrated over s.

Users with s > v_1 have no ideal element, so (as trec_eval leaves out topics without relevant
documents) the integral is divided by the measure of the levels that do have one:

- precision at level l: ``sum_j w_j P_j(l) / sum_j w_j``;
- precision at the natural recall point r: over the slices whose ideal set holds at least r
  elements, ``sum_{j: t_j >= r} w_j P_j(r) / sum_{j: t_j >= r} w_j`` (likewise ``E[ML*_r]``);
- precision at a rank cut-off: ``sum_j w_j P_j@k / sum_j w_j``, as the levels;
- the EPRUM average: ``sum_j w_j avg_j / sum_j w_j``, ``avg_j`` the mean of P_j(r) over
  r = 1..t_j. Classical (binary) idealism has one slice, and then the average is trec_eval's
  average precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.measures.eprum.ideal_lists import ideal_search_length
from builder.measures.eprum.precision_recall import (
    DEFAULT_EXACT_LIMIT,
    RANK_CUTOFFS,
    STANDARD_LEVELS,
    precision_at_cutoffs,
    precision_at_levels,
    precision_at_recall,
)


@dataclass(frozen=True)
class TopicEprum:
    """EPRUM of one list for one topic.

    natural[r-1]: precision at recall r = 1..t (t: elements with idealism above 0);
    ideal_length[r-1]: E[ML*_r]; levels[i]: precision at ``level_points[i]`` (hundredths);
    average: the EPRUM average over the natural recall points; cutoffs[i]: precision at rank
    ``cutoff_points[i]`` (section 8, ``precision_at_cutoffs``).
    """

    natural: np.ndarray
    ideal_length: np.ndarray
    level_points: tuple[int, ...]
    levels: np.ndarray
    average: float
    cutoffs: np.ndarray | None = None
    cutoff_points: tuple[int, ...] = ()


def satisfaction_slices(idealism: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """(width w_j, mask of the ideal set I_j) per slice, most demanding first."""
    values = np.unique(idealism[idealism > 0])[::-1]
    widths = values - np.append(values[1:], 0.0)
    return [(float(w), idealism >= v) for v, w in zip(values, widths)]


def evaluate_topic(
    navigation: np.ndarray,
    idealism: np.ndarray | None = None,
    ideal_navigation: np.ndarray | None = None,
    ideal_points: np.ndarray | None = None,
    levels: tuple[int, ...] = STANDARD_LEVELS,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    ideal_lists: str = "per_recall",
    ideal_cache: dict[int, np.ndarray] | None = None,
) -> TopicEprum | None:
    """EPRUM of one list, integrated over satisfaction levels; ``None`` without ideal element.

    navigation: ``P(k ~> x)``, ranks by candidate ideal elements; idealism: ``P(x in I)`` per
    column (default 1). ideal_navigation: the ideal list's rows (``None``: E[ML*_r] = r);
    ideal_points: the column each ideal-list rank points at (-1: none), so that a slice keeps
    only the ideal list's ranks that point into its ideal set (``None``: every rank is kept).
    ideal_lists: "per_recall", E[ML*_r] the minimum over the orders of the ideal list's ranks
    for each r (section 5, ``builder.measures.eprum.ideal_lists``), or "one", the ideal list
    as given for every r. ideal_cache: E[ML*_r] per slice, kept between the lists of one
    topic (the ideal list is the topic's, whichever list is evaluated).
    """
    navigation = np.asarray(navigation, dtype=float)
    if idealism is None:
        idealism = np.ones(navigation.shape[1])
    slices = satisfaction_slices(np.asarray(idealism, dtype=float))
    if not slices:
        return None
    size = int(slices[-1][1].sum())
    natural = np.zeros(size)
    ideal_length = np.zeros(size)
    reached = np.zeros(size)
    level_sum = np.zeros(len(levels))
    cutoff_sum = np.zeros(len(RANK_CUTOFFS))
    average = 0.0
    cache = {} if ideal_cache is None else ideal_cache
    for index, (width, members) in enumerate(slices):
        ideal_rows = None
        if ideal_navigation is not None:
            keep = slice(None)
            if ideal_points is not None:  # -1: a rank pointing at no candidate, kept
                keep = (ideal_points < 0) | members[np.maximum(ideal_points, 0)]
            ideal_rows = ideal_navigation[keep][:, members]
        length = None
        if ideal_rows is not None:
            if index not in cache:
                cache[index] = ideal_search_length(ideal_rows, int(members.sum()),
                                                   ideal_lists == "per_recall", exact_limit)
            length = cache[index]
        precision, length = precision_at_recall(navigation[:, members], ideal_rows, exact_limit,
                                                length)
        t = len(precision)
        natural[:t] += width * precision
        ideal_length[:t] += width * length
        reached[:t] += width
        level_sum += width * precision_at_levels(precision, levels)
        cutoff_sum += width * precision_at_cutoffs(navigation[:, members])
        average += width * precision.mean()
    total = sum(width for width, _ in slices)
    return TopicEprum(
        natural=natural / reached,
        ideal_length=ideal_length / reached,
        level_points=tuple(levels),
        levels=level_sum / total,
        average=average / total,
        cutoffs=cutoff_sum / total,
        cutoff_points=RANK_CUTOFFS,
    )
