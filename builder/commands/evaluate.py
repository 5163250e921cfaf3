"""``appendix evaluate QRELS RUN...``: score runs like the official program, for any task kind.

``--format trec`` (default) prints trec_eval's own layout, one block per run, so the command
can stand in for ``trec_eval [-q] [-c] [-M N] [-l N] [-m MEASURE]``; ``tsv`` prints
``run<TAB>measure<TAB>topic<TAB>value`` at full precision for any number of runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from builder.commands.task_options import add_task_arguments, task_of
from builder.scores import SUMMARY_TOPIC

TREC_NAME_WIDTH = 22


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    add_task_arguments(parser)
    parser.add_argument(
        "-q",
        dest="per_topic",
        action="store_true",
        help="print per-topic values too (trec format; tsv always has them)",
    )
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        default=[],
        metavar="MEASURE",
        help="measure name, family (P, ndcg_cut, P.5,10) or all_trec; repeatable",
    )
    parser.add_argument("--format", choices=["trec", "tsv", "csv", "json"], default="trec")


def format_trec(scores, measures: list[str], integral: set[str], per_topic: bool) -> str:
    """trec_eval's layout: ``%-22s\\t%s\\t%.4f`` (counts as integers), runid first in summary."""
    lines: list[str] = []
    for run, table in scores.groupby("run", sort=False):
        table = table[table["measure"].isin(measures)]
        order = {m: i for i, m in enumerate(measures)}
        table = table.assign(order=table["measure"].map(order))
        topics = table[table["topic"] != SUMMARY_TOPIC]
        if per_topic:
            for _, rows in topics.groupby("topic", sort=True):
                lines += _trec_lines(rows.sort_values("order"), integral)
        lines.append(f"{'runid':<{TREC_NAME_WIDTH}}\t{SUMMARY_TOPIC}\t{run}")
        lines += _trec_lines(table[table["topic"] == SUMMARY_TOPIC].sort_values("order"), integral)
    return "\n".join(lines) + "\n"


def _trec_lines(rows, integral: set[str]) -> list[str]:
    return [
        f"{m:<{TREC_NAME_WIDTH}}\t{t}\t" + (f"{round(v)}" if m in integral else f"{v:.4f}")
        for m, t, v in zip(rows["measure"], rows["topic"], rows["value"])
    ]


def run(args: argparse.Namespace) -> int:
    from builder.findings import sort_findings
    from builder.measures.registry import measures_of, select_measures
    from builder.pipeline import InputError, evaluate_task, read_task, validate_task

    try:
        task = task_of(args, args.qrels, args.runs)
        family = task.kind.family
        names = select_measures(family, args.measure, task.kind.default_measures)
        inputs = read_task(task)
    except (ValueError, InputError) as error:
        print(f"appendix evaluate: {error}", file=sys.stderr)
        return 2
    validate_task(inputs)
    for finding in sort_findings(f for r in inputs.reads for f in r.findings):
        print(finding.format(), file=sys.stderr)
    result = evaluate_task(inputs)
    if result.evaluation is not None:
        scores = result.evaluation.scores
        scores = scores[scores["measure"].isin(names)]
        integral = {m.name for m in measures_of(family) if m.aggregation.integral}
        sys.stdout.write(_render(scores, names, integral, args))
    return 1 if inputs.rejected else 0


def _render(scores, names: list[str], integral: set[str], args: argparse.Namespace) -> str:
    if args.format == "trec":
        return format_trec(scores, names, integral, args.per_topic)
    if args.format == "json":
        return json.dumps(scores.to_dict(orient="records")) + "\n"
    table = scores[["run", "measure", "topic", "value"]]
    if args.format == "csv":
        return table.to_csv(index=False)
    return "".join(
        f"{r}\t{m}\t{t}\t{v!r}\n"
        for r, m, t, v in zip(
            table["run"], table["measure"], table["topic"], table["value"].tolist()
        )
    )
