"""Whitespace-separated TREC text files (runs, qrels) read into Arrow tables, lines kept.

trec_eval's readers (``get_trec_results.c``, ``get_qrels.c``) split lines on any run of
whitespace, skip blank lines and lines whose first non-blank character is ``#`` (a ``#``
inside a field, as in MS MARCO segment ids, is data), and ignore a run line's fields after
the sixth. We parse with pyarrow's C++ CSV reader on the file's one delimiter, ``\\r\\n`` line
ends included, at the width most lines have (six fields, or seven when the lines carry an
extra field). Only the lines that reader cannot take as they are, a wrong field count, a
doubled or edge blank, a comment, a score that is not a finite number, go one by one through
the careful rules (``_careful_rows``), so a few bad lines cost little. Files mixing tabs and
spaces or with a carriage return that ends no line are normalised whole with byte-level
regular expressions instead. Every row keeps its 1-based line number; every malformed line is
reported by number. Input must be UTF-8 (``builder.formats.source``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from builder.findings import Finding
from builder.formats.c_numbers import c_atof
from builder.formats.source import check_utf8, read_input

_BLANKS = re.compile(rb"[ \t\f\v\r]+")
_LINE_EDGES = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^#[^\n]*")
_FIELD_SPLIT = re.compile(r"[ \t\f\v\r]+")

FINITE_NUMBER = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"
"""A finite number as C's ``strtod`` reads a whole field (trec_eval reads scores with atof)."""
NON_FINITE = r"^[+-]?(nan(\([0-9A-Za-z_]*\))?|inf|infinity)$"
"""What ``strtod`` reads as NaN or infinity, in any case: one rule, an error (a run cannot be
ranked by such a score), however the line is spaced."""
_FINITE = re.compile(FINITE_NUMBER)
_NON_FINITE = re.compile(NON_FINITE, re.IGNORECASE)
SAMPLE_BYTES = 1 << 16
"""How much of the file is looked at to find the usual number of fields a line."""
BLOCK_BYTES = 1 << 24
"""The size of the blocks Arrow's reader parses (the unit of work of its threads)."""
PARALLEL_BYTES = 1 << 26
"""From this size up a file is parsed on every core (smaller files are read two at a time,
one per thread, by the callers)."""

read_bytes = read_input  # the name the readers import
_ASCII_SPACE = np.zeros(256, dtype=bool)
_ASCII_SPACE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True


@dataclass
class TextTable:
    """Rows of a TREC text file: typed or string columns, 1-based line numbers, and problems."""

    table: pa.Table
    lines: np.ndarray
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class _Layout:
    """What the reader must produce: ``names`` of the fields, the ``kept`` ones and their types."""

    file: str
    names: list[str]
    kept: list[str]
    types: dict[str, pa.DataType]
    extra_fields_allowed: bool
    atof: bool = False

    def type_of(self, name: str) -> pa.DataType:
        return self.types.get(name, pa.large_string())


def read_text_table(
    data: bytes,
    file: str,
    names: list[str],
    *,
    extra_fields_allowed: bool,
    types: dict[str, pa.DataType] | None = None,
    ignored: tuple[str, ...] = (),
    atof: bool = False,
) -> TextTable:
    """Split ``data`` into ``len(names)`` columns (string, or as ``types`` say), one row per
    content line.

    Lines with too few fields, or too many when ``extra_fields_allowed`` is false, are left
    out with an error finding each; extra fields are dropped otherwise, as trec_eval does,
    with one warning. A ``float64`` column must hold finite numbers: other lines are left out
    with an error each, unless ``atof``: then a number that is not finite stays an error, and
    any other text is read as C's ``atof`` reads it, with a warning each (only the lines the
    fast parse sets aside go through that rule, so a clean file reads as fast either way).
    Columns named in ``ignored`` are checked for presence but not kept.
    """
    check_utf8(data, file)
    layout = _Layout(file, names, [n for n in names if n not in ignored],
                     {**{n: pa.binary() for n in ignored}, **(types or {})}, extra_fields_allowed,
                     atof)
    if not data.strip():
        columns = {n: pa.array([], layout.type_of(n)) for n in layout.kept}
        return TextTable(pa.table(columns), np.zeros(0, dtype=np.int64))
    delimiter = _single_delimiter(data)
    if delimiter is None:
        return _read_normalised(data, layout)
    width = _usual_width(data, delimiter, len(names)) if extra_fields_allowed else len(names)
    odd: list[tuple[int, str]] = []
    table = _parse_fast(data, layout, delimiter, width, odd, len(data) >= PARALLEL_BYTES)
    if len(data) >= PARALLEL_BYTES and any(line is None for line, _ in odd):
        # Arrow numbers the lines it sets aside only when it reads in one thread.
        odd.clear()
        table = _parse_fast(data, layout, delimiter, width, odd, False)
    if any(line is None for line, _ in odd):  # Arrow could not number a line
        return _read_normalised(data, layout)
    lines = _row_lines(table.num_rows, [line for line, _ in odd])
    suspect = _suspect_rows(table, layout)
    if not odd and suspect is None:
        read, extra = TextTable(table, lines), []
    else:
        if suspect is None:
            suspect = np.zeros(table.num_rows, dtype=bool)
        odd += _line_texts(data, lines[suspect])
        read, extra = _merge(table, lines, suspect, odd, layout)
    wide = np.zeros(0, dtype=np.int64)
    if width > len(names):  # every row the fast parse kept has ``width`` fields
        wide = lines if suspect is None else lines[~suspect]
    read.findings += _extra_fields_warning(file, len(names), extra, wide, width)
    return read


