"""``appendix build``: validate and evaluate every run, and publish the campaign's site.

Exit status: 0 when the site is built (even with rejected runs); 1 when runs were rejected
and ``--strict`` is given (nothing is published); 2 for an invalid config or unusable input
files (qrels, topics, run metadata), an output folder that cannot be replaced or written (a
full or read-only disk) or that another build is writing; 130 when interrupted by Ctrl-C
(SIGINT), 143 by SIGTERM (128 and the signal's number, as shells report it), with the staging
folder removed and, unless the swap had completed, the previous site as it was.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from builder.cli.scale import add_scale_arguments, scale_of

if TYPE_CHECKING:
    from builder.building import BuildSummary

EXIT_STRICT = 1
EXIT_CONFIG = 2


EXIT_STATUS = """\
  0    the site is published (even with rejected runs: the site lists them)
  1    --strict and a run was rejected: nothing is published
  2    the config or an input (qrels, topics, run metadata) cannot be used, or the output
       cannot be replaced or written (a full or read-only disk, another build writing it)
  130  interrupted by Ctrl-C (SIGINT), 143 by SIGTERM: the previous site is as it was
       unless the line printed says the new one had already replaced it"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=Path("site_config.yml"),
                        help="the site's config file (default: site_config.yml)")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: the config's 'output', relative to it)")
    parser.add_argument("--strict", action="store_true",
                        help="fail, publishing nothing, if any run is rejected")
    parser.add_argument(
        "--team", metavar="TEAM",
        help="build a bundle for one team (by the run metadata's team column) to send before "
             "the results are public: its runs in full, every other run by rank and scores "
             "only, without name, team or description (default output: the config's output "
             "folder suffixed with -team-TEAM)")
    parser.add_argument(
        "--incremental", action="store_true",
        help="keep each run's evaluation in .OUTPUT-cache beside the output, keyed by the "
             "bytes of the run, the qrels and the options, and evaluate only the runs that "
             "changed since the last such build; the site is the same as a clean build's "
             "(worth it where evaluating is the costly part: see the docs)")
    parser.add_argument(
        "--base-url", metavar="URL",
        help="the address the site is published at, sub-path included "
             "(https://example.org/trec-browser/), instead of the config's site_url: "
             "canonical links, sitemap.xml and the 404 page use it")
    parser.add_argument(
        "--archive", type=Path, metavar="FILE",
        help="also pack the inputs as read, the site and its manifest into FILE (.tar.gz), "
             "with FILE.sha256 beside it, for a repository deposit (appendix archive)")
    add_scale_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from builder.building import Interrupted, stopped_by_signals

    try:
        with stopped_by_signals():
            return _build(args)
    except (Interrupted, KeyboardInterrupt) as stop:
        stop = stop if isinstance(stop, Interrupted) else Interrupted(signal.SIGINT)
        outcome = ("after the new site was published" if stop.published else
                   "before publishing; the previous site, if any, is unchanged")
        print(f"appendix build: interrupted by {stop.name} {outcome}", file=sys.stderr)
        return 128 + stop.signum


def _build(args: argparse.Namespace) -> int:
    from builder.building import Progress, StrictError, build
    from builder.config.loading import ConfigError
    from builder.config.schema import site_address
    from builder.pipeline.execution.cluster import SchedulerError
    from builder.pipeline.stages import InputError
    from builder.pipeline.team import TeamError
    from builder.site.publish import PublishError

    try:
        scale = scale_of(args, extras=True)
        if args.base_url is not None:
            site_address(args.base_url)
    except ValueError as exc:
        print(f"appendix build: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    from builder.archive.pack import ArchiveError

    try:
        summary = build(args.config, out=args.out, strict=args.strict,
                        progress=Progress(quiet=args.verbosity < 0), team=args.team,
                        scale=scale, base_url=args.base_url, cache=args.incremental)
        if args.archive is not None:
            _archive(args, summary)
    except ConfigError as exc:
        print(f"appendix build: invalid config {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except (InputError, PublishError, TeamError, SchedulerError, ArchiveError) as exc:
        print(f"appendix build: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except StrictError as exc:
        print(f"appendix build: {exc}", file=sys.stderr)
        return EXIT_STRICT
    except OSError as exc:  # a full or read-only disk: nothing was published
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"appendix build: cannot write the site{where}: {exc.strerror or exc}; the "
              "previous site, if any, is unchanged", file=sys.stderr)
        return EXIT_CONFIG
    return 0


def _archive(args: argparse.Namespace, built: BuildSummary) -> None:
    """``--archive FILE``: the site just built and its inputs, packed (``builder.archive``)
    from the config the build read."""
    from builder.archive.pack import pack

    checksum = pack(built.spec, built.output, args.archive)
    if args.verbosity >= 0:
        print(f"archived {args.archive} ({checksum.read_text(encoding='utf-8').split()[0]})",
              file=sys.stderr)
