"""Opening an input file: its bytes (gunzipped) and its text, or an ``InputError`` saying why not.

Encoding policy: every text input (runs, qrels, topics, metadata, config) is UTF-8, with or
without a byte order mark (plain ASCII is UTF-8). A file that is not gives the byte offset and
the line of its first bad byte, and for a UTF-16 or UTF-32 file (told by its byte order mark)
what it is, so the user can re-save it; nothing is guessed or replaced silently. A gzip file
(told by its magic number) is unpacked as a stream: a truncated one, or one followed by other
bytes, is an error. Every read is bounded by the input limits (``builder.formats.limits``),
checked as the bytes come (``builder.formats.bounded``). XML files may declare another encoding in their prolog; lxml honours it.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import mmap
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from builder.findings import FindingCode, InputError
from builder.formats.bounded import (
    GZIP_MAGIC,
    OUT_OF_MEMORY,
    check_lines_of,
    check_size,
    read_stream,
)
from builder.formats.limits import current_limits

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


_kept_digests: dict[str, str | None] = {}


@contextmanager
def digests_kept(inputs: Iterable[Path | str]) -> Iterator[None]:
    """Within the block, each of ``inputs`` is hashed once (``sha256``, by absolute path): one
    build hashes a run file and the qrels for the evaluation cache's keys (``--incremental``),
    then every input for the manifest. The digest kept is the first, taken after the file was
    read. Any other file (the site's own, hashed as written) and every file outside the block
    is read at each call."""
    global _kept_digests
    before, _kept_digests = _kept_digests, dict.fromkeys(map(os.path.abspath, inputs))
    try:
        yield
    finally:
        _kept_digests = before


def sha256(path: Path | str) -> str:
    """The SHA-256 of ``path``, a regular file read in blocks (``OSError`` when it cannot be read as
    one): the one way the manifest, the archive and the evaluation cache hash a file."""
    key = os.path.abspath(path)
    if key not in _kept_digests:
        return _file_digest(path)
    kept = _kept_digests[key]
    if kept is None:
        kept = _kept_digests[key] = _file_digest(path)
    return kept


def _file_digest(path: Path | str) -> str:
    digest = hashlib.sha256()
    with open_regular(path) as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_input(path: Path | str) -> bytes:
    """The bytes of ``path``, gunzipped when it starts with the gzip magic number; ``-`` is
    the standard input (trec_eval 10.0 reads a run from it). Bounded by the input limits
    (``builder.formats.bounded``): a file, its gunzipped data or a line beyond them, a file
    that is not a regular one (a named pipe, a device) or one the memory cannot hold is an
    ``InputError`` with the file and, for a line, its number; nothing larger than the limits
    is ever read."""
    file = str(path)
    limits = current_limits()
    try:
        if file == "-":
            return read_stream(sys.stdin.buffer, file, limits)
        with open_regular(path) as stream:
            size = os.fstat(stream.fileno()).st_size
            check_size(file, size, limits)
            if stream.read(2) == GZIP_MAGIC:
                stream.seek(0)
                return read_stream(stream, file, limits)
            check_lines_of(stream.fileno(), size, file, limits)
            stream.seek(0)
            return stream.read()
    except OSError as error:
        raise InputError.at(file, None, FindingCode.UNREADABLE, open_problem(error)) from None
    except MemoryError:
        raise InputError.at(file, None, FindingCode.TOO_LARGE, OUT_OF_MEMORY) from None


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
    sixteenth of the page faults (a 426 MB run: 0.3 -> 0.04 CPU s). Its size and lines are
    checked against the input limits first, without reading it whole. Gzip files, the
    standard input, empty files and files that cannot be mapped (the address space a memory
    limit leaves) are read by ``read_input``, which says why a file cannot be read."""
    if str(path) != "-":
        try:
            with open_regular(path) as handle:
                size = os.fstat(handle.fileno()).st_size
                if size and handle.read(2) != GZIP_MAGIC:
                    limits = current_limits()
                    check_size(str(path), size, limits)
                    check_lines_of(handle.fileno(), size, str(path), limits)
                    return mmap.mmap(handle.fileno(), 0, flags=mmap.MAP_PRIVATE | getattr(
                        mmap, "MAP_POPULATE", 0), prot=mmap.PROT_READ)
        except (OSError, ValueError, AttributeError):
            pass  # read_input says why it cannot be read, or reads it another way
    return read_input(path)


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
