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
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from builder.cli.scale import add_scale_arguments, scale_of
from builder.cli.task_options import add_task_arguments, exit_status, task_of
from builder.contract import SUMMARY_TOPIC

if TYPE_CHECKING:
    from builder.pipeline.layouts.official import TrecLayout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, help="relevance judgements")
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
        "rbp.p=0.95 err@20), all_trec or set; repeatable",
    )
    parser.add_argument("--format", choices=["trec", "tsv", "csv", "json"], default="trec")
    add_scale_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from builder.findings import sort_findings
    from builder.measures.registry import select_measures
    from builder.pipeline.execution.cluster import SchedulerError
    from builder.pipeline.layouts.official import (
        TrecLayout,
        answered,
        integral_measures,
        without_empty_runs,
    )
    from builder.pipeline.stages import InputError, evaluate_task, read_task, validate_task

    runid = True
    try:
        task = task_of(args, args.qrels, args.runs)
        family = task.kind.family
        if task.kind.name == "adhoc":
            request = _trec_request(args, task.options)
            names, runid = list(request.names), request.runid
            # Only the measures asked for (and num_ret, which says what was answered).
            only = frozenset([*names, "num_ret"])
            kind = task.kind
            task = replace(task, kind=replace(
                kind, evaluate=partial(kind.evaluate, only=only),
                read_and_evaluate=kind.read_and_evaluate and partial(
                    kind.read_and_evaluate, only=only)))  # fmt: skip
            if request.params.given:
                options = task.kind.options_model.model_validate(
                    {**task.options.model_dump(), "parameters": dict(request.params.given)}
                )
                task = replace(task, options=options)
        else:
            names = select_measures(family, args.measure, task.kind.default_measures)
        # Scores only, the runs read while earlier ones are scored when the kind can.
        scale = scale_of(args, extras=False, overlap=True)
        inputs = read_task(task, scale)
    except (ValueError, InputError) as error:
        print(f"appendix evaluate: {error}", file=sys.stderr)
        return 2
    validate_task(inputs)
    try:
        result = evaluate_task(inputs, scale)  # reads the runs when read_task did not
    except SchedulerError as error:
        print(f"appendix evaluate: {error}", file=sys.stderr)
        return 2
    finally:
        for finding in sort_findings([*inputs.findings,
                                      *(f for r in inputs.reads for f in r.findings)]):
            print(finding.format(), file=sys.stderr)
    code = exit_status(inputs.reads)
    if result.evaluation is not None:
        scores = result.evaluation.scores
        if task.kind.name == "adhoc" and not task.options.complete:
            scores, empty = without_empty_runs(scores)
            for name in empty:
                # trec_eval stops with exit code 7 on such a run.
                print(f"appendix evaluate: {name}: no topic with both results and relevance "
                      "judgements (trec_eval: exit 7)", file=sys.stderr)  # fmt: skip
                code = 7
        per_topic = args.per_topic or args.format != "trec"
        layout = TrecLayout(
            per_topic=args.per_topic,
            answered=answered(scores, task.options) if args.per_topic else None,
            runid=runid, summary=not args.no_summary,
        )  # fmt: skip
        # Rows not printed are left out before the output is laid out, and a table all of
        # whose rows are printed is not copied: a large campaign's table is most of the memory.
        printed = scores["measure"].isin(names).to_numpy()
        if not per_topic:
            printed = printed & (scores["topic"] == SUMMARY_TOPIC).to_numpy()
        if not printed.all():
            scores = scores[printed]
        integral = integral_measures(family)
        for text in _render(scores, names, integral, args, layout):
            sys.stdout.write(text)
    return code


def _trec_request(args: argparse.Namespace, options):
    from builder.measures.adhoc.trec_eval.profiles import profile_of
    from builder.measures.adhoc.trec_eval.requests import parse_requests

    return parse_requests(args.measure, trec_10=profile_of(options.profile).new_measures)


def _render(scores, names: list[str], integral: set[str], args: argparse.Namespace,
            layout: TrecLayout) -> Iterator[str]:
    """The output, a slice of rows at a time (``builder.pipeline.layouts.scores``)."""
    from builder.pipeline.layouts.scores import csv_text, trec_text, tsv_text

    if args.format == "trec":
        return trec_text(scores, names, integral, layout)
    if args.format == "json":
        return iter([json.dumps(scores.to_dict(orient="records")) + "\n"])
    table = scores[["run", "measure", "topic", "value"]]
    return csv_text(table) if args.format == "csv" else tsv_text(table)
