"""What the analysis commands (``stability``, ``ties``) read: qrels, accepted runs, measures."""

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
    """Read ``args.qrels`` and ``args.runs`` for ``args.task``; findings go to stderr."""
    import pandas as pd

    from builder.commands.evaluate import build_options, select_measures
    from builder.findings import sort_findings
    from builder.measures.registry import measures_of
    from builder.tasks import get_kind

    try:
        kind = get_kind(args.task)
        options = build_options(kind.options_model, args)
        declared = [m.name for m in measures_of(kind.family)]
        wanted = args.measure or list(default_measures) or [kind.official_measure]
        measures = select_measures(wanted, declared, ())
        qrels = kind.read_qrels(args.qrels)
    except (KeyError, ValueError, OSError) as error:
        raise TaskInputError(str(error.args[0] if error.args else error)) from None
    reads = kind.read_runs(args.runs, qrels, options)
    for finding in sort_findings(f for r in reads for f in r.findings):
        print(finding.format(), file=sys.stderr)
    accepted = [r.table for r in reads if not r.rejected]
    runs = pd.concat(accepted, ignore_index=True) if accepted else None
    if runs is None:
        print(f"appendix {command}: no run could be used", file=sys.stderr)
    return TaskInput(kind, options, qrels, runs, measures,
                     1 if len(accepted) < len(reads) else 0)
