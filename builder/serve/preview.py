"""The preview loop: build, serve, watch, build again (``builder.serve``)."""

from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from builder.building import Progress, build
from builder.config.schema import SiteSpec
from builder.findings import InputError
from builder.serve.http import BuildState, make_server
from builder.serve.watch import changed, snapshot, watched_folders
from builder.site.manifest import MANIFEST_NAME
from builder.site.publish import PublishError
from builder.site.render import TEMPLATES


class NothingToServe(Exception):
    """The first build failed and the output holds no earlier site of ours to serve."""


LOOK_EVERY = 0.5
"""Seconds between two looks at the watched files."""
SETTLE = 0.2
"""Seconds a change is left to settle (an editor writing a file in several steps) before the
build starts."""


def preview(config: Path, out: Path | None, host: str, port: int, clean: bool = False,
            console: TextIO | None = None, stop: threading.Event | None = None,
            on_ready: Callable[[str], None] | None = None) -> None:
    """Serve the site of ``config`` at ``host:port`` until ``stop`` is set or Ctrl-C
    (``KeyboardInterrupt``, which propagates once everything is stopped). ``out``: the output
    folder (default: a temporary one, removed at the end). ``clean``: no evaluation taken
    from the last build's cache (the cache is still kept for the next ones)."""
    console = console or sys.stderr
    stop = stop or threading.Event()
    scratch = None if out is not None else Path(tempfile.mkdtemp(prefix="appendix-serve-"))
    output = Path(out).resolve() if out is not None else scratch / "site"
    state = BuildState()
    server = None
    thread = None
    try:
        site = _build(config, output, state, console, cache=not clean)
        if not (output / MANIFEST_NAME).is_file():  # no site of ours to fall back on
            raise NothingToServe(f"cannot serve: the first build failed ({state.error})")
        server = make_server(output, host, port, state)
        thread = threading.Thread(target=server.serve_forever, name="appendix-serve",
                                  daemon=True)
        thread.start()
        address = f"http://{host}:{server.server_address[1]}/"
        print(f"serving {address} (Ctrl-C to stop)", file=console, flush=True)
        if on_ready is not None:
            on_ready(address)
        templates = TEMPLATES
        folders = watched_folders(config, site, templates)
        seen = snapshot(config, folders, templates)
        while not stop.wait(LOOK_EVERY):
            now = snapshot(config, folders, templates)
            names = changed(seen, now)
            if not names:
                continue
            time.sleep(SETTLE)
            more = " ..." if len(names) > 3 else ""
            print(f"changed: {', '.join(Path(p).name for p in names[:3])}{more}; rebuilding",
                  file=console, flush=True)
            # Taken before the build, so that a change made while it runs starts another.
            seen = snapshot(config, folders, templates)
            rebuilt = _build(config, output, state, console, cache=True)
            if rebuilt is not None:
                site = rebuilt
                now_folders = watched_folders(config, site, templates)
                if now_folders != folders:  # a task added: its files are not changes
                    seen = {**snapshot(config, now_folders, templates), **seen}
                    folders = now_folders
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _build(config: Path, output: Path, state: BuildState, console: TextIO,
           cache: bool) -> SiteSpec | None:
    """One build into ``output``; its error, if any, recorded in ``state`` and printed, the
    previous site left as it was. The config it built from, or None."""
    try:
        # progress as lines: the command line's logging
        built = build(config, out=output, progress=Progress(), cache=cache)
    except (InputError, PublishError, OSError, ValueError) as error:
        message = str(error)
        print(f"appendix serve: the site could not be rebuilt: {message}", file=console,
              flush=True)
        state.failed(message)
        return None
    state.succeeded()
    return built.spec  # what to watch now: the config the site was built from
