"""``appendix verify ARCHIVE_OR_SITE``: check that an archive or a published site still says
what its inputs say.

Every file is checked against its recorded SHA-256 (the archive's manifest, the site's
SHA256SUMS), every archived input against the SHA-256 the build recorded, and every published
number (each score table and download) against the site built again from the archived inputs.

Exit status: 0 when all holds; 1 when an input, a page or a number differs (the first
differences listed: file, row, expected, found); 2 when it cannot tell (not an archive nor a
site, a newer archive format, a missing input). A site built without ``publish_inputs`` is
checked file by file and says that its numbers could not be checked again (exit 0).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DESCRIPTION = __doc__.split("\n", 1)[1].strip()

EXIT_STATUS = """\
  0    every file, input and published number holds (or, for a site built without
       publish_inputs, every file: its numbers could not be checked again, and it says so)
  1    an input, a page or a number differs: the first differences listed (file, row,
       expected, found)
  2    it cannot tell: not an archive nor a site, a newer archive format, a missing input"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, metavar="ARCHIVE_OR_SITE",
                        help="an archive (.tar.gz, or its extracted folder) or a site folder")
    parser.add_argument("--shown", type=int, default=20, metavar="N",
                        help="differences listed at most (default: 20)")


def run(args: argparse.Namespace) -> int:
    from builder.archive.verify import Verdict, verify

    report = verify(args.path)
    for line in report.lines(args.shown):
        print(line, file=sys.stderr if report.verdict else sys.stdout)
    words = {Verdict.HOLDS: "verified", Verdict.DIFFERS: "differs",
             Verdict.UNKNOWN: "cannot tell"}
    print(f"appendix verify: {args.path.name}: {words[report.verdict]}",
          file=sys.stderr if report.verdict else sys.stdout)
    return int(report.verdict)
