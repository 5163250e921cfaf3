"""Batches evaluated by the workers of a Dask distributed cluster (``--scheduler``).

Each batch of run tables is sent to a worker, which evaluates it (``merge.evaluate_batch``)
and returns its compact tables; everything after evaluation runs here, as for a local
evaluation. Dask is imported only when a scheduler is asked for: the default install has none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from builder.pipeline.execution.merge import CompactEvaluation, evaluate_batch

if TYPE_CHECKING:
    import pandas as pd

CONNECT_SECONDS = 20
"""How long to wait for the scheduler before giving up."""


class SchedulerError(Exception):
    """The Dask scheduler cannot be reached (the message names its address)."""


def on_cluster(scheduler: str, kind: Any, qrels: Any,
               groups: Callable[[int], Iterator[list[pd.DataFrame]]], options: Any,
               extras: bool) -> Iterator[CompactEvaluation]:
    """Each group of run tables evaluated by a worker of the cluster at ``scheduler``, in
    order. ``groups(workers)`` makes the groups as they are asked for (so that they may be read
    only then); at most one group per worker, and one more, is in flight, so that the groups
    are made no faster than the workers take them."""
    from collections import deque

    client_class = dask_client()
    try:
        client = client_class(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    with client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        # A key of its own (hash=False), not one named by the content: a key named by the
        # content is shared with an earlier client that scattered the same qrels, whose
        # release can drop it while it is being replicated here ("key lost during
        # replication", seen when two builds follow each other on one cluster).
        shared = client.scatter(qrels, broadcast=True, hash=False)
        flying: deque = deque()
        for group in groups(workers):
            tables = client.scatter(list(group), hash=False)
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
