"""Reading under the input limits (``builder.formats.limits``): a file's size, its gunzipped
size and its longest line checked as the bytes come, so that no input is held in memory
beyond them, whatever its size or compression.

A regular file's lines are checked before it is read or mapped, by reading a few bytes at
each of its ``line // 2`` byte windows: a line longer than ``line`` bytes covers a whole
window with no line end, and a window holds one within a line's length of its start, so a
426 MB run costs about 800 reads of 4 KiB (no pass over the file). A stream (gzip data as it
is unpacked, the standard input) is checked piece by piece, the line open at a piece's end
carried to the next. Hand-written: no library bounds a line without reading it whole.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import BinaryIO

from builder.findings import FindingCode, InputError
from builder.formats.limits import InputLimits, size_text

GZIP_MAGIC = b"\x1f\x8b"
PIECE = 1 << 20
"""How many bytes a stream is read, and unpacked, at a time."""
PEEK = 1 << 12
"""The first read of a search for a line end (most lines are shorter)."""
OUT_OF_MEMORY = "cannot read: the file does not fit in the memory available"

ReadAt = Callable[[int, int], bytes]
"""``read_at(offset, count)``: up to ``count`` bytes of a file or buffer from ``offset``."""


def check_size(file: str, size: int, limits: InputLimits) -> None:
    """``InputError`` when a file of ``size`` bytes is beyond ``limits.file``."""
    if size > limits.file:
        raise InputError.at(file, None, FindingCode.TOO_LARGE,
                            f"the file is larger than {size_text(limits.file)} (limits: file)")


def _line_too_long(file: str, line: int, limits: InputLimits) -> InputError:
    return InputError.at(file, line, FindingCode.TOO_LARGE,
                         f"the line is longer than {size_text(limits.line)} (limits: line)")


def _find(read_at: ReadAt, start: int, end: int) -> int:
    """The first line end in ``[start, end)``, or -1; read in growing pieces."""
    count = PEEK
    while start < end:
        piece = read_at(start, min(count, end - start))
        if not piece:
            return -1
        found = piece.find(b"\n")
        if found >= 0:
            return start + found
        start += len(piece)
        count = min(count * 4, PIECE)
    return -1


def _rfind(read_at: ReadAt, start: int, end: int) -> int:
    """The last line end in ``[start, end)``, or -1; read backwards in pieces."""
    while end > start:
        at = max(start, end - PIECE)
        found = read_at(at, end - at).rfind(b"\n")
        if found >= 0:
            return at + found
        end = at
    return -1


def first_long_line(read_at: ReadAt, size: int, limit: int) -> int | None:
    """Where the first line longer than ``limit`` bytes (its line end aside) starts, or None.

    A line of ``limit + 1`` bytes or more holds a whole window ``[k * step, (k + 1) * step)``
    of ``step = limit // 2`` bytes, with no line end: only such windows are looked at
    further, from their line's start."""
    step = max(limit // 2, 1)
    checked = 0  # the bytes before are in lines known not to be too long
    for window in range(0, size, step):
        if window < checked or _find(read_at, window, min(window + step, size)) >= 0:
            continue
        start = _rfind(read_at, max(0, window - limit - 1), window) + 1
        start = max(start, checked)
        end = _find(read_at, start, min(size, start + limit + 1))
        if end < 0 and size - start > limit:
            return start
        checked = size if end < 0 else end + 1
    return None


def _count_lines(read_at: ReadAt, end: int) -> int:
    """The number of line ends in the first ``end`` bytes, read in pieces."""
    return sum(read_at(at, min(PIECE, end - at)).count(b"\n") for at in range(0, end, PIECE))


def check_lines_of(descriptor: int, size: int, file: str, limits: InputLimits) -> None:
    """``InputError`` at the first line of the open file longer than ``limits.line``."""

    def read_at(offset: int, count: int) -> bytes:
        return os.pread(descriptor, count, offset)

    start = first_long_line(read_at, size, limits.line)
    if start is not None:
        raise _line_too_long(file, _count_lines(read_at, start) + 1, limits)


class _Lines:
    """The line check of a stream fed piece by piece: line ends seen, the open line's length."""

    def __init__(self, file: str, limits: InputLimits) -> None:
        self.file, self.limits = file, limits
        self.ends = 0
        self.open = 0

    def feed(self, piece: bytes) -> None:
        first = piece.find(b"\n")
        if first < 0:
            self.open += len(piece)
            if self.open > self.limits.line:
                raise _line_too_long(self.file, self.ends + 1, self.limits)
            return
        if self.open + first > self.limits.line:
            raise _line_too_long(self.file, self.ends + 1, self.limits)
        last = piece.rfind(b"\n")
        inner = first_long_line(lambda at, count: piece[first + 1 + at:min(first + 1 + at + count,
                                                                            last)],
                                last - first - 1, self.limits.line)
        if inner is not None:
            line = self.ends + 1 + piece.count(b"\n", 0, first + 1 + inner)
            raise _line_too_long(self.file, line, self.limits)
        self.ends += piece.count(b"\n")
        self.open = len(piece) - last - 1
        if self.open > self.limits.line:
            raise _line_too_long(self.file, self.ends + 1, self.limits)


def read_stream(stream: BinaryIO, file: str, limits: InputLimits) -> bytes:
    """The bytes of ``stream`` (gunzipped when they start with the gzip magic number), read a
    piece at a time, each checked against ``limits`` before the next is read."""
    head = stream.read(2)
    lines = _Lines(file, limits)
    if head == GZIP_MAGIC:
        return _gunzip(stream, head, file, limits, lines)
    pieces, total = [head], len(head)
    lines.feed(head)
    while piece := stream.read(PIECE):
        total += len(piece)
        check_size(file, total, limits)
        lines.feed(piece)
        pieces.append(piece)
    return b"".join(pieces)


def _gunzip(stream: BinaryIO, pending: bytes, file: str, limits: InputLimits,
            lines: _Lines) -> bytes:
    """Every gzip member of the stream, unpacked ``PIECE`` bytes at a time; truncated data,
    trailing bytes that are not gzip data, and more than ``limits.decompressed`` bytes are
    errors."""
    from isal import isal_zlib

    out: list[bytes] = []
    read, unpacked = len(pending), 0
    inflater = None
    ended = False  # the stream has no more bytes
    try:
        while True:
            if len(pending) < 2 and not ended:
                more = stream.read(PIECE)
                read += len(more)
                check_size(file, read, limits)
                ended = not more
                pending += more
                continue
            if inflater is None:
                if not pending:
                    break
                if pending[:2] != GZIP_MAGIC:
                    rest = len(pending) + sum(map(len, iter(lambda: stream.read(PIECE), b"")))
                    raise InputError.at(file, None, FindingCode.UNREADABLE,
                                        f"cannot read: {rest} bytes that are not gzip data "
                                        "follow the gzip data")
                inflater = isal_zlib.decompressobj(31)  # 16 + 15: a gzip header, any window
            piece = inflater.decompress(pending, PIECE)
            pending = inflater.unconsumed_tail
            unpacked += len(piece)
            if unpacked > limits.decompressed:
                raise InputError.at(file, None, FindingCode.TOO_LARGE,
                                    "gunzipped, the file is larger than "
                                    f"{size_text(limits.decompressed)} (limits: decompressed)")
            lines.feed(piece)
            out.append(piece)
            if inflater.eof:
                pending, inflater = inflater.unused_data, None
            elif not pending and ended and not piece:
                raise InputError.at(file, None, FindingCode.UNREADABLE,
                                    "cannot read: the gzip data is truncated")
    except isal_zlib.error as error:
        raise InputError.at(file, None, FindingCode.UNREADABLE,
                            f"cannot read: not valid gzip data ({error})") from None
    return b"".join(out)


@contextmanager
def refusing_overflow(file: str) -> Iterator[None]:
    """What a reader's libraries raise on an input beyond what they can hold, as the
    ``InputError`` of ``file``: ``MemoryError`` (Arrow's included), Arrow's other errors
    (a row it cannot parse), ``RecursionError`` (a structure nested too deep). Limits make
    these rare; this is the last guard, so that a run is rejected with a reason rather
    than the command ending in a traceback."""
    try:
        yield
    except MemoryError:
        raise InputError.at(file, None, FindingCode.TOO_LARGE, OUT_OF_MEMORY) from None
    except RecursionError:
        raise InputError.at(file, None, FindingCode.TOO_LARGE,
                            "cannot read: nested too deeply to be read") from None
    except Exception as error:
        arrow = sys.modules.get("pyarrow")  # not imported: no Arrow error can arise
        if arrow is None or not isinstance(error, arrow.ArrowException):
            raise
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InputError.at(file, None, FindingCode.UNREADABLE,
                            f"cannot read: {reason}") from None
