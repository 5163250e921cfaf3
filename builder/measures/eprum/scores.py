"""EPRUM score tables: every list (run) x topic of a navigation table at once.

Piwowarski and Dupret (SIGIR 2006); the per-topic computation is
``builder.measures.eprum.idealism.evaluate_topic``. Measure names (the levels and the average
are declared in the registry below, with their source):

- ``P[r=1]``, ``P[r=2]``, ...: precision at the natural recall points r = 1..t;
- ``ML*[r=1]``, ...: the ideal list's expected search length E[ML*_r] (eq. 4);
- ``P[0.00]`` ... ``P[1.00]``: precision at the 11 standard recall levels;
- ``P@5``, ``P@10``, ``P@20``, ``P@50``: precision at rank cut-offs (section 8);
- ``avgP``: the EPRUM average over the natural recall points (average precision when the model
  is classical).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from builder.measures.eprum.idealism import TopicEprum, evaluate_topic
from builder.measures.eprum.precision_recall import (
    DEFAULT_EXACT_LIMIT,
    RANK_CUTOFFS,
    STANDARD_LEVELS,
)
from builder.measures.registry import Measure, register

FAMILY = "eprum"
AVERAGE = "avgP"
REFERENCE = (
    "B. Piwowarski and G. Dupret, Evaluation in (XML) Information Retrieval: Expected "
    "Precision-Recall with User Modelling (EPRUM), SIGIR 2006"
)


def level_name(level: int) -> str:
    """``P[0.30]`` for 30 hundredths."""
    return f"P[{level / 100:.2f}]"


LEVEL_NAMES = tuple(level_name(level) for level in STANDARD_LEVELS)
CUTOFF_NAMES = tuple(f"P@{k}" for k in RANK_CUTOFFS)
ABOVE_ONE = (
    "Can exceed 1: the paper computes E[A ML*/ML] as E[ML*] E[A/ML] (section 5), as if the "
    "users of the ideal and of the evaluated list were independent, and E[1/ML] exceeds "
    "1/E[ML] when ML varies (Jensen's inequality): the paper's own ideal list (a, b, c), a "
    "reaching both ideal elements with probability 0.9, scored against itself gives P[r=2] = "
    "1.29 x (0.81 + 0.09/2 + 0.1/3) = 1.146. appendix keeps the paper's value and flags it.")


@dataclass(frozen=True)
class IdealSet:
    """A campaign's ideal elements and, optionally, its ideal list.

    elements: ``topic, element, idealism`` (P(x in I); rows with 0 are not ideal).
    ideal_navigation: ``topic, rank, element, probability`` of the ideal list; a topic without
    rows (or ``None``) has the ideal list that points at one ideal element per rank with
    certainty (E[ML*_r] = r).
    ideal_points: ``topic, rank, element``: the element each rank of the ideal list points at
    (so that each satisfaction level keeps the ranks pointing into its ideal set), or ``None``.
    """

    elements: pd.DataFrame
    ideal_navigation: pd.DataFrame | None = None
    ideal_points: pd.DataFrame | None = None


def _codes(values: pd.Series, uniques: pd.Index) -> np.ndarray:
    """Positions of ``values`` in ``uniques`` (-1 when absent); categorical columns stay codes."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        return uniques.get_indexer(values.cat.categories)[values.cat.codes.to_numpy()]
    return uniques.get_indexer(values)


