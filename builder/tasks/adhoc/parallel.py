"""The ad hoc evaluation on several cores: the run x topic grid cut into parts (groups of runs,
or ranges of topics when there are fewer runs than threads), each part judged and scored on
its own thread, the parts' per-topic values put back on the whole grid.

Exact by construction: every per-topic value of a cell (run, topic) is computed from that
cell's rows and its topic's qrels alone (``builder.measures.running_sums`` sums each ranking
on its own, ``np.bincount`` adds each cell's terms in row order), so a cell scored in a part
has the same bits as in the one-shot evaluation. The joined grid is the one-shot grid (runs in
their order of appearance, topics the qrels' in string order), and the summary rows (topic
``all``) are computed from it once, by the same code as without parts
(``builder.tasks.adhoc.evaluate``). The joined ``JudgedRanking``, which the pages' extra tables
read, is made only when one of them is asked for.

numpy and Arrow release the GIL in their kernels (sorts, gathers, ``bincount``, hashing), so
two threads use two cores; parts are made only when the runs hold enough lines to gain.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from builder.measures.adhoc import scores as measures
from builder.measures.adhoc.judged.ranking import (
    JudgedRanking,
    judge_rankings,
    judged_only,
    run_order,
)
from builder.measures.adhoc.trec_eval.profiles import profile_of

if TYPE_CHECKING:
    from builder.tasks.options.adhoc import AdhocOptions

EVALUATE_THREADS = 2
"""Parts scored at once (the machine's cores the evaluation may use)."""

LINES_PER_PART = 200_000
"""Fewest run lines worth a part of their own: below, a thread costs more than it saves."""


@dataclass
class CellScores:
    """Per-topic values of a run x topic grid (``values[name][run * len(topics) + topic]``),
    which cells had retrieved documents before ``-J`` (``present``), and the judged rankings
    they were computed from (one per part; joined on demand, ``judged``)."""

    runs: list[str]
    topics: list[str]
    values: dict[str, np.ndarray]
    present: np.ndarray
    positive_judgements: int
    """Qrels lines of relevance > 0 over every topic (trec_eval's ``num_rel`` summary under -c)."""
    parts: list[JudgedRanking | CellScores]
    """The parts' judged rankings (or a part's own parts, joined when needed)."""
    by: str = "runs"
    """How ``parts`` divide the grid: ``runs`` (consecutive groups) or ``topics`` (ranges)."""

    @cached_property
    def judged(self) -> JudgedRanking:
        """The judged rankings of the whole grid, row for row the one-shot evaluation's."""
        parts = [p.judged if isinstance(p, CellScores) else p for p in self.parts]
        if len(parts) == 1:
            return replace(parts[0], runs=self.runs)
        return _join_judged(self, parts)


def score_cells(qrels: pd.DataFrame, runs: pd.DataFrame, options: AdhocOptions,
                only: Collection[str] | None = None, *, topics: Sequence[str] | None = None,
                run_names: Sequence[str] | None = None) -> CellScores:
    """Judge and score ``runs`` on one thread: every run (``run_names``, default those of
    ``runs`` in order) x the qrels' topics (or only ``topics``, a subset of them: a part of a
    topic range, whose other topics' lines ``runs`` may still hold, ignored)."""
    part_qrels = qrels if topics is None else qrels[qrels["topic"].isin(list(topics))]
    if profile_of(options.profile).single_precision:
        runs = runs.assign(score=runs["score"].to_numpy(np.float64).astype(np.float32))
    # -M 0: trec_eval evaluates every ranking emptied, so presence is seen at depth 1.
    judged = judge_rankings(runs, part_qrels, depth=max(options.depth, 1),
                            rel_level=options.rel_level,
                            run_names=None if run_names is None else list(run_names))
    present = judged.per_cell() > 0  # before -J, which may empty a ranking trec_eval still scores
    if options.depth == 0:
        judged = judged_only(judged, keep=np.zeros(len(judged.cell), bool))
    if options.judged_only:
        judged = judged_only(judged)
    values = measures.compute(
        judged,
        rel_level=options.rel_level,
        interpolation=options.interpolation,
        params=options.measure_params,
        collection_size=options.collection_size,
        only=only,
    )
    return CellScores(judged.runs, judged.topics, values, present,
                      int((qrels["rel"].to_numpy() > 0).sum()), [judged])


def score_cells_parallel(qrels: pd.DataFrame, runs: pd.DataFrame, options: AdhocOptions,
                         only: Collection[str] | None = None,
                         threads: int | None = None) -> CellScores:
    """``score_cells`` of all ``runs`` at once, computed in parts on ``threads`` threads:
    groups of consecutive runs, or, for fewer runs than threads (one huge run), ranges of
    topics (default ``EVALUATE_THREADS``). Identical, bit for bit, to ``score_cells`` in
    one part."""
    count = min(threads or EVALUATE_THREADS, len(runs) // LINES_PER_PART)
    names = run_order(runs["run"])
    if count < 2:
        return score_cells(qrels, runs, options, only)
    if len(names) >= count:
        parts = [runs.iloc[a:b] for a, b in _run_groups(runs["run"], count)]
        with ThreadPoolExecutor(len(parts)) as pool:
            done = list(pool.map(lambda part: score_cells(qrels, part, options, only), parts))
        return join_cells(done, by="runs")
    ranges = topic_ranges(qrels, runs, count)
    tables = [_rows_of_topics(runs, part) for part in ranges]
    with ThreadPoolExecutor(len(ranges)) as pool:
        done = list(pool.map(
            lambda table, part: score_cells(qrels, table, options, only, topics=part,
                                            run_names=names), tables, ranges))
    return join_cells(done, by="topics")


def join_cells(parts: list[CellScores], by: str) -> CellScores:
    """The parts' grids as one: ``by="runs"``, parts of the same topics and consecutive
    groups of runs; ``by="topics"``, parts of the same runs and ranges of topics (any order
    of ranges: the joined topics are sorted as the qrels' are)."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    if by == "runs":
        if any(part.topics != first.topics for part in parts):
            raise ValueError("parts by runs must share their topics")
        values = {name: np.concatenate([part.values[name] for part in parts])
                  for name in first.values}
        present = np.concatenate([part.present for part in parts])
        runs = [run for part in parts for run in part.runs]
        return CellScores(runs, first.topics, values, present, first.positive_judgements,
                          [j for part in parts for j in _run_parts(part)], by)
    if any(part.runs != first.runs for part in parts):
        raise ValueError("parts by topics must share their runs")
    topics = sorted(t for part in parts for t in part.topics)
    if len(set(topics)) != len(topics):
        raise ValueError("parts by topics must not share a topic")
    where = {topic: i for i, topic in enumerate(topics)}
    columns = [[where[t] for t in part.topics] for part in parts]  # once, not per measure
    n_runs = len(first.runs)

    def grid(arrays: list[np.ndarray]) -> np.ndarray:
        out = np.empty((n_runs, len(topics)), dtype=arrays[0].dtype)
        for part_columns, array in zip(columns, arrays):
            out[:, part_columns] = array.reshape(n_runs, len(part_columns))
        return out.ravel()

    values = {name: grid([part.values[name] for part in parts]) for name in first.values}
    return CellScores(first.runs, topics, values, grid([part.present for part in parts]),
                      first.positive_judgements, [j for part in parts for j in part.parts], by)


def _run_parts(cells: CellScores) -> list[JudgedRanking | CellScores]:
    """A part's judged rankings as groups of runs: its own parts when they are, else itself."""
    return list(cells.parts) if cells.by == "runs" else [cells]


def _run_groups(run: pd.Series, count: int) -> list[tuple[int, int]]:
    """Row ranges of ``count`` groups of consecutive runs with about equal lines (each run's
    lines contiguous, as the concatenated run tables hold them), else one range."""
    codes = run.cat.codes.to_numpy() if isinstance(run.dtype, pd.CategoricalDtype) \
        else pd.factorize(run)[0]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    if len(starts) != len(np.unique(codes)):
        return [(0, len(codes))]  # a run's lines in several stretches: no cut
    wanted = np.arange(1, count) * len(codes) / count
    cuts = np.unique(starts[np.clip(np.searchsorted(starts, wanted), 1, len(starts) - 1)])
    edges = [0, *cuts.tolist(), len(codes)]
    return [(a, b) for a, b in pairwise(edges) if b > a]


def topic_ranges(qrels: pd.DataFrame, runs: pd.DataFrame, count: int) -> list[list[str]]:
    """The qrels' topics cut into at most ``count`` ranges holding about equal numbers of run
    lines, in the order the lines first hold them (the others last): a run written a topic at
    a time gives each range one stretch of lines, a slice rather than a copy of its rows (a
    10M-line run: a peak of 2.2 GB, 1.8 GB so)."""
    topics = _topics_in_line_order(runs["topic"], set(pd.unique(qrels["topic"])))
    counts = runs["topic"].value_counts(sort=False)
    lines = counts.set_axis(counts.index.astype(str)).reindex(topics, fill_value=0).to_numpy()
    total = np.cumsum(lines)
    cuts = np.searchsorted(total, np.arange(1, count) * total[-1] / count) + 1 if len(total) \
        else np.zeros(0, int)
    edges = [0, *sorted(set(np.clip(cuts, 1, len(topics) - 1).tolist())), len(topics)]
    return [topics[a:b] for a, b in pairwise(edges) if b > a]


def _topics_in_line_order(topic: pd.Series, judged: set[str]) -> list[str]:
    """The ``judged`` topics in the order of their first line in ``topic`` (found from the
    stretches of equal values, not line by line), then those without lines, sorted."""
    if isinstance(topic.dtype, pd.CategoricalDtype):
        codes = topic.cat.codes.to_numpy()
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else []
        first = pd.unique(codes[starts])
        order = [str(t) for t in topic.cat.categories[first[first >= 0]]]  # one lookup
    else:
        order = [str(value) for value in pd.unique(topic)]
    seen = [t for t in order if t in judged]
    return seen + sorted(judged - set(seen))


def _rows_of_topics(runs: pd.DataFrame, topics: list[str]) -> pd.DataFrame:
    """The lines of ``runs`` for ``topics``: a slice when they are one stretch of rows (found
    from the mask's ends and count, without listing its rows: a 10M-line run's range was
    0.1 s of listing, and the list 40 MB)."""
    topic = runs["topic"]
    if isinstance(topic.dtype, pd.CategoricalDtype):  # looked up once per category
        wanted = np.append(topic.cat.categories.isin(topics), False)  # code -1: no value
        mask = wanted[topic.cat.codes.to_numpy()]
    else:
        mask = topic.isin(topics).to_numpy()
    count = int(np.count_nonzero(mask))
    if count:
        first, last = int(mask.argmax()), len(mask) - int(mask[::-1].argmax())
        if last - first == count:
            return runs.iloc[first:last]
    return runs.take(np.flatnonzero(mask))


def _join_judged(cells: CellScores, parts: list[JudgedRanking]) -> JudgedRanking:
    """The parts' judged rankings as the one-shot evaluation's: rows in cell order on the
    whole grid, the qrels' counts per topic of the whole grid."""
    n_topics = len(cells.topics)
    where = {topic: i for i, topic in enumerate(cells.topics)}
    cell, run_offset = [], 0
    for part in parts:
        topic_code = np.array([where[t] for t in part.topics], dtype=np.int64)
        part_topics = max(len(part.topics), 1)
        run = part.cell // part_topics + (run_offset if cells.by == "runs" else 0)
        cell.append(run * n_topics + topic_code[part.cell % part_topics])
        run_offset += len(part.runs)
    joined = np.concatenate(cell).astype(parts[0].cell.dtype)
    order = np.argsort(joined, kind="stable")  # each part is in cell order: a merge

    def rows(field: str) -> np.ndarray | None:
        arrays = [getattr(part, field) for part in parts]
        return None if any(a is None for a in arrays) else np.concatenate(arrays)[order]

    topic_of = np.concatenate([[where[t] for t in part.topics] for part in parts])
    by_topic = np.argsort(topic_of, kind="stable")
    ideal = [np.split(part.ideal_gains, part.ideal_start[1:-1]) for part in parts]
    flat_ideal = [gains for part in ideal for gains in part]
    ideal_gains = [flat_ideal[i] for i in by_topic] if cells.by == "topics" else ideal[0]
    sizes = [len(g) for g in ideal_gains]
    first = parts[0]
    counts = (lambda field: np.concatenate([getattr(p, field) for p in parts])[by_topic]) \
        if cells.by == "topics" else (lambda field: getattr(first, field))
    return replace(
        first, runs=cells.runs, topics=cells.topics, cell=joined[order], rank=rows("rank"),
        rel=rows("rel"), row=None, tied=rows("tied"), num_rel=counts("num_rel"),
        num_nonrel=counts("num_nonrel"),
        ideal_gains=np.concatenate(ideal_gains) if sizes else first.ideal_gains,
        ideal_start=np.r_[0, np.cumsum(sizes)].astype(first.ideal_start.dtype),
    )
