"""``appendix ties QRELS RUN...``: how much each score owes to the order of tied documents.

Per run and measure: the official score (trec_eval's order: docno descending among equal
scores), the worst and best scores (inside every tied group the highest grades last, or
first) and the expected score over all orders of the tied documents (AP, P@k, nDCG; empty for
other measures). ``--format json`` adds the official rank and the best and worst leaderboard
ranks the run can take when every run's ties fall either way. Ad hoc runs only: INEX runs are
ranked by the order of their lines, which has no ties.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from builder.cli.task_options import add_task_arguments

DEFAULT_MEASURES = ("map", "P_10", "ndcg_cut_10")


EXIT_STATUS = """\
  0    the table is printed
  1    a run was rejected (its findings say why)
  2    the qrels, a run file or an option cannot be used (ties are for ad hoc runs)"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, metavar="QRELS", help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    add_task_arguments(parser)
    parser.add_argument("-m", "--measure", action="append", default=[], metavar="M",
                        help="measure, repeatable (default: " + ", ".join(DEFAULT_MEASURES) + ")")
    parser.add_argument("--format", choices=("tsv", "json"), default="tsv")


def _value(value: float) -> str:
    return "" if math.isnan(value) else repr(value)


def run(args: argparse.Namespace) -> int:
    from builder.cli.task_input import TaskInputError, read_task_input
    from builder.stats.reliability.ties import TIE_COLUMNS, tie_table

    if args.task != "adhoc":
        print(f"appendix ties: {args.task} runs are ranked by the order of their lines, which "
              "has no ties; ties apply to ad hoc runs", file=sys.stderr)
        return 2
    try:
        task = read_task_input(args, "ties", DEFAULT_MEASURES)
    except TaskInputError as error:
        print(f"appendix ties: {error}", file=sys.stderr)
        return 2
    if task.runs is None:
        return task.status
    table = tie_table(task.runs, task.qrels, task.options, task.measures)
    if args.format == "json":
        records = table.astype(object).where(table.notna(), None).to_dict(orient="records")
        sys.stdout.write(json.dumps(records) + "\n")
    else:
        sys.stdout.write("\t".join(TIE_COLUMNS) + "\n")
        for row in table[TIE_COLUMNS].itertuples(index=False):
            values = "\t".join(_value(v) for v in row[2:])
            sys.stdout.write(f"{row.run}\t{row.measure}\t{values}\n")
    return task.status