class _Rows:
    """A navigation table as arrays sorted by (topic, list, rank), sliced per (topic, list):
    integer codes and one sort for all lists, then numpy slices (no pandas per cell).

    columns: ``topic, element, column``, the ideal elements of each topic and their column.
    """

    def __init__(self, table: pd.DataFrame | None, columns: pd.DataFrame, by: list[str]) -> None:
        self.slices: dict[tuple, slice] = {}
        if table is None or table.empty:
            return
        topics = pd.Index(pd.unique(columns["topic"]))
        names = pd.Index(pd.unique(columns["element"]))
        width = len(names)
        ideal_key = _codes(columns["topic"], topics).astype(np.int64) * width + _codes(
            columns["element"], names
        )
        order = np.argsort(ideal_key)
        topic = _codes(table["topic"], topics).astype(np.int64)
        element = _codes(table["element"], names)
        key = np.where((topic < 0) | (element < 0), -1, topic * width + element)
        found = np.searchsorted(ideal_key[order], key)
        found = np.minimum(found, len(order) - 1)
        known = ideal_key[order][found] == key  # drops elements not ideal for the topic
        column = columns["column"].to_numpy(dtype=np.int64)[order][found]
        lists = np.zeros(len(table), np.int64)
        list_names: np.ndarray = np.array([None], dtype=object)
        if len(by) > 1:
            lists, list_names = pd.factorize(table[by[1]])
        rank = table["rank"].to_numpy(dtype=np.int64)
        sort = np.flatnonzero(known)
        sort = sort[np.lexsort((rank[sort], lists[sort], topic[sort]))]
        self.rank = rank[sort]
        self.column = column[sort]
        self.probability = table["probability"].to_numpy(dtype=float)[sort]
        group = topic[sort] * (len(list_names) + 1) + lists[sort]
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(sort) else sort
        ends = np.append(starts[1:], len(sort))
        topic_of = topics.to_numpy()[topic[sort][starts]]
        if len(by) > 1:
            keys = zip(topic_of, np.asarray(list_names, dtype=object)[lists[sort][starts]])
        else:
            keys = ((t,) for t in topic_of)
        self.slices = {key: slice(a, b) for key, a, b in zip(keys, starts, ends)}

    def one_certain_each(self, key: tuple, width: int, points: _Rows) -> bool:
        """True when ranks 1..width each reach, for certain, the one element they point at
        (``points``) and nothing else, each element once: the ideal list of ideal elements
        that neither overlap nor contain each other (every model gives a range itself
        with probability 1 but the distance model)."""
        where, pointed = self.slices.get(key), points.slices.get(key)
        if where is None or pointed is None or where.stop - where.start != width:
            return False
        rank, column = self.rank[where], self.column[where]
        expected = np.full(width + 1, -1)
        inside = points.rank[pointed] <= width
        expected[points.rank[pointed][inside]] = points.column[pointed][inside]
        return bool((self.probability[where] == 1.0).all()
                    and (np.sort(rank) == np.arange(1, width + 1)).all()
                    and (expected[rank] == column).all())

    def dense(self, key: tuple, width: int) -> np.ndarray | None:
        """The ranks x elements matrix of P(k ~> x); ``None`` without rows."""
        where = self.slices.get(key)
        if where is None:
            return None
        rank = self.rank[where]
        matrix = np.zeros((int(rank.max()), width))
        matrix[rank - 1, self.column[where]] = self.probability[where]
        return matrix


def topic_results(
    navigation: pd.DataFrame,
    ideal: IdealSet,
    lists: list[str],
    key: str = "run",
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    ideal_lists: str = "per_recall",
) -> dict[tuple[str, str], TopicEprum]:
    """EPRUM of every list in ``lists`` for every topic with an ideal element (``ideal_lists``:
    ``builder.measures.eprum.idealism.evaluate_topic``'s).

    navigation: ``key, topic, rank, element, probability``; rows of elements that are not
    ideal for the topic are ignored. A list without rows for a topic scores 0 there.
    Returns {(list, topic): TopicEprum}.
    """
    elements = ideal.elements[ideal.elements["idealism"] > 0].reset_index(drop=True)
    elements = elements.assign(column=elements.groupby("topic", sort=False).cumcount())
    columns = elements[["topic", "element", "column"]]
    by_list = _Rows(navigation, columns, ["topic", key])
    ideal_rows = _Rows(ideal.ideal_navigation, columns, ["topic"])
    points = _Rows(
        None if ideal.ideal_points is None else ideal.ideal_points.assign(probability=1.0),
        columns,
        ["topic"],
    )
    results: dict[tuple[str, str], TopicEprum] = {}
    for topic, members in elements.groupby("topic", sort=False):
        width = len(members)
        idealism = members["idealism"].to_numpy(dtype=float)
        if ideal_rows.one_certain_each((topic,), width, points):
            # E[ML*_r] = r whatever the order: what no ideal navigation means, without the
            # width x width matrices (thousands of highlighted passages in a topic).
            ideal_matrix = None
        else:
            ideal_matrix = ideal_rows.dense((topic,), width)
        pointed = None
        if ideal_matrix is not None and (topic,) in points.slices:
            where = points.slices[(topic,)]
            pointed = np.full(ideal_matrix.shape[0], -1)
            inside = points.rank[where] <= len(pointed)
            pointed[points.rank[where][inside] - 1] = points.column[where][inside]
        cache: dict[int, np.ndarray] = {}
        for name in lists:
            matrix = by_list.dense((topic, name), width)
            if matrix is None:
                matrix = np.zeros((1, width))
            result = evaluate_topic(
                matrix, idealism, ideal_matrix, pointed, STANDARD_LEVELS, exact_limit,
                ideal_lists, cache,
            )
            if result is not None:
                results[(name, topic)] = result
    return results


