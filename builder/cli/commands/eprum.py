"""``appendix eprum NAVIGATION.tsv``: EPRUM precision-recall from a navigation table.

Per topic: precision at each natural recall point (``P[r=1]``, ...), at the 11 standard recall
levels (``P[0.00]`` ... ``P[1.00]``), the ideal list's expected search length (``ML*[r=1]``,
...) and the EPRUM average (``avgP``); topic ``all`` holds the means over topics of the
levels and of the average. ``--format tsv`` prints ``topic<TAB>measure<TAB>value`` at full
precision. The table's layout is in ``builder.formats.eprum.navigation``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TEXT_NAME_WIDTH = 22
SUMMARY_TOPIC = "all"


EXIT_STATUS = """\
  0    the scores are printed
  2    the navigation table cannot be used, or an option is out of range"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from builder.cli.flags import add_config_argument
    from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT

    parser.add_argument("navigation", type=Path, help="navigation table: topic rank element probability")
    add_config_argument(parser)
    parser.add_argument("--format", choices=["text", "tsv"], default="text")
    parser.add_argument(
        "--exact-limit",
        type=int,
        default=DEFAULT_EXACT_LIMIT,
        metavar="N",
        help="exact P(F_k = f) up to N uncertain elements at a rank, "
        f"normal approximation above (default {DEFAULT_EXACT_LIMIT})",
    )
    parser.add_argument(
        "--ideal-lists", choices=["per_recall", "one"], default="per_recall",
        help="E[ML*_r]: the best order of the ideal list's ranks for each recall r (default; "
        "exact up to 7 ranks, an upper bound above), or the ideal list as given for every r")


def run(args: argparse.Namespace) -> int:
    from builder.formats.eprum.navigation import NavigationError, read_navigation
    from builder.measures.eprum.scores import (
        IdealSet,
        above_one,
        ordered_rows,
        score_rows,
        topic_results,
    )
    from builder.measures.eprum.transitions import composed_table

    try:
        table = read_navigation(args.navigation)
    except NavigationError as error:
        print(error, file=sys.stderr)
        return 2
    if args.exact_limit < 0:
        print("appendix eprum: --exact-limit must be 0 or more", file=sys.stderr)
        return 2
    try:
        navigation = composed_table(table.navigation, table.transitions).assign(run="")
        ideal = IdealSet(table.elements, composed_table(table.ideal_navigation, table.transitions))
    except ValueError as error:
        print(f"{args.navigation}: error: {error}", file=sys.stderr)
        return 2
    results = topic_results(navigation, ideal, [""], exact_limit=args.exact_limit,
                            ideal_lists=args.ideal_lists)
    rows = ordered_rows(score_rows(results), SUMMARY_TOPIC)
    for row in above_one(rows).itertuples(index=False):
        print(f"{args.navigation}: warning: topic {row.topic}: {row.measure} = {row.value:.4f} "
              "is above 1 (EPRUM's E[ML*] E[A/ML]; see the measures reference)", file=sys.stderr)
    if args.format == "tsv":
        out = [f"{t}\t{m}\t{v!r}\n" for t, m, v in zip(rows["topic"], rows["measure"], rows["value"].tolist())]
    else:
        out = [
            f"{m:<{TEXT_NAME_WIDTH}}\t{t}\t{v:.4f}\n"
            for t, m, v in zip(rows["topic"], rows["measure"], rows["value"].tolist())
        ]
    sys.stdout.write("".join(out))
    return 0
