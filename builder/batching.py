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
from typing import TYPE_CHECKING, Any

from builder.scores import SUMMARY_TOPIC, Evaluation, LazyTables, RunRead

if TYPE_CHECKING:
    import pandas as pd

EVALUATION_FACTOR = 6
"""Peak memory of an evaluation per byte of its run tables (measured on robust03 and
TREC-COVID round 1: the judged rankings, gains and cumulated sums of the adhoc kernels)."""

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


def batches(reads: Sequence[RunRead], budget: int | None) -> list[list[RunRead]]:
    """Consecutive runs whose evaluation fits ``budget`` bytes (at least one run a batch, and
    two in the first, which ``merge`` reads the evaluator's row order from); one batch of all
    of them when there is no budget."""
    if budget is None:
        return [list(reads)] if reads else []
    out: list[list[RunRead]] = []
    used = 0
    for read in reads:
        cost = run_bytes(read) * EVALUATION_FACTOR
        if out and (used + cost <= budget or len(out) == 1 and len(out[0]) == 1):
            out[-1].append(read)
            used += cost
        else:
            out.append([read])
            used = cost
    return out


def _evaluate_batch(kind: Any, qrels: Any, tables: list[pd.DataFrame], options: Any,
                    extras: bool) -> Evaluation:
    """One batch: the kind's evaluation of its runs, extras made now (``extras``) or dropped,
    so that nothing of the batch's intermediate tables outlives it."""
    import pandas as pd

    evaluation = kind.evaluate(qrels, pd.concat(tables, ignore_index=True), options)
    made = {name: evaluation.extras[name] for name in evaluation.extras} if extras else {}
    return Evaluation(evaluation.scores, made)


def evaluate_batches(kind: Any, qrels: Any, reads: Sequence[RunRead], options: Any,
                     budget: int | None = None, scheduler: str | None = None,
                     extras: bool = True) -> Evaluation:
    """The evaluation of ``reads`` (accepted runs), batch by batch, locally or on the Dask
    cluster at ``scheduler``; identical to ``kind.evaluate`` on all of them at once."""
    groups = batches(reads, budget)
    tables = ([read.table for read in group] for group in groups)
    if scheduler is None:
        parts = [_evaluate_batch(kind, qrels, group, options, extras) for group in tables]
    else:
        parts = list(_on_cluster(scheduler, kind, qrels, tables, options, extras))
    return merge(parts)


class SchedulerError(Exception):
    """The Dask scheduler cannot be reached (the message names its address)."""


def _on_cluster(scheduler: str, kind: Any, qrels: Any, tables: Iterator[list[pd.DataFrame]],
                options: Any, extras: bool) -> Iterator[Evaluation]:
    """Each batch evaluated by a worker of the cluster at ``scheduler``, in batch order."""
    client_class = dask_client()
    try:
        client = client_class(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    with client:
        shared = client.scatter(qrels, broadcast=True)
        futures = [client.submit(_evaluate_batch, kind, shared, group, options, extras,
                                 pure=False) for group in tables]
        for future in futures:
            yield future.result()
            future.release()


def dask_client() -> Callable[..., Any]:
    """``dask.distributed.Client``, imported only when a scheduler is asked for."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask distributed: pip install "
                         "'appendix[distributed]'") from None
    return Client


def merge(parts: list[Evaluation]) -> Evaluation:
    """The batches' evaluations as one: score rows in the one-shot order, extras concatenated.

    An evaluator orders its rows either run by run (then the batches' tables follow each other)
    or measure by measure, each measure's per-topic rows before its summary rows; the first
    batch (two runs or more) tells which, and a stable sort on that key restores the one-shot
    order."""
    import pandas as pd

    if len(parts) == 1:
        return parts[0]
    scores = pd.concat([part.scores for part in parts], ignore_index=True)
    key = _order_key(parts[0].scores, scores)
    if key is not None:
        scores = scores.iloc[key.argsort(kind="stable")].reset_index(drop=True)
    names = list(parts[0].extras)
    made = LazyTables({name: (lambda name=name: _concat([p.extras[name] for p in parts]))
                       for name in names})
    return Evaluation(scores, made)


def _order_key(first: pd.DataFrame, scores: pd.DataFrame):
    """The sort key of measure-major tables (measure rank, then summary after per-topic), or
    of measure rank alone; None for run-major tables (already in order once concatenated)."""
    import numpy as np
    import pandas as pd

    ranks = {m: i for i, m in enumerate(pd.unique(scores["measure"]))}
    for with_summary in (True, False):
        def key(table: pd.DataFrame, with_summary: bool = with_summary) -> np.ndarray:
            rank = table["measure"].map(ranks).to_numpy(np.int64) * 2
            if with_summary:
                rank += (table["topic"] == SUMMARY_TOPIC).to_numpy(np.int64)
            return rank
        if (np.diff(key(first)) >= 0).all() and first["measure"].nunique() > 1:
            return key(scores)
    return None


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