def declare_eprum_measures(family: str) -> None:
    """The measures every topic has, computed by ``topic_results`` (the natural recall points,
    whose number varies with the topic, are printed by ``appendix eprum``: ``P[r=k]``,
    ``ML*[r=k]``)."""
    for level, name in zip(STANDARD_LEVELS, LEVEL_NAMES):
        register(
            Measure(
                name,
                family,
                f"Expected precision at recall level {level / 100:.2f} under the user model: "
                f"E[ML*_r] E[A_r/ML_r] with r = ceil({level / 100:.2f} t) (at least 1), "
                "averaged over satisfaction levels.",
                f"{REFERENCE}, section 2 and eq. 4-5, 7",
                params={"recall": level / 100},
                differs=ABOVE_ONE,
                computed_by=topic_results,
            )
        )
    for k, name in zip(RANK_CUTOFFS, CUTOFF_NAMES):
        register(
            Measure(
                name,
                family,
                f"Expected precision at rank {k}: E[F_{k}] / {k}, the ideal elements the user "
                f"discovers in the first {k} ranks (trec_eval's P_{k} under the classical "
                "model), averaged over satisfaction levels.",
                f"{REFERENCE}, section 8 (formula ours: the paper leaves it out), eq. 1, 7",
                params={"rank": k},
                computed_by=topic_results,
            )
        )
    register(
        Measure(
            AVERAGE,
            family,
            "EPRUM average: mean of the expected precision at the natural recall points "
            "r = 1..t (average precision under the classical model).",
            f"{REFERENCE}, eq. 4-5 (average over recall points as in section 7)",
            differs=ABOVE_ONE,
            computed_by=topic_results,
        )
    )


declare_eprum_measures(FAMILY)


def score_rows(results: dict[tuple[str, str], TopicEprum], key: str = "run") -> pd.DataFrame:
    """The long table ``key, topic, measure, value`` of every EPRUM measure of every result."""
    keys: list[str] = []
    topics: list[str] = []
    measures: list[str] = []
    values: list[np.ndarray] = []
    for (name, topic), result in results.items():
        t = len(result.natural)
        recall = [f"[r={r}]" for r in range(1, t + 1)]
        names = [f"P{r}" for r in recall] + [f"ML*{r}" for r in recall]
        names += [level_name(level) for level in result.level_points]
        names += [f"P@{k}" for k in result.cutoff_points] + [AVERAGE]
        measures += names
        keys += [name] * len(names)
        topics += [topic] * len(names)
        cutoffs = result.cutoffs if result.cutoffs is not None else np.zeros(0)
        values.append(np.concatenate([result.natural, result.ideal_length, result.levels,
                                      cutoffs, [result.average]]))
    return pd.DataFrame(
        {
            key: pd.Series(keys, dtype=object),
            "topic": pd.Series(topics, dtype=object),
            "measure": pd.Series(measures, dtype=object),
            "value": np.concatenate(values) if values else np.zeros(0),
        }
    )


def above_one(rows: pd.DataFrame, key: str = "run") -> pd.DataFrame:
    """The precision values above 1 (``ABOVE_ONE`` says why they occur): ``key, topic,
    measure, value`` rows of ``score_rows``' precision measures (not ``ML*[r=k]``, a length).
    A value within 1e-12 of 1 is 1 rounded."""
    precision = ~rows["measure"].str.startswith("ML*")
    return rows[precision & (rows["value"] > 1 + 1e-12)].reset_index(drop=True)


SUMMARY_MEASURES = (*LEVEL_NAMES, *CUTOFF_NAMES, AVERAGE)
"""Measures every topic has, so that their mean over topics is the ``all`` row."""


def with_summary(scores: pd.DataFrame, summary_topic: str, key: str = "run") -> pd.DataFrame:
    """Add each list's mean over topics of the levels and of ``avgP`` under ``summary_topic``.

    Every list has a result for every topic with an ideal element (0 where it has no
    navigation), so the mean runs over all of them, like ``trec_eval -c``.
    """
    shared = scores[scores["measure"].isin(SUMMARY_MEASURES)]
    summary = shared.groupby([key, "measure"], sort=False)["value"].mean().reset_index()
    return pd.concat([scores, summary.assign(topic=summary_topic)], ignore_index=True)


def ordered_rows(scores: pd.DataFrame, summary_topic: str, key: str = "run") -> pd.DataFrame:
    """Rows with the summary, per list and topic (string order, summary last) in the printed
    order: natural recall points, levels, rank cut-offs, ideal search lengths, average."""
    table = with_summary(scores, summary_topic, key)
    measure = table["measure"]
    group = np.select(
        [measure.str.startswith("P[r="), measure.isin(LEVEL_NAMES), measure.isin(CUTOFF_NAMES),
         measure.str.startswith("ML*")],
        [0, 1, 2, 3],
        4,
    )
    recall = pd.to_numeric(measure.str.extract(r"\[r=(\d+)\]")[0], errors="coerce").fillna(0)
    table = table.assign(
        _last=table["topic"] == summary_topic, _group=group, _recall=recall.to_numpy()
    )
    table = table.sort_values(
        [key, "_last", "topic", "_group", "_recall"], kind="stable", ignore_index=True
    )
    return table.drop(columns=["_last", "_group", "_recall"])
