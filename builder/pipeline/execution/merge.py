"""A batch's evaluation made compact, and the batches' evaluations put back together as the
one-shot evaluation gives them: score rows in its order and dtypes, extras concatenated.

    evaluate_batch: the kind's evaluation of a batch, run, topic and measure as categorical
        codes (``compact``), only the extras the pages read
    merge: the batches' score rows written where the one-shot order puts them, the codes
        turned back into the dtypes they had

Every strategy that cuts an evaluation into batches (of runs, of a run's topics) speaks this
pair, here or on a worker of a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from builder.contract import SUMMARY_TOPIC, Evaluation, LazyTables, page_tables
from builder.pipeline.execution.memory import give_back

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

CompactEvaluation = tuple[Evaluation, dict[str, Any]]
"""A batch's evaluation as ``evaluate_batch`` makes it: its score table's text columns as
categorical codes, and the dtypes they had."""

TRIM_EVERY = 32
"""Batches merged between two returns of freed memory to the system (``give_back``)."""


def evaluate_batch(kind: Any, qrels: Any, tables: list[pd.DataFrame], options: Any,
                   extras: bool) -> CompactEvaluation:
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


def merge(parts: list[CompactEvaluation], text: bool = True) -> Evaluation:
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
