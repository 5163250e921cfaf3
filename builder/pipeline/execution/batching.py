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

from builder.contract import Evaluation, RunRead, page_tables
from builder.pipeline.execution.merge import merge

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
            # A group already evaluated (a run by topic ranges, ``builder.pipeline.execution.topic_ranges``).
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
