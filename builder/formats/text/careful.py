"""The careful rules of the TREC text reader: trec_eval's reading, one line at a time, of the
few lines the fast parse cannot take as they are (a wrong field count, a doubled or edge
blank, a comment, a score that is not a finite number), put back among the parsed rows in
line order, column by column."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode
from builder.formats.text.numbers import hex_as_decimal, number_problem, read_as_atof
from builder.formats.text.table import TextLayout, TextTable

_FIELD_SPLIT = re.compile(r"[ \t\f\v\r]+")


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


def suspect_rows(table: pa.Table, layout: TextLayout) -> np.ndarray | None:
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


def line_texts(data: bytes | memoryview, wanted: np.ndarray) -> list[tuple[int, str]]:
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


def _careful_rows(odd: list[tuple[int, str]], layout: TextLayout
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
            findings.append(Finding(layout.file, line, "error", FindingCode.SYNTAX,
                                    f"{len(fields)} fields, expected {width}"))
            continue
        if len(fields) > width:
            extra.append((line, len(fields)))
        for i in positions:
            fields[i] = hex_as_decimal(fields[i])
        problems = [number_problem(name, fields[i]) for name, i in zip(numbers, positions)]
        if layout.atof:
            problems = [read_as_atof(layout.file, line, name, fields, i, findings) if p else None
                        for p, name, i in zip(problems, numbers, positions)]
        problems = [p for p in problems if p]
        if problems:
            findings += [Finding(layout.file, line, "error", FindingCode.VALUE, p)
                         for p in problems]
            continue
        lines.append(line)
        rows.append(fields[:width])
    return lines, rows, findings, extra


def extra_fields_warning(file: str, width: int, extra: list[tuple[int, int]],
                          wide: np.ndarray | None = None, wide_fields: int = 0) -> list[Finding]:
    """One warning for all lines with fields after the ``width``-th: (line, fields) of each
    line read carefully, and the lines of the fast parse, all of ``wide_fields`` fields."""
    wide = np.zeros(0, dtype=np.int64) if wide is None else wide
    firsts = ([min(extra)] if extra else []) + ([(int(wide[0]), wide_fields)] if len(wide) else [])
    if not firsts:
        return []
    count = len(extra) + len(wide)
    line, fields = min(firsts)
    return [Finding(file, line, "warning", FindingCode.SYNTAX,
                    f"{count} line{'s' * (count > 1)} with more than {width} fields, this one "
                    f"the first ({fields} fields); the fields after the {width}th are ignored, "
                    "as trec_eval does")]


def merge_careful(table: pa.Table, lines: np.ndarray, suspect: np.ndarray,
                  odd: list[tuple[int, str]], layout: TextLayout
                  ) -> tuple[TextTable, list[tuple[int, int]]]:
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
