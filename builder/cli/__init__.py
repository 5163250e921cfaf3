"""The command line: ``appendix COMMAND ...``; each command lives in ``builder.cli.commands``.

A command module may define ``DESCRIPTION`` and ``EPILOG`` for its ``--help`` (shown as
written) and defines ``EXIT_STATUS``, the statuses it exits with, which ``--help`` ends with;
the top-level help (``USAGE_DESCRIPTION``, ``USAGE_EPILOG``) is for users. Every command takes
``-q``/``--quiet`` and ``-v``/``--verbose`` (``evaluate`` the long spellings only: its ``-q``
is trec_eval's per-topic flag, and trec_eval's ``-v`` its version), which set what the
command's console shows (``builder.cli.console``)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

COMMANDS: dict[str, str] = {
    "build": "Build the campaign's results site from its site_config.yml.",
    "archive": "Build the site and pack it with its inputs into one .tar.gz for a deposit.",
    "verify": "Check an archive or a site against its inputs: every file and every number.",
    "serve": "Build the site, serve it on this machine and rebuild it when an input changes.",
    "evaluate": "Score runs against qrels, printed like trec_eval or inex_eval.",
    "compare": "Which runs differ significantly: paired tests between every pair of runs.",
    "validate": "Check run files and print what is wrong with them, line by line.",
    "convert": "Convert an INEX run between FOL, element and INEX XML formats over an XML corpus.",
    "demo": "Write a small example campaign (qrels, topics, runs, config) into a folder.",
    "eprum": "EPRUM precision-recall (user navigation model) from a navigation table.",
    "stability": "How far the ranking of runs moves when judgements or topics are sampled.",
    "correlate": "How far measures agree: rank correlations between measures over runs and topics.",
    "ties": "Scores of each run with its tied documents ordered best, worst and on average.",
    "pool": "Build the judgement pool of the runs (depth-k, Take@N, fusion) for the assessors.",
}

COMMAND_MODULES: dict[str, str] = {
    "archive": "publishing.archive", "verify": "publishing.verify", "serve": "publishing.serve"}
"""The module of a command in ``builder.cli.commands`` when not its name: the commands that
take a built site further live together (``publishing``)."""


USAGE_DESCRIPTION = """\
Results of an information-retrieval evaluation campaign: score submitted runs against the
relevance judgements (qrels) exactly as trec_eval and inex_eval do, test which differences
between runs are significant, and publish it all as a static web site (a leaderboard per task,
a TREC-appendix page per run, per-topic pages, downloads) that works without a server."""

USAGE_EPILOG = """\
examples:
  appendix demo my-campaign                    write a small example campaign to try
  appendix build --config my-campaign/site_config.yml --out site
                                               build its site; open site/index.html
  cd my-campaign/adhoc                         then, with its ad hoc task's files:
  appendix evaluate qrels.txt runs/irisQL.txt runs/lakeLTR.txt
                                               scores, printed like trec_eval
  appendix compare qrels.txt runs/irisQL.txt runs/irisQLprf.txt runs/lakeLTR.txt
                                               is irisQLprf really better than irisQL?
  appendix validate runs/irisBroken.txt --qrels qrels.txt
                                               what is wrong with a run (errors: exit status 1)

Each command explains itself: appendix COMMAND --help, its exit statuses included.
Every command takes -q/--quiet (errors only) and -v/--verbose (more detail); evaluate spells
them --quiet and --verbose. Colour only on a terminal, never with NO_COLOR set."""


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from builder.version import __version__

        print(f"appendix {__version__}")  # to standard output, as argparse's version action
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or (``only``) with the arguments of that command alone:
    the others are listed by name only, so that a run of one command imports none of what the
    others need (the EPRUM options import every measure family). ``only=""``: every command by
    name only, all the top-level help shows."""
    parser = argparse.ArgumentParser(
        prog="appendix", description=USAGE_DESCRIPTION, epilog=USAGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                title="commands")
    for name, help_text in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(
            f"builder.cli.commands.{COMMAND_MODULES.get(name, name)}")
        epilog = "\n\n".join([*filter(None, [getattr(module, "EPILOG", None)]),
                               f"exit status:\n{module.EXIT_STATUS}"])
        command_parser = sub.add_parser(
            name, help=help_text, description=getattr(module, "DESCRIPTION", help_text),
            epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(command_parser)
        add_verbosity(command_parser, short=name not in LONG_VERBOSITY_ONLY)
        command_parser.set_defaults(handler=module.run, progress_lines=name in PROGRESS_LINES)
    return parser


LONG_VERBOSITY_ONLY = frozenset({"evaluate"})
"""Commands whose ``-q`` and ``-v`` are trec_eval's (per topic, version): ``--quiet`` and
``--verbose`` only."""

PROGRESS_LINES = frozenset({"build"})
"""Commands whose console shows a long stage's progress as plain lines when standard error is
not a terminal; the others, whose output is for scripts, keep it to findings and errors
unless ``--verbose`` (a bar on a terminal for all)."""


def add_verbosity(parser: argparse.ArgumentParser, short: bool = True) -> None:
    """``-q``/``--quiet`` and ``-v``/``--verbose`` (``short=False``: the long spellings only),
    as ``args.verbosity``: -1, 0 or 1."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(*(["-q"] if short else []), "--quiet", dest="verbosity",
                       action="store_const", const=-1, default=0,
                       help="print errors only: no progress, no findings of rejected runs")
    group.add_argument(*(["-v"] if short else []), "--verbose", dest="verbosity",
                       action="store_const", const=1,
                       help="print more: each task's detail, and progress lines from the "
                            "start of every long stage")


EXIT_INPUT = 2
"""Exit status of every command when an input cannot be used (argparse uses 2 for usage too)."""


def prepare_process() -> None:
    """What the command line sets for the process it runs in, before numpy is imported.

    numpy asks Linux for transparent huge pages on every large array unless told otherwise.
    Evaluation allocates and drops hundreds of MB of short-lived arrays, and faulting in fresh
    huge pages cost four times more than small pages on the machines we measured (first touch
    of 1 GB: 2.0 s against 0.5 s; ad hoc evaluation of TREC-COVID round 1: 1.05 s against
    0.65 s). numpy reads the variable when it is first imported, so it is set here, at the
    start of a command, and not when the package is imported (a library changes no
    environment); a value set by the user wins."""
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


@contextmanager
def config_limits(config: Path | None) -> Iterator[None]:
    """The input limits of a site config (its ``limits:``) for every read of a command given
    one (``--config`` of the commands that read inputs: ``builder.cli.flags``), as
    ``appendix build`` applies them; without one, the defaults. An invalid config is an
    ``InputError``: the command says it and reads nothing."""
    if config is None:
        yield
        return
    from builder.formats.limits import use_limits
    from builder.pipeline.stages import load_config

    with use_limits(load_config(config).config.limits):
        yield


def main(argv: Sequence[str] | None = None) -> int:
    prepare_process()
    from builder.cli.console import console
    from builder.cli.flags import LIMITS_CONFIG
    from builder.findings import InputError

    given = list(sys.argv[1:] if argv is None else argv)
    command = next((arg for arg in given if not arg.startswith("-")), None)
    args = build_parser(command if command in COMMANDS else "").parse_args(given)
    with console(args.verbosity, plain_progress=args.progress_lines):
        try:
            with config_limits(getattr(args, LIMITS_CONFIG, None)):
                return int(args.handler(args) or 0)
        except InputError as error:  # a user's file, not a fault of the program: no traceback
            print(f"appendix {args.command}: {error}", file=sys.stderr)
            return EXIT_INPUT
