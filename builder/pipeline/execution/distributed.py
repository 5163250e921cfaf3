"""The evaluate stage on a Dask distributed cluster, without a memory budget: the runs, read and
validated by the stages before it, cut into a batch per worker at least, of about equal size,
each evaluated by a worker (``cluster``); the batches' scores put back together in the
one-shot order (``merge``). With a budget too, the batches are the budget's
(``builder.pipeline.execution.batches``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from builder.pipeline.execution.budget import group_by_cost, run_bytes
from builder.pipeline.execution.cluster import on_cluster
from builder.pipeline.execution.merge import merge
from builder.pipeline.model import Scale, TaskInputs, TaskResult

if TYPE_CHECKING:
    from builder.contract import RunRead

defers_runs = False


def evaluate(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """The accepted runs evaluated by the workers of the cluster at ``scale.scheduler``;
    identical to the kind's ``evaluate`` on all of them at once."""
    assert scale.scheduler is not None
    accepted = inputs.accepted
    if not accepted:
        return TaskResult(inputs, None)
    spec = inputs.spec

    def groups(workers: int):
        return ([read.table for read in group] for group in even_batches(accepted, workers))

    parts = list(on_cluster(scale.scheduler, spec.kind, inputs.qrels, groups, spec.options,
                            scale.extras))
    return TaskResult(inputs, merge(parts, text=scale.extras))


def even_batches(reads: Sequence[RunRead], count: int) -> list[list[RunRead]]:
    """At least ``count`` batches of about equal size when there are more runs (the first
    holding two): one for each worker of a cluster, when no budget sets their size."""
    sizes = [max(1, run_bytes(read)) for read in reads]
    if count <= 1 or len(reads) <= 1:
        return [list(reads)] if reads else []
    return group_by_cost(list(reads), sizes, -(-sum(sizes) // count))
