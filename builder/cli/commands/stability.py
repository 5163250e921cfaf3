"""``appendix stability QRELS RUN...``: how far the system ranking moves under sampling.

Pool sampling keeps a random share of each topic's relevant units (documents, or highlighted
passages for INEX tasks) in the topics with at least ``--min-relevant`` of them, the others
left out of both rankings; topic sampling keeps a random share of the topics. Each sample
re-ranks the runs; the output compares that ranking with the one on the full qrels by Kendall's
tau and tau_ap, one row per sample and measure (``sample level iteration measure tau tau_ap``).
``--dump DIR`` writes each pool sample's qrels (``pool-LEVEL-ITERATION.qrels``, the studied
topics only), the qrels of the studied topics in full (``pool-full.qrels``) and each topic
sample's topic list (``topics-LEVEL-ITERATION.txt``). ``--error-rates`` prints the error and
swap rates instead (``measure level topics error_lower error_upper swap_rate``). The samples
are those of a site task's ``reliability`` section with the same settings and seed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from builder.cli.task_options import add_task_arguments

DEFAULT_LEVELS = "0.8,0.6,0.4,0.2"


def _levels(text: str) -> list[float]:
    try:
        levels = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not levels or any(not 0 < level <= 1 for level in levels):
        raise argparse.ArgumentTypeError(f"levels must be in (0, 1]: {text!r}")
    return levels


EXIT_STATUS = """\
  0    the table is printed
  1    a run was rejected (its findings say why)
  2    the qrels, a run file, an option or the --dump folder cannot be used"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from builder.config.significance import DEFAULT_SEED

    parser.add_argument("qrels", type=Path, metavar="QRELS", help="relevance judgements")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    add_task_arguments(parser)
    parser.add_argument("-m", "--measure", action="append", default=[], metavar="M",
                        help="measure, repeatable (default: the kind's official one)")
    parser.add_argument("--sample", choices=("pool", "topics"), action="append",
                        help="what to sample, repeatable (default: pool, then topics)")
    parser.add_argument("--levels", type=_levels, default=_levels(DEFAULT_LEVELS),
                        help=f"shares kept, comma-separated (default {DEFAULT_LEVELS})")
    parser.add_argument("--iterations", type=int, default=10, help="samples per level (10)")
    parser.add_argument("--min-relevant", type=int, default=10, metavar="N",
                        help="pool sampling studies the topics with at least N relevant units, "
                        "the others left out of both rankings (10)")
    parser.add_argument("--error-rates", action="store_true",
                        help="print the error and swap rates against topic-set size instead")
    parser.add_argument("--fuzziness", type=float, default=0.05,
                        help="error rates: smallest relative difference that orders two runs "
                        "(0.05)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the sampling (default {DEFAULT_SEED})")
    parser.add_argument("--dump", type=Path, metavar="DIR",
                        help="write each sample's qrels (pool) or topic list (topics) into DIR")
    parser.add_argument("--format", choices=("tsv", "json"), default="tsv")


def _label(level: float) -> str:
    return f"{level:g}"


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from builder.cli.task_input import TaskInputError, read_task_input
    from builder.formats.source import make_folder, write_output
    from builder.stats.reliability.rescoring import rescorer_for
    from builder.stats.reliability.stability import (
        STABILITY_COLUMNS,
        pool_sampling,
        streams,
        studied_topics,
        topic_sampling,
    )

    try:
        task = read_task_input(args, "stability")
    except TaskInputError as error:
        print(f"appendix stability: {error}", file=sys.stderr)
        return 2
    if task.runs is None:
        return task.status
    if args.iterations < 1:
        print("appendix stability: --iterations must be at least 1", file=sys.stderr)
        return 2
    rng = streams(args.seed)
    rescorer = rescorer_for(task.kind, task.qrels, task.runs, task.options, task.measures)
    full = rescorer.score(None)
    if args.error_rates:
        return _print_error_rates(args, rescorer.measures, full, rng["errors"], task.status)
    dump = args.dump
    studied = studied_topics(rescorer.unit_topic, len(rescorer.topics), args.min_relevant)
    if dump is not None:
        make_folder(dump)
        if "pool" in (args.sample or ["pool"]):
            write_output(dump / "pool-full.qrels", _of_topics(
                rescorer.sampled_qrels(np.ones(len(rescorer.unit_topic), bool)), rescorer.topics,
                studied))

    def write_qrels(level, iteration, keep, scores) -> None:
        if dump is not None:
            path = dump / f"pool-{_label(level)}-{iteration}.qrels"
            write_output(path, _of_topics(rescorer.sampled_qrels(keep), rescorer.topics, studied))

    def write_topics(level, iteration, chosen) -> None:
        if dump is not None:
            topics = [t for t, n in zip(rescorer.topics, chosen) if n]
            path = dump / f"topics-{_label(level)}-{iteration}.txt"
            write_output(path, "".join(f"{t}\n" for t in topics))

    tables = []
    for sample in args.sample or ["pool", "topics"]:
        if sample == "pool":
            tables.append(pool_sampling(rescorer, args.levels, args.iterations,
                                        args.min_relevant, rng["pool"], full, write_qrels))
        else:
            tables.append(topic_sampling(rescorer.measures, full, args.levels,
                                         args.iterations, rng["topics"], write_topics))
    import pandas as pd

    table = pd.concat(tables, ignore_index=True)[STABILITY_COLUMNS]
    if args.format == "json":
        sys.stdout.write(json.dumps(table.to_dict(orient="records")) + "\n")
    else:
        sys.stdout.write("\t".join(STABILITY_COLUMNS) + "\n")
        for row in table.itertuples(index=False):
            sys.stdout.write(f"{row.sample}\t{_label(row.level)}\t{row.iteration}\t{row.measure}"
                             f"\t{row.tau!r}\t{row.tau_ap!r}\n")
    return task.status


def _of_topics(qrels: str, topics: list[str], studied) -> str:
    """The lines of a qrels text (TREC or INEX: the topic first) of the studied topics."""
    keep = {topic for topic, chosen in zip(topics, studied) if chosen}
    return "".join(line for line in qrels.splitlines(keepends=True)
                   if line.split(maxsplit=1)[:1] and line.split(maxsplit=1)[0] in keep)


def _print_error_rates(args: argparse.Namespace, measures, full, rng, status: int) -> int:
    """The error-rate table (``ERROR_COLUMNS``) of the site's reliability page, in full
    precision."""
    from builder.stats.reliability.error_rate import ERROR_COLUMNS, error_rates

    if not 0 <= args.fuzziness < 1:
        print("appendix stability: --fuzziness must be in [0, 1)", file=sys.stderr)
        return 2
    if full.summary.shape[1] < 2:
        print("appendix stability: error rates need two runs or more", file=sys.stderr)
        return 2
    table = error_rates(measures, full, args.levels, args.iterations, args.fuzziness, rng)
    if args.format == "json":
        sys.stdout.write(json.dumps(table.to_dict(orient="records")) + "\n")
    else:
        sys.stdout.write("\t".join(ERROR_COLUMNS) + "\n")
        for row in table.itertuples(index=False):
            sys.stdout.write("\t".join([row.measure, _label(row.level), str(row.topics),
                                        *(repr(float(v)) for v in row[3:])]) + "\n")
    return status
