"""``appendix archive FILE``: build the site, then pack it with its inputs into one file.

The same as ``appendix build --archive FILE`` (every option of ``build`` applies): one
``.tar.gz`` holding the inputs as the build read them, the site and a manifest (every file with
its SHA-256, the software's and its dependencies' versions, the build date, the config), and
``FILE.sha256`` beside it. Byte-identical for the same inputs and build date
(``SOURCE_DATE_EPOCH``). Exit status: as ``appendix build``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from builder.cli.commands import build

DESCRIPTION = __doc__.split("\n\n", 1)[1]
EXIT_STATUS = build.EXIT_STATUS  # it builds the site, as appendix build


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="the archive to write (.tar.gz); FILE.sha256 is written beside it")
    build.add_arguments(parser)
    parser.set_defaults(archive=None)


def run(args: argparse.Namespace) -> int:
    args.archive = args.file
    return build.run(args)
