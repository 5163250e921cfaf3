"""``appendix validate RUN... --qrels QRELS``: print every run's findings (and the qrels').

Exit status as ``appendix evaluate``: 1 when a run is rejected, 2 when the qrels cannot be used
or a run file could not be read at all."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from builder.cli.task_options import add_task_arguments, exit_status, task_of

EXIT_STATUS = """\
  0    no run has an error (warnings may be printed)
  1    a run has an error and would be rejected
  2    the qrels cannot be used, or a run file could not be read at all"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    parser.add_argument("--qrels", type=Path, required=True, help="relevance judgements")
    add_task_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from builder.findings import sort_findings
    from builder.pipeline.stages import InputError, read_task, validate_task

    try:
        inputs = read_task(task_of(args, args.qrels, args.runs))
    except (ValueError, InputError) as error:
        print(f"appendix validate: {error}", file=sys.stderr)
        return 2
    validate_task(inputs)
    findings = sort_findings([*inputs.findings, *(f for r in inputs.reads for f in r.findings)])
    for finding in findings:
        print(finding.format())
    for read in inputs.reads:
        verdict = "rejected" if read.rejected else "accepted"
        print(f"{read.path}: {verdict} as run {read.name}", file=sys.stderr)
    return exit_status(inputs.reads)
