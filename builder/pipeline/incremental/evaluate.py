"""The evaluate stage with the cache: the runs whose key is in the store are taken from it,
the others evaluated one by one and stored; all put back together as one evaluation."""

from __future__ import annotations

from builder.pipeline.execution.merge import evaluate_batch, merge
from builder.pipeline.incremental.keys import run_key, task_key
from builder.pipeline.incremental.store import EvaluationStore
from builder.pipeline.model import TaskInputs, TaskResult


def evaluate_cached(inputs: TaskInputs, store: EvaluationStore) -> TaskResult:
    """The task's evaluation, each accepted run's from ``store`` when there, else evaluated
    alone and stored; the result of evaluating them at once (``merge``)."""
    accepted = inputs.accepted
    if not accepted:
        return TaskResult(inputs, None)
    spec = inputs.spec
    task = task_key(spec)
    parts = []
    for read in accepted:
        key = run_key(task, read)
        part = store.get(spec.id, key)
        if part is None:
            part = evaluate_batch(spec.kind, inputs.qrels, [read.table], spec.options,
                                  extras=True)
            store.put(spec.id, key, part)
        parts.append(part)
    return TaskResult(inputs, merge(parts))
