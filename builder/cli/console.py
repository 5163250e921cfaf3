"""What the command line shows on standard error: the records of the ``builder`` loggers.

The stages tell their loggers (``builder.read``, ``builder.evaluate``, ``builder.render``, ...)
where they are (``builder.contract.StageProgress``) and what they did (``builder.build``'s
stage lines, findings, summary); this handler, installed by ``builder.cli.main`` for the time
of one command, draws them:

- on a terminal, how far a long stage is as one line redrawn in place with a carriage return
  (a bar, at most ``BAR_EVERY`` apart), wiped before the next line is written;
- elsewhere (a pipe, a file, CI logs), plain lines: one each time the stage crosses a tenth of
  its work (ten lines for 1,000 files, not 1,000), once the stage has run ``PLAIN_AFTER``
  seconds (a quick stage says nothing but its line at the end), or from the start with
  ``--verbose``;
- colour (errors red, warnings yellow, the stage numbers bold) only on a terminal, never with
  ``NO_COLOR`` set (https://no-color.org) or ``TERM=dumb``; without colour no escape sequence
  at all is written (the bar is wiped with spaces).

Verbosity: ``-q``/``--quiet`` shows errors only, ``-v``/``--verbose`` adds the records of level
DEBUG (each task's detail) and the plain progress lines of quick stages.

Written here rather than with tqdm or rich (both well kept, on PyPI): the progress has to go
through ``logging`` anyway, so that a caller of the API can route it, and what is left to draw
is one line rewritten with ``\\r``. tqdm would need its logging bridge
(``tqdm.contrib.logging``) and keeps its own idea of the stream and of when to draw; rich
brings pygments and markdown-it to draw one line. Neither gives the plain lines a pipe needs.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

BAR_EVERY = 0.1
"""Seconds between two drawings of the bar: at most ten a second."""

PLAIN_AFTER = 1.0
"""Seconds a stage runs before its plain progress lines start (without ``--verbose``)."""

PLAIN_UNKNOWN_EVERY = 5.0
"""Seconds between two plain lines of a stage whose total is not known ahead."""

_STYLE = {logging.ERROR: "31", logging.WARNING: "33", logging.DEBUG: "2"}


def wants_colour(stream: TextIO) -> bool:
    """Colour on a terminal only, and never with ``NO_COLOR`` set to anything but empty."""
    return (_is_terminal(stream) and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class ConsoleHandler(logging.Handler):
    """The ``builder`` records on ``stream`` (standard error as it is when a record comes, so
    that a test capturing it sees them): a bar on a terminal, plain lines elsewhere.

    verbose: plain progress lines from a stage's start, not only after ``PLAIN_AFTER``.
    plain_progress: plain progress lines at all without ``verbose`` (``appendix build``; the
    commands whose output is for scripts, as ``evaluate``, keep standard error to findings
    and errors unless asked)."""

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False,
                 plain_progress: bool = True) -> None:
        super().__init__(logging.DEBUG)
        self._stream = stream
        self.verbose, self.plain_progress = verbose, plain_progress
        self._bar = 0  # width of the bar line drawn, 0 when none is
        self._drawn: tuple[str, float] = ("", float("-inf"))  # (stage, when) of the last bar
        # stage -> (start, tenth and time of the last plain line, count of the last record)
        self._plain: dict[str, tuple[float, int, float, int]] = {}

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    def emit(self, record: logging.LogRecord) -> None:
        try:
            progress = getattr(record, "progress", None)
            stage = record.name.rpartition(".")[2]
            if progress is not None:
                self._progress(stage, *progress)
                return
            if getattr(record, "stage", None) is not None:
                self._plain.pop(stage, None)  # the stage ended: a next one starts afresh
            self._write(self._styled(record) + "\n")
        except Exception:  # noqa: BLE001 - logging's own convention: report, never raise
            self.handleError(record)

    def _progress(self, stage: str, done: int, total: int | None, unit: str) -> None:
        now = time.monotonic()
        of = f"/{total}" if total is not None else ""
        if _is_terminal(self.stream):
            last_stage, last = self._drawn
            if stage == last_stage and now - last < BAR_EVERY and done != total:
                return
            self._drawn = (stage, now)
            self._draw_bar(f"      {stage:<9} ", f" {done}{of} {unit}", done, total)
            return
        start, tenth, when, before = self._plain.setdefault(stage, (now, -1, now, 0))
        if done <= before:  # a new count in the same stage (the next task's files)
            tenth = -1
        self._plain[stage] = (start, tenth, when, done)
        if not (self.verbose or (self.plain_progress and now - start >= PLAIN_AFTER)):
            return
        if total:
            now_tenth = done * 10 // total
            if now_tenth <= tenth:
                return
            self._plain[stage] = (start, now_tenth, now, done)
            self._write(f"      {stage:<9} {done}{of} {unit} ({100 * done // total}%)\n")
        elif now - when >= PLAIN_UNKNOWN_EVERY or tenth < 0:
            self._plain[stage] = (start, 0, now, done)
            self._write(f"      {stage:<9} {done} {unit}\n")

    def _draw_bar(self, head: str, tail: str, done: int, total: int | None) -> None:
        width = shutil.get_terminal_size((80, 24)).columns - 1
        room = max(width - len(head) - len(tail) - 2, 0)
        if total and room >= 10:
            full = "█" if "utf" in (getattr(self.stream, "encoding", "") or "").lower() else "#"
            filled = min(room * done // total, room)
            bar = "[" + full * filled + " " * (room - filled) + "]"
        else:
            bar = ""
        line = (head + bar + tail)[:width]
        self.stream.write("\r" + line.ljust(self._bar))  # spaces over a longer line before
        self.stream.flush()
        self._bar = max(len(line), self._bar)

    def wipe(self) -> None:
        """Remove the bar, if one is drawn (with spaces: no escape sequence)."""
        if self._bar:
            self.stream.write("\r" + " " * self._bar + "\r")
            self.stream.flush()
            self._bar = 0

    def _write(self, text: str) -> None:
        self.wipe()
        self.stream.write(text)
        self.stream.flush()

    def _styled(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        stage = record.name.rpartition(".")[2]
        if record.levelno == logging.DEBUG and record.name.count(".") == 1 and stage != "build":
            text = f"      {stage:<9} {text}"  # a stage's detail, under its progress lines
        if not wants_colour(self.stream):
            return text
        if getattr(record, "stage", None) is not None:
            number, _, rest = text.partition(" ")
            return f"\033[1m{number}\033[0m {rest}"
        style = _STYLE.get(record.levelno)
        return f"\033[{style}m{text}\033[0m" if style else text


def level_of(verbosity: int) -> int:
    """The ``builder`` loggers' level for ``-q`` (-1), neither (0) or ``-v`` (1)."""
    return logging.ERROR if verbosity < 0 else logging.DEBUG if verbosity > 0 else logging.INFO


@contextmanager
def console(verbosity: int = 0, plain_progress: bool = True) -> Iterator[ConsoleHandler]:
    """The ``builder`` loggers drawn on standard error for the time of one command (so that
    commands run one after the other in one process, as the tests do, each get their own),
    and not passed on to the root logger, which a program embedding the command line may have
    set up for itself."""
    logger = logging.getLogger("builder")
    handler = ConsoleHandler(verbose=verbosity > 0, plain_progress=plain_progress)
    before = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(level_of(verbosity))
    logger.propagate = False
    try:
        yield handler
    finally:
        handler.wipe()
        logger.removeHandler(handler)
        logger.setLevel(before[0])
        logger.propagate = before[1]
