"""The read, validate and evaluate stages overlapped by the kind (``TaskKind.read_and_evaluate``):
later run files read while the runs of earlier ones are scored, so that reading, which is
most of a command's time on large runs, is hidden behind scoring on the other cores. The kind
gives the reads and the evaluation the stages give one after the other."""

from __future__ import annotations

from builder.pipeline.model import Scale, TaskInputs, TaskResult

defers_runs = True


def evaluate(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """The task's run files read, validated and evaluated by its kind, overlapped."""
    spec = inputs.spec
    assert spec.kind.read_and_evaluate is not None
    reads, evaluation = spec.kind.read_and_evaluate(list(spec.run_files), inputs.qrels,
                                                    spec.options)
    inputs.reads = list(reads)
    return TaskResult(inputs, evaluation)
