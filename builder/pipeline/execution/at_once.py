"""The evaluate stage at once: the kind's ``evaluate`` on every accepted run, read and validated
by the stages before it. The plain path, and the one every other strategy must equal."""

from __future__ import annotations

from builder.pipeline.model import Scale, TaskInputs, TaskResult

defers_runs = False


def evaluate(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """All accepted runs' tables as one, evaluated by the task's kind (None: no run accepted)."""
    import pandas as pd

    accepted = inputs.accepted
    if not accepted:
        return TaskResult(inputs, None)
    spec = inputs.spec
    runs = pd.concat([read.table for read in accepted], ignore_index=True)
    return TaskResult(inputs, spec.kind.evaluate(inputs.qrels, runs, spec.options))
