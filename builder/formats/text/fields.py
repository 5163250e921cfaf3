"""Whitespace-separated text parsed by Arrow's C++ CSV reader: the file's one delimiter, the
number of fields most lines have, the parse itself and the line number of each parsed row.

A line of another width is set aside by the reader (``parse_fields``'s ``odd``), so the rows
parsed are every line but those, in order (``row_lines``)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from builder.formats.limits import current_limits
from builder.formats.source import Mapped

ARROW_BLOCK_BYTES = 1 << 24
"""The size of the blocks Arrow's reader works through (one chunk of the table each)."""
SAMPLE_BYTES = 1 << 16
"""How much of the file is looked at to find the usual number of fields a line."""
_ASCII_SPACE = np.zeros(256, dtype=bool)
_ASCII_SPACE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True


def parse_fields(data: bytes | pa.Buffer, names: list[str], delimiter: str,
                 types: dict[str, pa.DataType], include: list[str] | None = None,
                 odd: list | None = None) -> pa.Table:
    """Every field of ``data`` in one thread; columns without a type in ``types`` are large
    strings, no text is read as null. Rows of another width are left out and put in ``odd``
    (line, text) when it is given; a field that does not read as its type raises
    ``pyarrow.ArrowInvalid``."""

    def set_aside(row: pa_csv.InvalidRow) -> str:
        odd.append((row.number, row.text))
        return "skip"

    return pa_csv.read_csv(
        data if isinstance(data, pa.Buffer) else pa.py_buffer(data),
        # A block holds a whole line: the longest the limits let through (a line of Arrow's
        # block size or more would be an error of Arrow's, without its line number).
        read_options=pa_csv.ReadOptions(column_names=names,
                                         block_size=max(ARROW_BLOCK_BYTES,
                                                        2 * current_limits().line + 2),
                                         use_threads=False),
        parse_options=pa_csv.ParseOptions(
            delimiter=delimiter,
            quote_char=False,
            double_quote=False,
            escape_char=False,
            ignore_empty_lines=False,
            invalid_row_handler=None if odd is None else set_aside,
        ),
        convert_options=pa_csv.ConvertOptions(
            column_types={n: types.get(n, pa.large_string()) for n in names},
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            include_columns=include,
        ),
    )


def single_delimiter(data: Mapped) -> str | None:
    """The one blank character separating fields, when the file uses only one kind and every
    carriage return ends a line (Arrow splits lines on a lone ``\\r`` too)."""
    if data.find(b"\r") >= 0 and count_of(data, b"\r") != count_of(data, b"\r\n"):
        return None
    if data.find(b" ") < 0:
        return "\t"
    return " " if data.find(b"\t") < 0 else None


COUNT_BYTES = 1 << 24
"""The pieces a mapped file's bytes are counted in."""


def count_of(data: Mapped, text: bytes, start: int = 0, end: int | None = None) -> int:
    """``data.count(text, start, end)``, for a mapped file too (which has no ``count``): a
    byte counted by numpy (without the interpreter's lock), else piece by piece, each piece
    reaching ``len(text) - 1`` bytes further so that no occurrence is cut."""
    if isinstance(data, bytes):
        return data.count(text, start, end)
    end = len(data) if end is None else end
    if len(text) == 1:
        codes = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
        return int(np.count_nonzero(codes == text[0]))
    return sum(data[at:min(at + COUNT_BYTES + len(text) - 1, end)].count(text)
               for at in range(start, end, COUNT_BYTES))


def usual_width(data: Mapped, delimiter: str, least: int) -> int:
    """The most common number of fields of the first lines (at least ``least``), blank and
    comment lines aside; counted by whole arrays (this runs once per file)."""
    codes = np.frombuffer(data, dtype=np.uint8, count=min(len(data), SAMPLE_BYTES))
    ends = np.flatnonzero(codes == ord("\n"))
    if not len(ends):
        return least
    codes = codes[: ends[-1] + 1]
    starts = np.concatenate(([0], ends[:-1] + 1))
    fields = 1 + np.bincount(np.searchsorted(ends, np.flatnonzero(codes == ord(delimiter))),
                             minlength=len(ends))
    # The first character that is not blank (str.isspace, ASCII): none, or '#', skip the line.
    content = np.flatnonzero(~_ASCII_SPACE[codes])
    first = content[np.minimum(np.searchsorted(content, starts), len(content) - 1)] \
        if len(content) else ends
    kept = (first < ends) & (first >= starts) & (codes[np.minimum(first, ends)] != ord("#"))
    if not kept.any():
        return least
    fields = fields[kept]
    counts = np.bincount(fields)
    usual = fields[np.argmax(counts[fields] == counts.max())]  # the first seen on a tie
    return max(int(usual), least)


def row_lines(rows: int, odd_lines: list[int]) -> np.ndarray:
    """The line number of each parsed row: every line but those set aside, in order."""
    if not odd_lines:
        return np.arange(1, rows + 1, dtype=np.int64)
    taken = np.ones(rows + len(odd_lines), dtype=bool)
    taken[np.asarray(odd_lines, dtype=np.int64) - 1] = False
    return np.flatnonzero(taken).astype(np.int64) + 1
