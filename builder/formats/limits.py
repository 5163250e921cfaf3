"""The input limits: how large a file, its gunzipped data, a line, a field, a name and a YAML
nesting may be before the reader refuses it, as a finding with its file and line.

They are declared once here (``InputLimits``), given in a config's ``limits:`` section (the
schema's field is this model), and read by every reader through ``current_limits``: the
readers are called deep in the stages with a path only, so the command sets the limits for the
process (``use_limits``) once the config is read; the config itself is read under the
defaults.

The defaults are far above any real campaign's and far below what exhausts a machine. The
real campaigns of the project's test data (TREC 2003 Robust, TREC-COVID round 1, INEX 2009-10
passages, trec_eval's own tests) have at most a 2.8 MB file, 5.5 MB once gunzipped, a line of
4,528 bytes (an INEX qrels line listing many passages), a field of 123 bytes and run tags,
topic ids and team names under 40 characters; the largest runs the benchmarks read (10M lines,
426 MB) are far under the file limits.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pydantic import BaseModel, ByteSize, ConfigDict, Field

KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30


class InputLimits(BaseModel):
    """The ``limits`` section of ``site_config.yml``: sizes in bytes, or written as ``64 MiB``,
    ``2GB``."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    file: ByteSize = Field(
        ByteSize(64 * GIB), gt=0, description="largest input file, as stored (a gzip file "
        "compressed): a file beyond is refused before it is read")
    decompressed: ByteSize = Field(
        ByteSize(64 * GIB), gt=0, description="largest a gzip file may expand to: it is "
        "unpacked as a stream and refused once it passes this size")
    line: ByteSize = Field(
        ByteSize(MIB), gt=0, description="longest line of a text input (runs, qrels, topics, "
        "run metadata, config); the real campaigns' longest is 4,528 bytes")
    field: ByteSize = Field(
        ByteSize(64 * KIB), gt=0, description="longest field of a run (a docno, a file name, "
        "an XML path) or value of an XML submission; the real campaigns' longest is 123 bytes")
    name: int = Field(
        256, gt=0, description="most characters of a name: a run tag or run-id, a topic id, "
        "a team; the real campaigns' longest is under 40")
    nesting: int = Field(
        64, gt=0, le=1000, description="deepest nesting of a YAML file (config, run "
        "metadata); a config nests 4 levels")


_current: InputLimits | None = None  # the defaults, made at the first read (a model made
# when the module is imported would cost every command's start its validator)


def current_limits() -> InputLimits:
    """The limits the readers apply now (the defaults unless a command set others)."""
    global _current
    if _current is None:
        _current = InputLimits()
    return _current


@contextmanager
def use_limits(limits: InputLimits) -> Iterator[InputLimits]:
    """Apply ``limits`` to every read until the block ends (for the whole process: the read
    threads see them, and the worker processes forked meanwhile)."""
    global _current
    before, _current = current_limits(), limits
    try:
        yield limits
    finally:
        _current = before


def size_text(size: int) -> str:
    """``size`` bytes as a person reads it: ``1 MiB``, ``64 KiB``, ``1000 bytes``."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size:,} bytes"
