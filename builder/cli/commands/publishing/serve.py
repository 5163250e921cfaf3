"""``appendix serve``: build the site, serve it on this machine and rebuild it when an input
changes.

Watches the config, the qrels, topics, run metadata and run files it names (a run added or
removed too) and the templates; on a change it rebuilds (only the runs that changed are
evaluated again) and every open page reloads itself. When a build fails (a broken config, an
unusable input), its error is printed and shown on every page, and the last good site stays
served. Ctrl-C stops it; the temporary output folder is removed (unless --out was given).

Exit status: 0 when stopped by Ctrl-C or SIGTERM; 2 when the first build fails and there is no
site to serve, or the address cannot be bound.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

DESCRIPTION = __doc__.split("\n", 1)[1].strip()

EXIT_STATUS = """\
  0    stopped by Ctrl-C (SIGINT) or SIGTERM
  2    the first build failed and there is no site to serve, or the address cannot be bound"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=Path("site_config.yml"),
                        help="the site's config file (default: site_config.yml)")
    parser.add_argument("--out", type=Path, default=None,
                        help="build into this folder and keep it (default: a temporary "
                             "folder, removed when the server stops)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000,
                        help="the port to listen on (default: 8000; 0: any free port)")
    parser.add_argument("--clean", action="store_true",
                        help="evaluate every run at the first build, not taking the "
                             "evaluations kept from an earlier build into --out")


def run(args: argparse.Namespace) -> int:
    from builder.serve.preview import NothingToServe, preview

    def terminate(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    # Both stop it, whatever the process was started with (a shell's background job ignores
    # SIGINT unless told otherwise).
    previous = {number: signal.signal(number, terminate)
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        preview(args.config, args.out, args.host, args.port, clean=args.clean)
    except KeyboardInterrupt:
        print("appendix serve: stopped", file=sys.stderr)
        return 0
    except NothingToServe as error:
        print(f"appendix serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the address is in use, or cannot be bound
        print(f"appendix serve: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 2
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0
