"""The command line: ``appendix COMMAND ...``; each command lives in ``builder.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from builder import __version__

COMMANDS: dict[str, str] = {
    "evaluate": "Evaluate runs against qrels (trec_eval / inex_eval compatible output).",
    "validate": "Check run files and print their findings.",
    "compare": "Significance tests between runs.",
    "build": "Build the campaign's static results site.",
    "convert": "Convert an INEX run between FOL, element and INEX XML formats over an XML corpus.",
    "demo": "Write the deterministic demo campaign into a folder.",
    "eprum": "EPRUM precision-recall (user navigation model) from a navigation table.",
    "stability": "How far the ranking of runs moves when judgements or topics are sampled.",
    "ties": "Scores of each run with its tied documents ordered best, worst and on average.",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="appendix", description=__doc__)
    parser.add_argument("--version", action="version", version=f"appendix {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"builder.commands.{name}")
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command_parser)
        command_parser.set_defaults(handler=module.run)
    return parser


EXIT_INPUT = 2
"""Exit status of every command when an input cannot be used (argparse uses 2 for usage too)."""


def main(argv: Sequence[str] | None = None) -> int:
    from builder.findings import InputError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except InputError as error:  # a user's file, not a fault of the program: no traceback
        print(f"appendix {args.command}: {error}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
