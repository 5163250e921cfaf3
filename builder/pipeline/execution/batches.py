"""The evaluate stage under a memory budget: the run files read, validated and evaluated batch
by batch (``reading``), each batch here or, given a scheduler, by a worker of the Dask
cluster (``cluster``); the batches' scores put back together in the one-shot order
(``merge``).

What outlives a batch is its score rows (run, topic and measure as categorical codes, about
15 bytes a row), its findings and, for the site, the kind's extra tables the pages read: the
intermediate tables of an evaluation exist for one batch at a time.
"""

from __future__ import annotations

from builder.contract import StageProgress
from builder.pipeline.execution.cluster import on_cluster
from builder.pipeline.execution.merge import evaluate_batch, merge
from builder.pipeline.execution.reading import read_batches
from builder.pipeline.model import Scale, TaskInputs, TaskResult

defers_runs = True


def evaluate(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """The task's run files read, validated and evaluated batch by batch (``inputs.reads`` is
    filled as they come); the result is that of the one-shot path."""
    assert scale.budget is not None
    spec = inputs.spec
    groups = read_batches(inputs, scale.budget, keep=scale.extras)
    if scale.scheduler is None:
        progress = StageProgress("evaluate", None, "batches of runs")
        parts = []
        for group in groups:
            parts.append(evaluate_batch(spec.kind, inputs.qrels, group, spec.options,
                                        scale.extras))
            progress.advance()
    else:
        parts = list(on_cluster(scale.scheduler, spec.kind, inputs.qrels, lambda workers: groups,
                                spec.options, scale.extras))
    return TaskResult(inputs, merge(parts, text=scale.extras) if parts else None)
