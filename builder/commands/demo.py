"""``appendix demo DIR``: write the deterministic demo campaign into a folder."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=Path, metavar="DIR",
                        help="folder to write into (created if missing; files are overwritten)")


def run(args: argparse.Namespace) -> int:
    from builder.demo import write_demo

    for folder in write_demo(args.directory):
        print(f"wrote {folder}")
    return 0
