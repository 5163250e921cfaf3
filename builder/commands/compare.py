"""``appendix compare QRELS RUN...``: significance tests between every pair of runs.

Prints one row per pair and measure (``builder.stats.significance.SIGNIFICANCE_COLUMNS``), the
table the build writes to each task's downloads as ``significance.csv``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from builder.commands.task_options import add_task_arguments, exit_status, task_of
from builder.stats.settings import (
    CORRECTION_LABELS,
    DEFAULT_SEED,
    TEST_LABELS,
    SignificanceSettings,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, metavar="QRELS", help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files (two or more)")
    add_task_arguments(parser)
    parser.add_argument(
        "--measure",
        action="append",
        metavar="M",
        help="measure to compare on, repeatable (default: the kind's official one)",
    )
    parser.add_argument(
        "--test",
        choices=list(TEST_LABELS),
        default="randomization",
        help="paired test, or the joint tukey-hsd (default: randomization)",
    )
    parser.add_argument(
        "--correction",
        choices=list(CORRECTION_LABELS),
        default="holm",
        help="multiple-comparison correction over the pairs (default: holm)",
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    parser.add_argument(
        "--B",
        dest="resamples",
        type=int,
        default=10_000,
        metavar="B",
        help="resamples of the randomization, bootstrap and Tukey tests (10000)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed of the resampling (default: {DEFAULT_SEED})",
    )
    parser.add_argument("--format", choices=("csv", "tsv"), default="csv", help="output format")


def run(args: argparse.Namespace) -> int:
    from builder.pipeline import InputError, evaluate_task, read_task, validate_task
    from builder.scores import SUMMARY_TOPIC
    from builder.stats.per_topic import significance_of
    from builder.stats.significance import format_significance

    try:
        settings = SignificanceSettings(
            test=args.test, correction=args.correction, alpha=args.alpha,
            resamples=args.resamples, seed=args.seed,
        )  # fmt: skip
        inputs = read_task(task_of(args, args.qrels, args.runs))
    except (ValueError, InputError) as exc:
        print(f"appendix compare: {exc}", file=sys.stderr)
        return 2
    validate_task(inputs)
    for finding in inputs.findings:
        print(finding.format(), file=sys.stderr)
    for read in inputs.reads:
        for finding in read.findings:
            print(finding.format(), file=sys.stderr)
        if read.rejected:
            print(f"{read.path}: rejected, left out of the comparison", file=sys.stderr)
    if len(inputs.accepted) < 2:
        print("appendix compare: fewer than two runs to compare", file=sys.stderr)
        return max(exit_status(inputs.reads), 1)
    kind = inputs.spec.kind
    scores = evaluate_task(inputs).evaluation.scores
    report, unknown = significance_of(
        scores, kind.family, args.measure or [kind.official_measure], settings,
        runs=[r.name for r in inputs.accepted], require_all=True,
    )  # fmt: skip
    if unknown:
        known = sorted(set(scores.loc[scores["topic"] != SUMMARY_TOPIC, "measure"]))
        print(f"appendix compare: no per-topic scores for measure(s) {', '.join(unknown)} in "
              f"task kind {kind.name}; known: {', '.join(known)}", file=sys.stderr)  # fmt: skip
        return 2
    for warning in report.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    sys.stdout.write(format_significance(report.table, sep="\t" if args.format == "tsv" else ","))
    return 0