def _parse(data: bytes, names: list[str], delimiter: str, types: dict[str, pa.DataType],
           include: list[str] | None = None, odd: list | None = None,
           threads: bool = False) -> pa.Table:
    """Every field of ``data``; columns without a type in ``types`` are large strings. Rows
    of another width are left out and put in ``odd`` (line, text) when it is given.
    ``threads``: the file is cut into blocks of ``BLOCK_BYTES`` at line ends, parsed on every
    core and put together in order (the same table as one thread makes)."""

    def set_aside(row: pa_csv.InvalidRow) -> str:
        odd.append((row.number, row.text))
        return "skip"

    return pa_csv.read_csv(
        pa.py_buffer(data),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=BLOCK_BYTES,
                                         use_threads=threads),
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
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            include_columns=include,
        ),
    )


def _parse_fast(data: bytes, layout: _Layout, delimiter: str, width: int,
                odd: list[tuple[int, str]], threads: bool) -> pa.Table:
    """The rows of the usual width; a number column that will not convert is read as text
    (``_suspect_rows`` then sends its bad lines through the careful rules)."""
    names = layout.names + [f"extra {i}" for i in range(width - len(layout.names))]
    try:
        return _parse(data, names, delimiter, layout.types, layout.names, odd, threads)
    except pa.ArrowInvalid:
        odd.clear()
        text_types = {n: t for n, t in layout.types.items() if t != pa.float64()}
        return _parse(data, names, delimiter, text_types, layout.names, odd, threads)


def _single_delimiter(data: bytes) -> str | None:
    """The one blank character separating fields, when the file uses only one kind and every
    carriage return ends a line (Arrow splits lines on a lone ``\\r`` too)."""
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None
    if b" " not in data:
        return "\t"
    return " " if b"\t" not in data else None


def _usual_width(data: bytes, delimiter: str, least: int) -> int:
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


def _row_lines(rows: int, odd_lines: list[int]) -> np.ndarray:
    """The line number of each parsed row: every line but those set aside, in order."""
    if not odd_lines:
        return np.arange(1, rows + 1, dtype=np.int64)
    taken = np.ones(rows + len(odd_lines), dtype=bool)
    taken[np.asarray(odd_lines, dtype=np.int64) - 1] = False
    return np.flatnonzero(taken).astype(np.int64) + 1


def _column_mask(column: pa.ChunkedArray, bad) -> np.ndarray | None:
    """Rows whose value ``bad`` flags (``bad`` maps values to a boolean array); computed on
    the dictionaries of a dictionary column, so a clean file pays almost nothing; ``None``
    when no row is flagged."""
    if pa.types.is_dictionary(column.type):
        flagged = [bad(chunk.dictionary) for chunk in column.chunks]
        if not any(pc.any(f).as_py() for f in flagged):
            return None
        return np.concatenate([
            np.asarray(f, dtype=bool)[chunk.indices.to_numpy(zero_copy_only=False)]
            for f, chunk in zip(flagged, column.chunks)
        ]) if column.num_chunks else None  # fmt: skip
    flagged = bad(column)
    if not pc.any(flagged).as_py():
        return None
    return pc.fill_null(flagged, True).to_numpy(zero_copy_only=False)


