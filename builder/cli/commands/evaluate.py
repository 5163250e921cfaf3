"""``appendix evaluate QRELS RUN...``: score runs like the official program, for any task kind.

``--format trec`` (default) prints trec_eval's own layout, one block per run, so the command
can stand in for ``trec_eval [-q] [-c] [-M N] [-l N] [-m MEASURE]``; ``tsv`` prints
``run<TAB>measure<TAB>topic<TAB>value`` at full precision for any number of runs.

Exit status: 0 when every run was evaluated; 1 when a run was rejected (its findings say why;
the others are printed); 2 when the qrels cannot be used or a run file could not be read at
all (``builder.cli.task_options.exit_status``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from builder.cli.scale import add_scale_arguments, scale_of
from builder.cli.task_options import add_task_arguments, exit_status, task_of
from builder.contract import SUMMARY_TOPIC

if TYPE_CHECKING:
    from builder.pipeline.layouts.official import TrecLayout

EXIT_STATUS = """\
  0    every run was evaluated
  1    a run was rejected: its findings say why, the other runs are printed
  2    the qrels cannot be used, or a run file could not be read at all"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, help="relevance judgements: a file, or irds:DATASET_ID "
                        "(ir_datasets, the extra irds)")
    parser.add_argument(
        "runs", type=Path, nargs="+", metavar="RUN", help="run files ('-': standard input)"
    )
    add_task_arguments(parser)
    parser.add_argument(
        "-n", dest="no_summary", action="store_true", help="no summary lines (trec_eval -n)"
    )
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
        help="measure name, family with parameters as trec_eval (P.5,7 ndcg.1=3,2=9 "
        "rbp.p=0.95 err@20), all_trec or set, or as ir_measures writes it (nDCG@10, "
        "'P(rel=2)@5', AP, 'RBP(p=0.8)'); repeatable",
    )
    parser.add_argument(
        "--names", choices=["given", "trec", "ir_measures"], default="given",
        help="spelling of the measure names printed: as given (default), trec_eval's "
        "(ndcg_cut_10) or ir_measures' (nDCG@10)")
    parser.add_argument("--format", choices=["trec", "tsv", "csv", "json"], default="trec")
    add_scale_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from builder.findings import sort_findings
    from builder.pipeline.execution.cluster import SchedulerError
    from builder.pipeline.layouts.official import TrecLayout, printed_runs
    from builder.pipeline.scoring import evaluate_plan, plan_measures
    from builder.pipeline.stages import InputError, read_task, validate_task

    try:
        task = task_of(args, args.qrels, args.runs)
        plan = plan_measures(task, args.measure, args.names)
        # Scores only, the runs read while earlier ones are scored when the kind can.
        scale = plan.scale(scale_of(args, extras=False, overlap=True))
        inputs = read_task(task, scale)
    except (ValueError, InputError) as error:
        print(f"appendix evaluate: {error}", file=sys.stderr)
        return 2
    validate_task(inputs)
    try:
        evaluated = evaluate_plan(inputs, plan, scale)  # reads the runs when read_task did not
    except SchedulerError as error:
        print(f"appendix evaluate: {error}", file=sys.stderr)
        return 2
    finally:
        for finding in sort_findings([*inputs.findings,
                                      *(f for r in inputs.reads for f in r.findings)]):
            print(finding.format(), file=sys.stderr)
    code = exit_status(inputs.reads)
    if evaluated is not None:
        scores = evaluated.scores
        adhoc = task.kind.name == "adhoc"
        scores, answered, empty = printed_runs(scores, task, evaluated.extras)
        for name in empty:
            # trec_eval stops with exit code 7 on such a run.
            print(f"appendix evaluate: {name}: no topic with both results and relevance "
                  "judgements (trec_eval: exit 7)", file=sys.stderr)  # fmt: skip
            code = 7
        names = list(plan.names)
        texts = _relstrings(evaluated, scores, names) \
            if adhoc and args.per_topic and args.format == "trec" else None
        per_topic = args.per_topic or args.format != "trec"
        layout = TrecLayout(
            per_topic=args.per_topic,
            answered=answered if args.per_topic else None,
            runid=plan.runid, summary=not args.no_summary,
        )  # fmt: skip
        # Rows not printed are left out before the output is laid out, and a table all of
        # whose rows are printed is not copied: a large campaign's table is most of the memory.
        printed = scores["measure"].isin(names).to_numpy()
        if not per_topic:
            printed = printed & (scores["topic"] == SUMMARY_TOPIC).to_numpy()
        if not printed.all():
            scores = scores[printed]
        for text in _render(scores, names, set(plan.integral), args, layout, texts):
            sys.stdout.write(text)
    return code


def _relstrings(evaluation, scores, names: list[str]):
    """trec_eval's relstring rows asked for (``-m relstring``, ``all_trec``) of the (run,
    topic) whose rows the table has, or None: text, printed per topic by the trec layout only.
    An evaluation in batches (``--memory-budget``, ``--scheduler``) keeps no such table: then
    none is printed, and a note says so."""
    asked = [name for name in names if name == "relstring" or name.startswith("relstring_")]
    if not asked:
        return None
    if "relstring" not in evaluation.extras:
        print("appendix evaluate: relstring is not printed when the runs are evaluated in "
              "batches (--memory-budget, --scheduler)", file=sys.stderr)
        return None
    rows = scores[(scores["measure"] == "num_ret") & (scores["topic"] != SUMMARY_TOPIC)]
    strings = evaluation.extras["relstring"]
    strings = strings.merge(rows[["run", "topic"]].astype(str), on=["run", "topic"])
    return strings.assign(measure=asked[0])


def _render(scores, names: list[str], integral: set[str], args: argparse.Namespace,
            layout: TrecLayout, texts=None) -> Iterator[str]:
    """The output, a slice of rows at a time (``builder.pipeline.layouts.scores``)."""
    from builder.pipeline.layouts.scores import csv_text, trec_text, tsv_text

    if args.format == "trec":
        return trec_text(scores, names, integral, layout, texts)
    if args.format == "json":
        return iter([json.dumps(scores.to_dict(orient="records")) + "\n"])
    table = scores[["run", "measure", "topic", "value"]]
    return csv_text(table) if args.format == "csv" else tsv_text(table)
