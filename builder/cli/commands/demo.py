"""``appendix demo DIR``: write the deterministic demo campaign and its ``site_config.yml`` into
a folder."""

from __future__ import annotations

import argparse
from pathlib import Path

EXIT_STATUS = """\
  0    the campaign is written"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=Path, metavar="DIR",
                        help="folder to write into (created if missing; files are overwritten)")


def run(args: argparse.Namespace) -> int:
    from builder.demo import write_demo
    from builder.findings import FindingCode, InputError
    from builder.formats.source import open_problem

    try:
        written = write_demo(args.directory)
    except OSError as error:  # a folder the user named that cannot be written to
        where = error.filename or args.directory
        raise InputError.at(str(where), None, FindingCode.OUTPUT,
                            open_problem(error, "write")) from None
    for path in written:
        print(f"wrote {path}")
    return 0
