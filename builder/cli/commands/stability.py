"""``appendix stability QRELS RUN...``: how far the system ranking moves under sampling.

Pool sampling keeps a random share of each topic's relevant units (documents, or highlighted
passages for INEX tasks) in topics with at least ``--min-relevant`` of them; topic sampling keeps
a random share of the topics. Each sample re-ranks the runs; the output compares that ranking
with the one on the full qrels by Kendall's tau and tau_ap, one row per sample and measure
(``sample level iteration measure tau tau_ap``). ``--dump DIR`` writes each pool sample's qrels
(``pool-LEVEL-ITERATION.qrels``) and each topic sample's topic list (``topics-LEVEL-ITERATION.txt``).
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
                        help="pool sampling only touches topics with at least N relevant units (10)")
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
    from builder.stats.reliability.stability import STABILITY_COLUMNS, pool_sampling, topic_sampling

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
    rng = np.random.default_rng(args.seed)
    rescorer = rescorer_for(task.kind, task.qrels, task.runs, task.options, task.measures)
    dump = args.dump
    if dump is not None:
        make_folder(dump)

    def write_qrels(level, iteration, keep, scores) -> None:
        if dump is not None:
            path = dump / f"pool-{_label(level)}-{iteration}.qrels"
            write_output(path, rescorer.sampled_qrels(keep))

    def write_topics(level, iteration, chosen) -> None:
        if dump is not None:
            topics = [t for t, n in zip(rescorer.topics, chosen) if n]
            path = dump / f"topics-{_label(level)}-{iteration}.txt"
            write_output(path, "".join(f"{t}\n" for t in topics))

    full = rescorer.score(None)
    tables = []
    for sample in args.sample or ["pool", "topics"]:
        if sample == "pool":
            tables.append(pool_sampling(rescorer, args.levels, args.iterations,
                                        args.min_relevant, rng, full, write_qrels))
        else:
            tables.append(topic_sampling(rescorer.measures, full, args.levels,
                                         args.iterations, rng, write_topics))
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