def _empty(values) -> pa.Array:
    return pc.equal(pc.binary_length(values), 0)


def _not_finite(values) -> pa.Array:
    if pa.types.is_floating(values.type):
        return pc.fill_null(pc.invert(pc.is_finite(values)), True)
    return pc.invert(pc.match_substring_regex(values, FINITE_NUMBER))


def _comment(values) -> pa.Array:
    return pc.starts_with(values, "#")


def _suspect_rows(table: pa.Table, layout: _Layout) -> np.ndarray | None:
    """Rows to read again by the careful rules: an empty field (a doubled or edge blank, a
    blank line), a comment, a number column that is not a finite number."""
    masks = []
    for name in layout.names:
        column = table.column(name)
        if layout.type_of(name) == pa.float64():
            masks.append(_column_mask(column, _not_finite))
        else:
            masks.append(_column_mask(column, _empty))
    masks.append(_column_mask(table.column(layout.names[0]), _comment))
    found = [m for m in masks if m is not None]
    return np.logical_or.reduce(found) if found else None


def _line_texts(data: bytes, wanted: np.ndarray) -> list[tuple[int, str]]:
    """(line, text) of the ``wanted`` lines (sorted, 1-based), found by a scan of ``data`` in
    blocks so that no array as long as the file is made."""
    if not len(wanted):
        return []
    found: list[tuple[int, str]] = []
    block = 1 << 24
    line_before = 0  # lines that ended before the current block
    last_start = 0
    position = 0
    wanted_list = wanted.tolist()
    index = 0
    while index < len(wanted_list) and position < len(data):
        codes = np.frombuffer(data, dtype=np.uint8, count=min(block, len(data) - position),
                              offset=position)
        ends = np.flatnonzero(codes == 10) + position
        starts = np.concatenate(([last_start], ends[:-1] + 1)) if len(ends) else np.array([])
        while index < len(wanted_list) and wanted_list[index] <= line_before + len(ends):
            k = wanted_list[index] - line_before - 1
            found.append((wanted_list[index], data[int(starts[k]):int(ends[k])].decode("utf-8")))
            index += 1
        if len(ends):
            last_start = int(ends[-1]) + 1
        line_before += len(ends)
        position += len(codes)
    if index < len(wanted_list):  # the last line has no line end
        found.append((wanted_list[index], data[last_start:].decode("utf-8")))
    return found


def _careful_rows(odd: list[tuple[int, str]], layout: _Layout
                  ) -> tuple[list[int], list[list[str]], list[Finding], list[tuple[int, int]]]:
    """trec_eval's rules, one line at a time: the lines kept, their fields, the findings, and
    (line, fields) of the kept lines with fields after the last one read."""
    width = len(layout.names)
    numbers = [n for n in layout.names if layout.type_of(n) == pa.float64()]
    positions = [layout.names.index(n) for n in numbers]
    lines: list[int] = []
    rows: list[list[str]] = []
    findings: list[Finding] = []
    extra: list[tuple[int, int]] = []
    for line, text in sorted(odd):
        fields = _FIELD_SPLIT.split(text.strip(" \t\f\v\r"))
        if fields == [""] or fields[0].startswith("#"):
            continue
        if len(fields) < width or (len(fields) > width and not layout.extra_fields_allowed):
            findings.append(Finding(layout.file, line, "error",
                                    f"{len(fields)} fields, expected {width}"))
            continue
        if len(fields) > width:
            extra.append((line, len(fields)))
        problems = [_number_problem(name, fields[i]) for name, i in zip(numbers, positions)]
        if layout.atof:
            problems = [_read_as_atof(layout.file, line, name, fields, i, findings) if p else None
                        for p, name, i in zip(problems, numbers, positions)]
        problems = [p for p in problems if p]
        if problems:
            findings += [Finding(layout.file, line, "error", p) for p in problems]
            continue
        lines.append(line)
        rows.append(fields[:width])
    return lines, rows, findings, extra


