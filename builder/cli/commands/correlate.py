"""``appendix correlate QRELS RUN... -m M1 -m M2``: how far measures agree.

For every pair of the measures named, Kendall's tau, tau_ap, Pearson and Spearman between the
rankings of the runs (their means, as ``appendix evaluate`` prints them under ``all``) and
between the per-topic scores (``builder.stats.agreement``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from builder.cli.task_options import add_task_arguments

DESCRIPTION = """\
How far measures agree: for every pair of the measures named (-m, two or more), Kendall's tau,
tau_ap, Pearson's r and Spearman's rho between the rankings of the runs by their means and
between the scores of every run on every topic."""

EPILOG = """\
the table, one row per pair of measures and level:
  measure A, B   the pair; tau_ap takes A's ranking as the reference
  level          systems: the runs' means (one value per run);
                 topics: every (run, topic) score (a mean such as MAiP by its per-topic AiP)
  n              how many values are compared
  tau, tau_ap, pearson, spearman
                 the coefficients; nan where undefined (fewer than two values, or a constant)

--format csv|tsv|json prints the same rows for scripts, with the columns measure_a, measure_b,
level, n, kendall_tau, tau_ap, pearson, spearman.

example, in my-campaign/adhoc of appendix demo my-campaign (its INEX tasks are in ../inex):
  appendix correlate ../inex/qrels.txt ../inex/focused/* --task focused -m MAiP -m MAP -m 'iP[0.01]'
      exit status 1: kestrelFocFusion is rejected (its findings say why), the others compared"""

EXIT_STATUS = """\
  0    every run was compared
  1    a run was rejected: its findings say why, the others are compared
  2    fewer than two measures, the qrels cannot be used, or a run file cannot be read"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, metavar="QRELS", help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    add_task_arguments(parser)
    parser.add_argument("-m", "--measure", action="append", default=[], metavar="M",
                        help="a measure, repeatable: two or more, named as appendix evaluate "
                        "takes them (trec_eval's names, the kind's, ir_measures' nDCG@10)")
    parser.add_argument("--format", choices=("table", "csv", "tsv", "json"), default="table",
                        help="a table to read (default), or csv, tsv, json for scripts")


def run(args: argparse.Namespace) -> int:
    from builder.cli.task_options import exit_status, task_of
    from builder.measures.registry import measures_of
    from builder.pipeline.model import Scale
    from builder.pipeline.scoring import evaluate_plan, plan_measures
    from builder.pipeline.stages import InputError, read_task, validate_task
    from builder.stats.agreement import measure_agreement

    try:
        task = task_of(args, args.qrels, args.runs)
        # The measures as appendix evaluate takes them (trec_eval's requests, the registry's
        # names, ir_measures' spelling) and only those scored.
        requests = list(dict.fromkeys(args.measure))
        plan = plan_measures(task, requests)
        # A summary measure (MAiP) is compared on the topics through the per-topic measure
        # it aggregates (AiP): scored too.
        registry = {m.name: m for m in measures_of(task.kind.family)}
        sources = [registry[name].per_topic for evaluation in plan.evaluations
                   for name in evaluation.printed if name in registry]
        if any(sources):
            plan = plan_measures(task, list(dict.fromkeys([*requests, *filter(None, sources)])))
        # In the order asked (tau_ap takes the first as the reference), where the plan
        # prints them in the kind's order.
        measures = list(dict.fromkeys(name for request in requests
                                      for name in plan_measures(task, [request]).names))
        if len(measures) < 2:
            print("appendix correlate: name two measures or more (-m M1 -m M2)",
                  file=sys.stderr)
            return 2
        inputs = read_task(task, plan.scale(Scale()))
    except (ValueError, InputError) as error:
        print(f"appendix correlate: {error}", file=sys.stderr)
        return 2
    validate_task(inputs)
    evaluated = evaluate_plan(inputs, plan)
    for read in inputs.reads:
        for finding in read.findings:
            print(finding.format(), file=sys.stderr)
        if read.rejected:
            print(f"{read.path}: rejected, left out", file=sys.stderr)
    if evaluated is None:
        print("appendix correlate: no run could be used", file=sys.stderr)
        return max(exit_status(inputs.reads), 1)
    declared = {printed: registry[name] for evaluation in plan.evaluations
                for name, printed in evaluation.printed.items() if name in registry}
    table = measure_agreement(evaluated.scores, measures, declared,
                              [r.name for r in inputs.accepted])
    if args.format == "json":
        sys.stdout.write(table.to_json(orient="records", double_precision=15) + "\n")
    elif args.format == "table":
        sys.stdout.write(format_table(table))
    else:
        sys.stdout.write(table.to_csv(sep="\t" if args.format == "tsv" else ",", index=False,
                                      float_format="%.17g", lineterminator="\n"))
    return exit_status(inputs.reads)


HEADINGS = ("measure A", "measure B", "level", "n", "tau", "tau_ap", "pearson", "spearman")


def format_table(table) -> str:
    """The rows aligned for reading: names to the left, numbers (4 decimals) to the right."""
    cells = [list(HEADINGS)] + [
        [row.measure_a, row.measure_b, row.level, str(row.n),
         *(f"{value:.4f}" for value in (row.kendall_tau, row.tau_ap, row.pearson, row.spearman))]
        for row in table.itertuples(index=False)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADINGS))]
    return "".join(
        "  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(line, widths))).rstrip() + "\n"
        for line in cells)
