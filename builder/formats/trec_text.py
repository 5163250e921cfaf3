"""Whitespace-separated TREC text files (runs, qrels) read into Arrow tables, lines kept.

trec_eval's readers (``get_trec_results.c``, ``get_qrels.c``) split lines on any run of
whitespace, skip blank lines and lines whose first non-blank character is ``#`` (a ``#``
inside a field, as in MS MARCO segment ids, is data), and ignore a run line's fields after
the sixth. We parse with pyarrow's C++ CSV reader on the file's one delimiter, ``\\r\\n`` line
ends included, at the width most lines have (six fields, or seven when the lines carry an
extra field); a large file in byte ranges cut at line ends, one per core, each numbered from
its first line. Number columns are read as text and cast whole (``_numbers``). Only the lines
that reader cannot take as they are, a wrong field count, a doubled or edge blank, a comment,
a score that is not a finite number, go one by one through the careful rules
(``_careful_rows``) and are put back in line order column by column (``_merge``), so a few bad
lines cost little: the rest of the file takes the fast path whatever its bad lines. Files
mixing tabs and spaces or with a carriage return that ends no line are normalised whole with
byte-level regular expressions instead. Every row keeps its 1-based line number; every
malformed line is reported by number. Input must be UTF-8 (``builder.formats.source``).
"""

from __future__ import annotations

import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise

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
_FINITE = re.compile(FINITE_NUMBER, re.ASCII)  # digits 0-9 only, as Arrow's parser
_NON_FINITE = re.compile(NON_FINITE, re.IGNORECASE)
SAMPLE_BYTES = 1 << 16
"""How much of the file is looked at to find the usual number of fields a line."""
BLOCK_BYTES = 1 << 24
"""The size of the byte ranges a large file is cut into (each parsed by one thread)."""
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
    if not data or data.isspace():
        columns = {n: pa.array([], layout.type_of(n)) for n in layout.kept}
        return TextTable(pa.table(columns), np.zeros(0, dtype=np.int64))
    delimiter = _single_delimiter(data)
    if delimiter is None:
        return _read_normalised(data, layout)
    width = _usual_width(data, delimiter, len(names)) if extra_fields_allowed else len(names)
    blocks = _blocks(data)
    parsed = _each(lambda block: _parse_block(data, block, layout, delimiter, width), blocks)
    if any(line is None for block in parsed for line, _ in block.odd):
        return _read_normalised(data, layout)  # Arrow could not number a line
    first = np.cumsum([0] + [block.line_ends for block in parsed[:-1]]).tolist()
    done = _each(lambda block, before: _finish_block(data, block, before, layout), parsed, first)
    read = TextTable(pa.concat_tables([part.table for part, _, _ in done]),
                     np.concatenate([part.lines for part, _, _ in done]),
                     [finding for part, _, _ in done for finding in part.findings])
    extra = [line for _, lines, _ in done for line in lines]
    wide = np.concatenate([wide for _, _, wide in done]) if width > len(names) else None
    read.findings += _extra_fields_warning(file, len(names), extra, wide, width)
    return read


def _each(function, *items: list) -> list:
    """``function`` over ``items``, on every core when there is more than one (Arrow and
    numpy let go of the interpreter while they work)."""
    if len(items[0]) < 2:
        return list(map(function, *items))
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(function, *items))


@dataclass
class _Block:
    """The byte range ``start:end`` of a file, parsed: the rows of the usual width, the lines
    set aside by Arrow (numbered from the block's start) and how many line ends it holds."""

    start: int
    end: int
    table: pa.Table
    odd: list[tuple[int | None, str]]
    line_ends: int


def _blocks(data: bytes) -> list[tuple[int, int]]:
    """Byte ranges of about ``BLOCK_BYTES`` cut after a line end (one range for a file under
    ``PARALLEL_BYTES``: small files are read two at a time, one per thread, by the callers)."""
    if len(data) < PARALLEL_BYTES:
        return [(0, len(data))]
    cuts = [0]
    while cuts[-1] < len(data):
        end = data.find(b"\n", cuts[-1] + BLOCK_BYTES)
        cuts.append(len(data) if end < 0 else end + 1)
    return list(pairwise(cuts))


def _parse_block(data: bytes, block: tuple[int, int], layout: _Layout, delimiter: str,
                 width: int) -> _Block:
    """One byte range parsed at the usual width, in one thread (so Arrow numbers the lines it
    sets aside); number columns as text turned to numbers by ``_numbers``."""
    start, end = block
    names = layout.names + [f"extra {i}" for i in range(width - len(layout.names))]
    text_types = {n: t for n, t in layout.types.items() if t != pa.float64()}
    odd: list[tuple[int | None, str]] = []
    table = _parse(pa.py_buffer(data).slice(start, end - start), names, delimiter, text_types,
                   layout.names, odd)
    line_ends = data.count(b"\n", start, end) if end < len(data) else 0
    return _Block(start, end, _numbers(table, layout), odd, line_ends)


