"""Opening an input file: its bytes (gunzipped) and its text, or an ``InputError`` saying why not.

Encoding policy: every text input (runs, qrels, topics, metadata, config) is UTF-8, with or
without a byte order mark (plain ASCII is UTF-8). A file that is not gives the byte offset and
the line of its first bad byte, and for a UTF-16 or UTF-32 file (told by its byte order mark)
what it is, so the user can re-save it; nothing is guessed or replaced silently. A gzip file
(told by its magic number) is read whole: a truncated one, or one followed by other bytes, is
an error. XML files may declare another encoding in their prolog; lxml honours it.
"""

from __future__ import annotations

import codecs
import errno
import mmap
import os
import stat
import sys
import zlib
from pathlib import Path
from typing import BinaryIO

from builder.findings import FindingCode, InputError

GZIP_MAGIC = b"\x1f\x8b"
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)  # fmt: skip


def open_problem(error: OSError, doing: str = "read") -> str:
    """Why a file could not be opened (to ``doing``: read or write), in a user's words."""
    reasons = {
        errno.ENOENT: "file not found",
        errno.EISDIR: "is a folder, not a file",
        errno.ELOOP: "symbolic link loop",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.ENAMETOOLONG: "file name too long",
        errno.ENOSPC: "no space left on the device",
        errno.EROFS: "read-only file system",
        errno.EEXIST: "a file of that name exists",
    }
    return f"cannot {doing}: {reasons.get(error.errno, error.strerror or str(error))}"


def write_output(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (an output the user named), or raise ``InputError`` saying
    why it cannot be written (a missing folder, a folder, no permission, a full disk)."""
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError.at(str(path), None, FindingCode.OUTPUT,
                            open_problem(error, "write")) from None


def make_folder(path: Path) -> None:
    """Create the output folder ``path`` (and its parents), or raise ``InputError`` why not."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError.at(str(path), None, FindingCode.OUTPUT,
                            open_problem(error, "create the folder")) from None


def open_regular(path: Path | str) -> BinaryIO:
    """``path`` opened to read, or ``OSError`` when it cannot be read as the file it claims to
    be: no permission, gone, a folder, or a special file (a named pipe would block the build
    until some other process wrote to it; a device has no end). Opened without blocking, then
    checked, so that a file swapped for a pipe after the config named it cannot hang the
    build."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_input(path: Path | str) -> bytes:
    """The bytes of ``path``, gunzipped when it starts with the gzip magic number; ``-`` is
    the standard input (trec_eval 10.0 reads a run from it)."""
    file = str(path)
    try:
        if file == "-":
            data = sys.stdin.buffer.read()
        elif os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        else:
            data = Path(path).read_bytes()
    except OSError as error:
        raise InputError.at(file, None, FindingCode.UNREADABLE, open_problem(error)) from None
    if data[:2] == GZIP_MAGIC:
        data = gunzip(data, file)
    return data


RELEASE_ROWS = 1 << 20
"""From this many rows up, a read gives back its temporaries' memory at once (below, the next
file's read reuses it: giving back and faulting in again cost TREC-COVID round 1's 143
runs of 25,000 lines about 0.3-0.6 CPU s of 2)."""


def release_read_memory(rows: int) -> None:
    """Give back to the system the memory Arrow's allocator keeps once a read's temporaries
    (the parsed text, the columns converted) of ``rows`` rows are freed, when they are many:
    numpy's arrays, allocated elsewhere, cannot reuse it, so it would only add to the peak (a
    10M-line run: about 250 MB)."""
    if rows < RELEASE_ROWS:
        return
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


Mapped = bytes | mmap.mmap
"""A file's bytes: read, or mapped into memory (``map_input``)."""


def map_input(path: Path | str) -> Mapped:
    """The bytes of ``path`` as ``read_input`` gives them, a plain file mapped into memory
    (read-only, its pages loaded at once) rather than copied: no copy, and about a
    sixteenth of the page faults (a 426 MB run: 0.3 -> 0.04 CPU s). Gzip files, the
    standard input, empty and special files are read by ``read_input``."""
    if str(path) != "-":
        try:
            with open(path, "rb") as handle:
                status = os.fstat(handle.fileno())
                if stat.S_ISREG(status.st_mode) and status.st_size \
                        and handle.read(2) != GZIP_MAGIC:
                    return mmap.mmap(handle.fileno(), 0, flags=mmap.MAP_PRIVATE | getattr(
                        mmap, "MAP_POPULATE", 0), prot=mmap.PROT_READ)
        except (OSError, ValueError, AttributeError):
            pass  # read_input says why it cannot be read, or reads it another way
    return read_input(path)


def gunzip(data: bytes, file: str) -> bytes:
    """Every gzip member of ``data``; truncated or trailing non-gzip bytes are an error."""
    from isal import isal_zlib

    out: list[bytes] = []
    rest = data
    try:
        while rest:
            inflater = isal_zlib.decompressobj(16 + zlib.MAX_WBITS)
            out.append(inflater.decompress(rest))
            if not inflater.eof:
                raise InputError.at(file, None, FindingCode.UNREADABLE,
                                    "cannot read: the gzip data is truncated")
            rest = inflater.unused_data
            if rest and rest[:2] != GZIP_MAGIC:
                raise InputError.at(
                    file, None, FindingCode.UNREADABLE,
                    f"cannot read: {len(rest)} bytes that are not gzip data follow the gzip data",
                )  # fmt: skip
    except isal_zlib.error as error:
        raise InputError.at(file, None, FindingCode.UNREADABLE,
                            f"cannot read: not valid gzip data ({error})") from None
    return b"".join(out)


def check_utf8(data: Mapped, file: str) -> None:
    """Raise ``InputError`` at the first byte of ``data`` that is not UTF-8 (ASCII is quick)."""
    if _is_ascii(data):
        return
    for bom, name in _WIDE_BOMS:
        if data[:len(bom)] == bom:
            raise InputError.at(file, 1, FindingCode.UNREADABLE,
                                f"the file is {name} (byte order mark); save it as UTF-8")
    try:
        codecs.decode(data, "utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise InputError.at(
            file, line, FindingCode.UNREADABLE,
            f"not UTF-8: byte {error.start} (0x{data[error.start]:02x}) is invalid; "
            "input files must be UTF-8",
        ) from None  # fmt: skip


def _is_ascii(data: Mapped) -> bool:
    if isinstance(data, bytes):
        return data.isascii()
    import numpy as np

    return not len(data) or int(np.frombuffer(data, dtype=np.uint8).max()) < 0x80


def decode_text(data: bytes, file: str) -> str:
    """``data`` as text under the encoding policy, without a leading byte order mark."""
    check_utf8(data, file)
    return data.decode("utf-8-sig")


def read_text(path: Path | str) -> str:
    """The text of ``path`` (gunzipped if need be) under the encoding policy."""
    return decode_text(read_input(path), str(path))
