"""Evaluation in batches of runs: bounded memory (``--memory-budget``) and many machines
(``--scheduler``, Dask distributed).

The evaluators score each run on its own (a run's scores never depend on another run), so the
accepted runs can be cut into batches, each batch evaluated by the kind's own ``evaluate``, and
the per-topic score tables put back together in the order the one-shot evaluation gives. Only
those tables (and, for the site, the kind's extras) are kept from a batch; the intermediate
tables of the evaluation (judged rankings, gains, cumulated sums), several times the size of
the runs, exist for one batch at a time.

With a scheduler, each batch is sent to a worker of the Dask cluster, which evaluates it and
returns its tables; everything after evaluation runs here, as for a local evaluation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from builder.scores import SUMMARY_TOPIC, Evaluation, LazyTables, RunRead, page_tables

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

EVALUATION_FACTOR = 6
"""Peak memory of an evaluation per byte of its run tables (measured on robust03 and
TREC-COVID round 1: the judged rankings, gains and cumulated sums of the adhoc kernels)."""

TRIM_EVERY = 32
"""Batches merged between two returns of freed memory to the system (``give_back``)."""

CONNECT_SECONDS = 20
"""How long to wait for the scheduler before giving up."""

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(text: str) -> int:
    """``2G``, ``512M``, ``100000`` (bytes) -> bytes; ValueError with the reason otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", str(text), re.IGNORECASE)
    if match is None:
        raise ValueError(f"memory budget {text!r}: expected a size such as 2G, 512M or 100000")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def run_bytes(read: RunRead) -> int:
    """Memory of a read run's table (its columns, deep)."""
    return int(read.table.memory_usage(deep=True).sum()) if read.table is not None else 0


def group_by_cost(items: list, costs: list[int], budget: int) -> list[list]:
    """Consecutive items whose costs fit ``budget`` (at least one item a group, and two in the
    first, from which ``merge`` reads the evaluator's row order)."""
    out: list[list] = []
    used = 0
    for item, cost in zip(items, costs):
        if out and (used + cost <= budget or len(out) == 1 and len(out[0]) == 1):
            out[-1].append(item)
            used += cost
        else:
            out.append([item])
            used = cost
    return out


def batches(reads: Sequence[RunRead], budget: int | None) -> list[list[RunRead]]:
    """Consecutive runs whose evaluation fits ``budget`` bytes; one batch of all of them when
    there is no budget."""
    if budget is None:
        return [list(reads)] if reads else []
    return group_by_cost(list(reads), [run_bytes(r) * EVALUATION_FACTOR for r in reads], budget)