def _extra_fields_warning(file: str, width: int, extra: list[tuple[int, int]],
                          wide: np.ndarray | None = None, wide_fields: int = 0) -> list[Finding]:
    """One warning for all lines with fields after the ``width``-th: (line, fields) of each
    line read carefully, and the lines of the fast parse, all of ``wide_fields`` fields."""
    wide = np.zeros(0, dtype=np.int64) if wide is None else wide
    firsts = ([min(extra)] if extra else []) + ([(int(wide[0]), wide_fields)] if len(wide) else [])
    if not firsts:
        return []
    count = len(extra) + len(wide)
    line, fields = min(firsts)
    return [Finding(file, line, "warning",
                    f"{count} line{'s' * (count > 1)} with more than {width} fields, this one "
                    f"the first ({fields} fields); the fields after the {width}th are ignored, "
                    "as trec_eval does")]


def _number_problem(name: str, text: str) -> str | None:
    if _FINITE.match(text):
        if math.isfinite(float(text)):
            return None
        return f"{name} {text} is not a finite number (beyond the largest double)"
    if _NON_FINITE.match(text):
        return f"{name} {text} is not a finite number"
    return f"{name} is not a number"


def _read_as_atof(file: str, line: int, name: str, fields: list[str], i: int,
                  findings: list[Finding]) -> str | None:
    """trec_eval's reading of a number field that is not a number: ``fields[i]`` replaced by
    the value C's ``atof`` reads (a warning), or the problem when that value is not finite."""
    text = fields[i]
    value = c_atof(text)
    if not math.isfinite(value):
        return f"{name} {text} is not a finite number"
    findings.append(Finding(file, line, "warning", f"{name} {text} read as {value!r}, as "
                            "trec_eval reads it (C's atof)"))
    fields[i] = repr(value)
    return None


def _merge(table: pa.Table, lines: np.ndarray, suspect: np.ndarray, odd: list[tuple[int, str]],
           layout: _Layout) -> tuple[TextTable, list[tuple[int, int]]]:
    """The parsed rows that were not suspect and the careful rows, in line order, and the
    careful rows with extra fields (see ``_careful_rows``)."""
    careful_lines, rows, findings, extra = _careful_rows(odd, layout)
    columns = {}
    for i, name in enumerate(layout.names):
        values = pa.array([row[i] for row in rows], pa.large_string())
        wanted = table.column(name).type
        if pa.types.is_dictionary(wanted):
            values = values.cast(pa.string()).dictionary_encode()
            values = values.cast(wanted)
        elif wanted != pa.large_string():
            values = values.cast(wanted)
        columns[name] = values
    careful = pa.table(columns, schema=table.schema) if rows else table.slice(0, 0)
    kept = np.flatnonzero(~suspect)
    order_lines = np.concatenate((lines[kept], np.asarray(careful_lines, dtype=np.int64)))
    index = np.concatenate((kept, table.num_rows + np.arange(len(careful_lines))))
    order = np.argsort(order_lines, kind="stable")
    # Only the columns kept are reordered (the fields read and ignored are not copied).
    merged = pa.concat_tables([table.select(layout.kept), careful.select(layout.kept)])
    merged = merged.take(pa.array(index[order]))
    for name in layout.kept:
        if layout.type_of(name) == pa.float64() and merged.column(name).type != pa.float64():
            position = merged.schema.get_field_index(name)
            merged = merged.set_column(position, name, pc.cast(merged.column(name), pa.float64()))
    return TextTable(merged, order_lines[order], findings), extra


def _read_normalised(data: bytes, layout: _Layout) -> TextTable:
    """Files mixing tabs and spaces, or with a lone carriage return: normalised whole."""
    names, width = layout.names, len(layout.names)
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
    odd = [(int(n) + 1, text[starts[n]:newlines[n]].decode("utf-8"))
           for n in np.flatnonzero((fields > 0) & (fields != width))]
    keep = fields == width
    kept_codes = codes[np.repeat(keep, lengths + 1)]
    string_types = {n: t for n, t in layout.types.items() if t != pa.float64()}
    table = (_parse(kept_codes.tobytes(), names, " ", string_types) if keep.any()
             else pa.table({n: pa.array([], layout.type_of(n) if n in string_types
                                        else pa.large_string()) for n in names}))
    lines = np.flatnonzero(keep).astype(np.int64) + 1
    suspect = _suspect_rows(table, layout)
    if suspect is None:
        suspect = np.zeros(table.num_rows, dtype=bool)
    odd += _line_texts(text, np.flatnonzero(keep)[suspect] + 1)
    read, extra = _merge(table, lines, suspect, odd, layout)
    read.findings += _extra_fields_warning(layout.file, width, extra)
    return read
