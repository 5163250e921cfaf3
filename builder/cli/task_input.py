"""What the analysis commands (``stability``, ``ties``) read: the task their arguments
describe, through the pipeline's read and validate stages, with its accepted runs."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any


class TaskInputError(ValueError):
    """Unusable input or arguments (exit status 2)."""


@dataclass
class TaskInput:
    kind: Any
    options: Any
    qrels: Any
    runs: Any
    """The accepted runs concatenated, None when no run is usable."""
    measures: list[str]
    status: int
    """1 when some run was rejected, else 0."""


def read_task_input(args: argparse.Namespace, command: str,
                    default_measures: tuple[str, ...] = ()) -> TaskInput:
    """Read and validate ``args.qrels`` and ``args.runs`` for ``args.task``; findings go to
    stderr. Raises ``TaskInputError`` on bad arguments or unreadable qrels."""
    import pandas as pd

    from builder.cli.task_options import exit_status, task_of
    from builder.findings import sort_findings
    from builder.measures.registry import select_measures
    from builder.pipeline.stages import InputError, read_task, validate_task

    try:
        task = task_of(args, args.qrels, args.runs)
        kind = task.kind
        measures = select_measures(kind.family, args.measure,
                                   default_measures or (kind.official_measure,))
        inputs = read_task(task)
    except (ValueError, InputError) as error:
        raise TaskInputError(str(error)) from None
    validate_task(inputs)
    for finding in sort_findings(f for r in inputs.reads for f in r.findings):
        print(finding.format(), file=sys.stderr)
    accepted = [read.table for read in inputs.accepted]
    runs = pd.concat(accepted, ignore_index=True) if accepted else None
    if runs is None:
        print(f"appendix {command}: no run could be used", file=sys.stderr)
    return TaskInput(kind, task.options, inputs.qrels, runs, measures,
                     exit_status(inputs.reads))