def even_batches(reads: Sequence[RunRead], count: int) -> list[list[RunRead]]:
    """At least ``count`` batches of about equal size when there are more runs (the first
    holding two): one for each worker of a cluster, when no budget sets their size."""
    sizes = [max(1, run_bytes(read)) for read in reads]
    if count <= 1 or len(reads) <= 1:
        return [list(reads)] if reads else []
    return group_by_cost(list(reads), sizes, -(-sum(sizes) // count))


def evaluate_batch(kind: Any, qrels: Any, tables: list[pd.DataFrame], options: Any,
                    extras: bool) -> tuple[Evaluation, dict[str, Any]]:
    """One batch: the kind's evaluation of its runs, the extras the pages read made now
    (``extras``; the others, such as ad hoc's precision and recall at every rank, a row per
    line, never) or none, so that nothing of the batch's intermediate tables outlives it; the
    score table's text columns as categorical codes (``compact``), with their dtypes to
    restore."""
    import pandas as pd

    evaluation = kind.evaluate(qrels, pd.concat(tables, ignore_index=True), options)
    made = {name: evaluation.extras[name] for name in page_tables(evaluation.extras)} \
        if extras else {}
    scores, dtypes = compact(evaluation.scores)
    return Evaluation(scores, made), dtypes


def compact(scores: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The score table with its text columns as categorical (a few bytes a row instead of a
    string each), and the dtypes they had."""
    text = [c for c in scores.columns if c != "value"]
    dtypes = {c: scores[c].dtype for c in text}
    return scores.astype({c: "category" for c in text}), dtypes


def evaluate_batches(kind: Any, qrels: Any, reads: Sequence[RunRead], options: Any,
                     budget: int | None = None, scheduler: str | None = None,
                     extras: bool = True) -> Evaluation:
    """The evaluation of ``reads`` (accepted runs), batch by batch, locally or on the Dask
    cluster at ``scheduler`` (without a budget: a batch per worker at least); identical to
    ``kind.evaluate`` on all of them at once."""
    def groups(workers: int) -> Iterator[list[pd.DataFrame]]:
        chosen = batches(reads, budget) if budget is not None or scheduler is None \
            else even_batches(reads, workers)
        return ([read.table for read in group] for group in chosen)

    return merge(list(evaluations(kind, qrels, groups, options, scheduler, extras)), extras)


def evaluations(kind: Any, qrels: Any, groups: Callable[[int], Iterator[list[pd.DataFrame]]],
                options: Any, scheduler: str | None, extras: bool
                ) -> Iterator[tuple[Evaluation, dict[str, Any]]]:
    """Each group of run tables evaluated, in order: here, one group at a time, or by the
    workers of the Dask cluster at ``scheduler``. ``groups(workers)`` makes the groups as
    they are asked for (so that they may be read only then)."""
    if scheduler is None:
        for group in groups(1):
            # A group already evaluated (a run by topic ranges, ``builder.topic_parts``).
            yield group if isinstance(group, tuple) else \
                evaluate_batch(kind, qrels, group, options, extras)
        return
    yield from _on_cluster(scheduler, kind, qrels, groups, options, extras)


class SchedulerError(Exception):
    """The Dask scheduler cannot be reached (the message names its address)."""


def _on_cluster(scheduler: str, kind: Any, qrels: Any,
                groups: Callable[[int], Iterator[list[pd.DataFrame]]], options: Any,
                extras: bool) -> Iterator[tuple[Evaluation, dict[str, Any]]]:
    """Each group evaluated by a worker of the cluster at ``scheduler``, in order; at most one
    group per worker, and one more, in flight, so that the groups are made no faster than the
    workers take them."""
    from collections import deque

    client_class = dask_client()
    try:
        client = client_class(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    with client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        shared = client.scatter(qrels, broadcast=True)
        flying: deque = deque()
        for group in groups(workers):
            tables = client.scatter(list(group))
            flying.append((client.submit(evaluate_batch, kind, shared, tables, options, extras,
                                         pure=False), tables))
            if len(flying) > workers:
                yield _collect(*flying.popleft())
        while flying:
            yield _collect(*flying.popleft())


def _collect(future: Any, inputs: list[Any]) -> Any:
    """The result of ``future``, then the cluster's copies of it and its ``inputs`` let go."""
    result = future.result()
    for done in [future, *inputs]:
        done.release()
    return result


def dask_client() -> Callable[..., Any]:
    """``dask.distributed.Client``, imported only when a scheduler is asked for."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask distributed: pip install "
                         "'appendix[distributed]'") from None
    return Client


def merge(parts: list[tuple[Evaluation, dict[str, Any]]], text: bool = True) -> Evaluation:
    """The batches' evaluations as one: score rows in the one-shot order and dtypes (``text``;
    else run, topic and measure stay categorical, a third of the memory, for a caller that
    only prints them), extras concatenated. ``parts`` is emptied as it is read: each batch's
    score table is written into the merged columns and let go, so the merge holds about one
    table's worth of rows, not two or three.

    An evaluator orders its rows either run by run (then the batches' tables follow each other)
    or measure by measure, each measure's per-topic rows before its summary rows; the first
    batch (two runs or more) tells which, and each row goes where a stable sort on that key
    would put it (``_destinations``)."""
    import numpy as np
    import pandas as pd

    first, dtypes = parts[0]
    tables = [part.scores for part, _ in parts]
    extras = [part.extras for part, _ in parts]
    parts.clear()
    categories = {name: pd.Index(list(dict.fromkeys(c for t in tables
                                                    for c in t[name].cat.categories)))
                  for name in dtypes}
    key = _order_key(tables) if len(tables) > 1 else None
    where = _destinations(tables, key)
    size = sum(len(table) for table in tables)
    columns = {name: np.empty(size, _code_type(len(categories[name])) if name in dtypes
                              else tables[0][name].dtype)
               for name in tables[0].columns}
    for number, at in enumerate(where):
        table = tables[number]
        for name, column in columns.items():
            if name in dtypes:
                recode = categories[name].get_indexer(table[name].cat.categories)
                column[at] = recode[table[name].cat.codes.to_numpy()]
            else:
                column[at] = table[name].to_numpy()
        tables[number] = None  # its rows are in the merged columns now
        if number % TRIM_EVERY == TRIM_EVERY - 1:
            give_back()  # else the tables' freed memory stays resident beside the merged one
    scores = pd.DataFrame({name: pd.Categorical.from_codes(
        column, dtype=pd.CategoricalDtype(categories[name]), validate=False)
        if name in dtypes else column for name, column in columns.items()}, copy=False)
    if text:
        scores = scores.astype(dtypes)
    if len(extras) == 1:
        return Evaluation(scores, extras[0])
    made = LazyTables({name: (lambda name=name: _concat([e[name] for e in extras]))
                       for name in first.extras})
    return Evaluation(scores, made)


def _code_type(count: int):
    """The smallest signed integer type holding codes of ``count`` categories."""
    import numpy as np

    return next(t for t in (np.int8, np.int16, np.int32) if count < np.iinfo(t).max) \
        if count < 2**31 - 1 else np.int64


def _order_key(tables: list[pd.DataFrame]) -> Callable[[pd.DataFrame], np.ndarray] | None:
    """The sort key of measure-major tables (measure rank, then summary after per-topic), or
    of measure rank alone, measures ranked in order of first appearance; None for run-major
    tables (already in order once concatenated). The first table tells which."""
    import numpy as np
    import pandas as pd

    ranks = {m: i for i, m in enumerate(dict.fromkeys(
        m for table in tables for m in pd.unique(table["measure"])))}
    first = tables[0]
    for with_summary in (True, False):
        def key(table: pd.DataFrame, with_summary: bool = with_summary) -> np.ndarray:
            rank = _coded(table["measure"], ranks) * 2
            if with_summary:
                rank += (table["topic"] == SUMMARY_TOPIC).to_numpy(np.int64)
            return rank
        if (np.diff(key(first)) >= 0).all() and first["measure"].nunique() > 1:
            return key
    return None


def _destinations(tables: list[pd.DataFrame], key: Callable[[pd.DataFrame], np.ndarray] | None
                  ) -> Iterator[np.ndarray]:
    """Where each table's rows go in the merged table, table by table: one after the other, or
    where a stable sort of the concatenated tables on ``key`` puts them (a key's rows of
    each table after those of the tables before, in their own order), each table's key
    computed when its turn comes."""
    import numpy as np

    if key is None:
        starts = np.cumsum([0, *(len(table) for table in tables)])
        yield from (np.arange(starts[i], starts[i + 1]) for i in range(len(tables)))
        return
    import numpy as np

    counts = [np.bincount(key(table)) for table in tables]
    width = max(len(c) for c in counts)
    counts = np.stack([np.pad(c, (0, width - len(c))) for c in counts])
    before = np.cumsum(counts, axis=0) - counts  # rows of each key in the tables before
    offsets = np.cumsum(counts.sum(axis=0)) - counts.sum(axis=0)  # first row of each key
    for number, table in enumerate(tables):
        keys = key(table)
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        within = np.arange(len(keys)) - np.searchsorted(sorted_keys, sorted_keys, side="left")
        at = np.empty(len(keys), np.int64)
        at[order] = offsets[sorted_keys] + before[number, sorted_keys] + within
        yield at


def _coded(column: pd.Series, codes: dict[str, int]) -> np.ndarray:
    """``codes`` of each value of ``column`` (through its categories when categorical)."""
    import numpy as np
    import pandas as pd

    if isinstance(column.dtype, pd.CategoricalDtype):
        lookup = np.array([codes.get(c, -1) for c in column.cat.categories], np.int64)
        return lookup[column.cat.codes.to_numpy()]
    return column.map(codes).to_numpy(np.int64)


def _concat(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """Extras of several batches: rows one after the other; an index of run names is kept; a
    categorical column takes the union of the batches' categories (sorted when each batch's
    are, as the one-shot evaluation's then are)."""
    import pandas as pd

    ranged = all(isinstance(t.index, pd.RangeIndex) for t in tables)
    first = tables[0]
    categorical = [c for c in first.columns if isinstance(first[c].dtype, pd.CategoricalDtype)]
    if categorical:
        tables = [t.copy() for t in tables]
        for column in categorical:
            parts = [t[column].cat.categories for t in tables]
            union = pd.Index(pd.unique(pd.Series([c for p in parts for c in p], dtype=object)))
            if all(p.is_monotonic_increasing for p in parts):
                union = union.sort_values()
            dtype = pd.CategoricalDtype(union, ordered=first[column].cat.ordered)
            for t in tables:
                t[column] = t[column].cat.set_categories(dtype.categories).astype(dtype)
    return pd.concat(tables, ignore_index=ranged)


def give_back() -> None:
    """Free memory returned to the system (glibc's ``malloc_trim``): a batch's arrays, once
    freed, would otherwise stay in the heap, fragmented, and the resident set creep up batch
    after batch."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None (another C library: its own allocator's business)."""
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
