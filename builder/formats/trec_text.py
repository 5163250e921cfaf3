"""Whitespace-separated TREC text files (runs, qrels) read into Arrow tables, lines kept.

trec_eval's readers (``get_trec_results.c``, ``get_qrels.c``) split lines on any run of
whitespace, skip blank lines and lines whose first non-blank character is ``#`` (a ``#``
inside a field, as in MS MARCO segment ids, is data), and ignore a run line's fields after
the sixth. We parse with pyarrow's C++ CSV reader: a regular file (one delimiter, no blank or
comment lines) goes straight in; any other file is normalised first with byte-level regular
expressions, and its lines are counted with numpy, so every row keeps its 1-based line number
and every malformed line is reported by number. Gzip is detected by its magic bytes.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from builder.findings import Finding

GZIP_MAGIC = b"\x1f\x8b"

_BLANKS = re.compile(rb"[ \t\f\v\r]+")
_LINE_EDGES = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^#[^\n]*")


def read_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when it starts with the gzip magic number; ``-`` is the
    standard input (trec_eval 10.0 reads a run from it)."""
    data = sys.stdin.buffer.read() if str(path) == "-" else Path(path).read_bytes()
    if data[:2] == GZIP_MAGIC:
        from isal import igzip

        data = igzip.decompress(data)
    return data


@dataclass
class TextTable:
    """Rows of a TREC text file: string columns, their 1-based line numbers, and problems."""

    table: pa.Table
    lines: np.ndarray
    findings: list[Finding] = field(default_factory=list)


def _parse(
    data: bytes, names: list[str], delimiter: str, types: dict[str, pa.DataType]
) -> pa.Table:
    """Every field of ``data``; columns without a type in ``types`` are large strings."""
    return pa_csv.read_csv(
        pa.py_buffer(data),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 24, use_threads=False),
        parse_options=pa_csv.ParseOptions(
            delimiter=delimiter,
            quote_char=False,
            double_quote=False,
            escape_char=False,
            ignore_empty_lines=False,
        ),
        convert_options=pa_csv.ConvertOptions(
            column_types={n: types.get(n, pa.large_string()) for n in names},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    )


def _single_delimiter(data: bytes) -> str | None:
    """The one blank character separating fields, when the file uses only one kind."""
    if b"\r" in data:
        return None
    if b" " not in data:
        return "\t"
    return " " if b"\t" not in data else None


def _text_values(column: pa.ChunkedArray) -> list[pa.Array]:
    """The distinct texts of a text or dictionary column (its dictionaries), else none."""
    if pa.types.is_dictionary(column.type):
        return [chunk.dictionary for chunk in column.chunks]
    is_text = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary)
    return list(column.chunks) if any(test(column.type) for test in is_text) else []


def _regular(table: pa.Table) -> bool:
    """No empty field (doubled delimiter, blank edge) in any column, ignored ones included,
    and no comment line slipped through."""
    for column in table.itercolumns():
        for values in _text_values(column):
            if pc.any(pc.equal(pc.binary_length(values), 0)).as_py():
                return False
    return not any(
        pc.any(pc.starts_with(values, "#")).as_py() for values in _text_values(table.column(0))
    )


def read_text_table(
    data: bytes,
    file: str,
    names: list[str],
    *,
    extra_fields_allowed: bool,
    types: dict[str, pa.DataType] | None = None,
    ignored: tuple[str, ...] = (),
) -> TextTable:
    """Split ``data`` into ``len(names)`` string columns (or ``types``), one row per content line.

    Lines with too few fields, or too many when ``extra_fields_allowed`` is false, are left
    out with an error finding each; extra fields are dropped otherwise, as trec_eval does.
    Columns named in ``ignored`` are checked for presence but not kept.
    """
    types = {**{n: pa.binary() for n in ignored}, **(types or {})}
    kept = [n for n in names if n not in ignored]
    delimiter = _single_delimiter(data)
    if delimiter is not None:
        try:
            table = _parse(data, names, delimiter, types)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            table = None  # a column count or number format the careful path reports by line
        if table is not None and _regular(table):
            return TextTable(table.select(kept), np.arange(1, table.num_rows + 1, dtype=np.int64))
    return _read_irregular(data, file, names, kept, extra_fields_allowed)


def _read_irregular(
    data: bytes, file: str, names: list[str], kept: list[str], extra_fields_allowed: bool
) -> TextTable:
    width = len(names)
    text = _LINE_EDGES.sub(b"", _BLANKS.sub(b" ", data))
    text = _COMMENT.sub(b"", text)
    if text and not text.endswith(b"\n"):
        text += b"\n"
    codes = np.frombuffer(text, dtype=np.uint8)
    newlines = np.flatnonzero(codes == ord("\n"))
    starts = np.concatenate(([0], newlines[:-1] + 1))
    lengths = newlines - starts
    spaces = np.bincount(
        np.searchsorted(newlines, np.flatnonzero(codes == ord(" "))), minlength=len(newlines)
    )
    fields = np.where(lengths > 0, spaces + 1, 0)
    findings = [
        Finding(file, int(n) + 1, "error", f"{fields[n]} fields, expected {width}")
        for n in np.flatnonzero((fields > 0) & (fields < width))
    ]
    too_many = fields > width
    if extra_fields_allowed:
        findings += [
            Finding(file, int(n) + 1, "warning",
                    f"{fields[n]} fields, expected {width}; the fields after the {width}th are "
                    "ignored, as trec_eval does")
            for n in np.flatnonzero(too_many)
        ]
    else:
        findings += [
            Finding(file, int(n) + 1, "error", f"{fields[n]} fields, expected {width}")
            for n in np.flatnonzero(too_many)
        ]
    keep = (fields == width) | (too_many & extra_fields_allowed)
    kept_codes = codes[np.repeat(keep, lengths + 1)]
    if extra_fields_allowed and too_many.any():
        kept_codes = _drop_extra_fields(kept_codes, width)
    table = _parse(kept_codes.tobytes(), names, " ", {}).select(kept) if keep.any() else _empty(kept)
    return TextTable(table, np.flatnonzero(keep).astype(np.int64) + 1, findings)


def _drop_extra_fields(codes: np.ndarray, width: int) -> np.ndarray:
    """Cut every line after its ``width``-th field (the lines are already normalised)."""
    newline = codes == ord("\n")
    separator = (codes == ord(" ")) | newline
    line_of = np.cumsum(newline) - newline
    separators_before = np.cumsum(separator) - separator
    line_first = np.concatenate(([0], separators_before[np.flatnonzero(newline)[:-1] + 1]))
    field_of = separators_before - line_first[line_of]
    last_field = (field_of == width - 1) & ~separator
    return codes[(field_of < width - 1) | last_field | newline]


def _empty(names: list[str]) -> pa.Table:
    return pa.table({n: pa.array([], pa.large_string()) for n in names})