def _numbers(table: pa.Table, layout: _Layout) -> pa.Table:
    """The ``float64`` columns of ``layout``, read as text, as numbers: a value that is not a
    finite number as ``FINITE_NUMBER`` says (nor ``nan`` nor ``inf``) becomes null, so that
    ``_suspect_rows`` sends its line through the careful rules. One cast when every value
    reads (Arrow's cast and CSV reader parse numbers alike)."""
    for name in layout.names:
        if layout.type_of(name) != pa.float64():
            continue
        text = table.column(name)
        try:
            numbers = pc.cast(text, pa.float64())
        except pa.ArrowInvalid:
            numbers = pc.cast(pc.if_else(pc.match_substring_regex(text, FINITE_NUMBER), text,
                                         pa.scalar(None, text.type)), pa.float64())
        table = table.set_column(table.schema.get_field_index(name), name, numbers)
    return table


def _finish_block(data: bytes, block: _Block, before: int, layout: _Layout
                  ) -> tuple[TextTable, list[tuple[int, int]], np.ndarray]:
    """A parsed block whose first line is line ``before + 1``: its rows in line order, the
    careful rules applied to its odd and suspect lines (``_merge``), the (line, fields) of its
    careful rows with extra fields and the lines of its other rows (all of the usual width)."""
    table = block.table
    odd = [(line + before, text) for line, text in block.odd]
    lines = _row_lines(table.num_rows, [line for line, _ in block.odd]) + before
    suspect = _suspect_rows(table, layout)
    if not odd and suspect is None:
        return TextTable(table.select(layout.kept), lines), [], lines
    if suspect is None:
        suspect = np.zeros(table.num_rows, dtype=bool)
    view = memoryview(data)[block.start:block.end]
    odd += [(line + before, text) for line, text in _line_texts(view, lines[suspect] - before)]
    read, extra = _merge(table, lines, suspect, odd, layout)
    return read, extra, lines[~suspect]


def _parse(data: bytes | pa.Buffer, names: list[str], delimiter: str,
           types: dict[str, pa.DataType], include: list[str] | None = None,
           odd: list | None = None) -> pa.Table:
    """Every field of ``data`` in one thread; columns without a type in ``types`` are large
    strings. Rows of another width are left out and put in ``odd`` (line, text) when it is
    given."""

    def set_aside(row: pa_csv.InvalidRow) -> str:
        odd.append((row.number, row.text))
        return "skip"

    return pa_csv.read_csv(
        data if isinstance(data, pa.Buffer) else pa.py_buffer(data),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=BLOCK_BYTES,
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
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            include_columns=include,
        ),
    )


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
    return pc.fill_null(pc.invert(pc.is_finite(values)), True)


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


def _line_texts(data: bytes | memoryview, wanted: np.ndarray) -> list[tuple[int, str]]:
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
            found.append((wanted_list[index], str(data[int(starts[k]):int(ends[k])], "utf-8")))
            index += 1
        if len(ends):
            last_start = int(ends[-1]) + 1
        line_before += len(ends)
        position += len(codes)
    if index < len(wanted_list):  # the last line has no line end
        found.append((wanted_list[index], str(data[last_start:], "utf-8")))
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
        problems = [number_problem(name, fields[i]) for name, i in zip(numbers, positions)]
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


def number_problem(name: str, text: str) -> str | None:
    """What is wrong with a number field's text (None: nothing): the one rule of every run
    reader, a finite number as C's ``strtod`` reads a whole field."""
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
    kept = np.flatnonzero(~suspect)
    # Both are in line order: each careful row goes after the kept rows of smaller lines.
    careful_at = np.searchsorted(lines[kept], careful_lines) + np.arange(len(careful_lines))
    from_careful = np.zeros(len(kept) + len(careful_lines), dtype=bool)
    from_careful[careful_at] = True
    index = np.empty(len(from_careful), dtype=np.int64)
    index[~from_careful] = kept
    index[careful_at] = table.num_rows + np.arange(len(careful_lines))
    order_lines = np.empty(len(from_careful), dtype=np.int64)
    order_lines[~from_careful] = lines[kept]
    order_lines[careful_at] = careful_lines
    picked = pa.array(index)
    # Only the columns kept are reordered (the fields read and ignored are not copied).
    position = {name: i for i, name in enumerate(layout.names)}
    merged = pa.table({
        name: _concat_take(table.column(name), [row[position[name]] for row in rows], picked)
        for name in layout.kept
    })  # fmt: skip
    return TextTable(merged, order_lines, findings), extra


def _concat_take(column: pa.ChunkedArray, careful: list[str], picked: pa.Array) -> pa.Array:
    """The rows ``picked`` of ``column`` followed by the ``careful`` values (text, converted to
    the column's type), taken column by column: Arrow's take over a table whose chunks are
    encoded apart is many times slower. Dictionaries are unified, the codes taken."""
    values = pa.array(careful, pa.large_string())
    if pa.types.is_dictionary(column.type):
        values = values.cast(column.type.value_type).dictionary_encode().cast(column.type)
    else:
        values = values.cast(column.type)
    whole = pa.concat_arrays([*column.chunks, values])
    return whole.take(picked)


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
    table = _numbers(table, layout)
    lines = np.flatnonzero(keep).astype(np.int64) + 1
    suspect = _suspect_rows(table, layout)
    if suspect is None:
        suspect = np.zeros(table.num_rows, dtype=bool)
    odd += _line_texts(text, np.flatnonzero(keep)[suspect] + 1)
    read, extra = _merge(table, lines, suspect, odd, layout)
    read.findings += _extra_fields_warning(layout.file, width, extra)
    return read
