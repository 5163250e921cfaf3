"""``appendix compare QRELS RUN...``: significance tests between every pair of runs.

Prints a table for people (both runs' means, the difference, its confidence interval, p,
adjusted p and the verdict), or with ``--format csv|tsv|json`` one row per pair and measure
(``builder.stats.significance.tables.SIGNIFICANCE_COLUMNS``), the table the build writes to each
task's downloads as ``significance.csv``.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from builder.cli.flags import add_model_flags, given_flags, model_flags, readable_errors
from builder.cli.task_options import add_task_arguments, exit_status, task_of
from builder.config.schema import SignificanceConfig

if TYPE_CHECKING:
    from builder.config.significance import SignificanceSettings
    from builder.stats.significance.tables import SignificanceReport

DESCRIPTION = """\
Which runs differ significantly: every pair of runs is tested topic by topic (paired test,
corrected for the number of pairs), on the task's official measure unless --measure says."""

EPILOG = """\
the table (default output), one row per pair of runs and measure:
  run A, run B   the pair; A is the run with the higher mean
  mean A, mean B each run's mean over the topics (a topic a run misses scores 0)
  A-B            the mean per-topic difference
  95% CI         its bootstrap confidence interval (B resamples)
  p              the test's p-value for this pair
  adj. p         p corrected over all the pairs of the measure (--correction); Tukey HSD's
                 p-value is already family-wise, so adj. p = p
  sig.           yes when adj. p <= alpha

--format csv|tsv|json prints the same pairs for scripts, with the columns of the site's
significance.csv download: run_a, run_b, measure, test, mean_diff, ci_low, ci_high, effect
(standardised mean difference), statistic, p_value, p_adjusted, significant.

example, in my-campaign/adhoc of appendix demo my-campaign (its two flawed runs are left out,
with their findings):
  appendix compare qrels.txt runs/* --test t-test --correction bh --format csv > pairs.csv"""


EXIT_STATUS = """\
  0    the pairs are printed
  1    a run was rejected (left out of the comparison), or fewer than two runs remain
  2    the qrels, the options or a measure cannot be used, or a run file could not be read"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("qrels", type=Path, metavar="QRELS", help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files (two or more)")
    add_task_arguments(parser)
    # The config's significance settings (--test, --correction, --alpha, --B, --seed, --measure)
    add_model_flags(parser, model_flags({"significance": SignificanceConfig}), ["significance"])
    parser.add_argument(
        "--format", choices=("table", "csv", "tsv", "json"), default="table",
        help="a table to read (default), or csv, tsv, json for scripts")


def run(args: argparse.Namespace) -> int:
    from builder.contract import SUMMARY_TOPIC
    from builder.pipeline.stages import InputError, evaluate_task, read_task, validate_task
    from builder.stats.significance.per_topic import significance_of
    from builder.stats.significance.tables import format_significance

    try:
        settings = _settings(args)
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
        scores, kind.family, args.measures or [kind.official_measure], settings,
        runs=[r.name for r in inputs.accepted], require_all=True,
    )  # fmt: skip
    if unknown:
        known = sorted(set(scores.loc[scores["topic"] != SUMMARY_TOPIC, "measure"]))
        print(f"appendix compare: no per-topic scores for measure(s) {', '.join(unknown)} in "
              f"task kind {kind.name}; known: {', '.join(known)}", file=sys.stderr)  # fmt: skip
        return 2
    for warning in report.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "table":
        sys.stdout.write(format_table(report))
    elif args.format == "json":
        sys.stdout.write(report.table.to_json(orient="records", double_precision=15) + "\n")
    else:
        sys.stdout.write(format_significance(report.table, sep="\t" if args.format == "tsv" else ","))
    return 0


def _settings(args: argparse.Namespace) -> SignificanceSettings:
    """The tests the flags ask for, checked as the config's ``significance`` section."""
    from pydantic import ValidationError

    flags = model_flags({"significance": SignificanceConfig})
    given = {known.key: value for known, value in given_flags(args, flags).items()}
    try:
        return SignificanceConfig.model_validate(given).settings()
    except ValidationError as invalid:
        raise ValueError(readable_errors(invalid, flags)) from None


TABLE_COLUMNS = ("run A", "run B", "mean A", "mean B", "A-B", "95% CI", "p", "adj. p", "sig.")
NUMERIC_FROM = 2
"""Columns from this one on are numbers, aligned to the right."""


def format_table(report: SignificanceReport) -> str:
    """Per measure: the test in one line, then one aligned row per pair (``TABLE_COLUMNS``)."""
    blocks = []
    for measure, matrix in report.matrices.items():
        means = dict(zip(matrix.runs, matrix.means.tolist()))
        pairs = report.pairs(measure)
        rows = [list(TABLE_COLUMNS)]
        for row in pairs.itertuples(index=False):
            rows.append([
                str(row.run_a), str(row.run_b), _fixed(means.get(row.run_a)),
                _fixed(means.get(row.run_b)), _signed(row.mean_diff),
                f"[{_signed(row.ci_low)}, {_signed(row.ci_high)}]", _p(row.p_value),
                _p(row.p_adjusted), "yes" if row.significant else "no",
            ])  # fmt: skip
        widths = [max(len(r[c]) for r in rows) for c in range(len(TABLE_COLUMNS))]
        lines = [(f"{measure}: {report.settings.describe()}; {len(pairs)} pair"
                 f"{'s' * (len(pairs) != 1)}, {int(pairs['significant'].sum())} significant")]
        for row in rows:
            cells = [cell.rjust(width) if c >= NUMERIC_FROM else cell.ljust(width)
                     for c, (cell, width) in enumerate(zip(row, widths))]
            lines.append("  ".join(cells).rstrip())
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _fixed(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else f"{value:.4f}"


def _signed(value: float) -> str:
    return "" if math.isnan(value) else f"{value:+.4f}"


def _p(value: float) -> str:
    """4 decimals, or 2 significant digits below 0.0001 (never a misleading 0.0000)."""
    if math.isnan(value):
        return ""
    return f"{value:.4f}" if value >= 0.0001 or value == 0 else f"{value:.1e}"
