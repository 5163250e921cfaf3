"""Whitespace-separated TREC text files (runs, qrels) read into Arrow tables, lines kept.

trec_eval's readers (``get_trec_results.c``, ``get_qrels.c``) split lines on any run of
whitespace, skip blank lines and lines whose first non-blank character is ``#`` (a ``#``
inside a field, as in MS MARCO segment ids, is data), and ignore a run line's fields after
the sixth. We parse with pyarrow's C++ CSV reader on the file's one delimiter, ``\\r\\n`` line
ends included, at the width most lines have (six fields, or seven when the lines carry an
extra field): ``builder.formats.text.fields``; a large file in byte ranges cut at line ends,
one per core, each numbered from its first line. Number columns are read as text and cast
whole (``builder.formats.text.numbers``). Only the lines that reader cannot take as they are,
a wrong field count, a doubled or edge blank, a comment, a score that is not a finite number,
go one by one through the careful rules and are put back in line order column by column
(``builder.formats.text.careful``), so a few bad lines cost little: the rest of the file
takes the fast path whatever its bad lines. Files mixing tabs and spaces or with a carriage
return that ends no line are normalised whole with byte-level regular expressions instead
(``builder.formats.text.normalised``). Every row keeps its 1-based line number; every
malformed line is reported by number. Input must be UTF-8 (``builder.formats.source``).
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pyarrow as pa

from builder.formats.source import Mapped, check_utf8, map_input
from builder.formats.text.careful import (
    extra_fields_warning,
    line_texts,
    merge_careful,
    suspect_rows,
)
from builder.formats.text.fields import (
    count_of,
    parse_fields,
    row_lines,
    single_delimiter,
    usual_width,
)
from builder.formats.text.normalised import read_normalised
from builder.formats.text.numbers import number_columns
from builder.formats.text.table import TextLayout, TextTable

BLOCK_BYTES = 1 << 24
"""The size of the byte ranges a large file is cut into (each parsed by one thread)."""
PARALLEL_BYTES = 1 << 25
"""From this size up a file is parsed on every core (smaller files are read two at a time,
one per thread, by the callers)."""

read_bytes = map_input  # the name the readers import
_NOT_BLANK = re.compile(rb"\S")


def read_text_table(
    data: Mapped,
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
    layout = TextLayout(file, names, [n for n in names if n not in ignored],
                     {**{n: pa.binary() for n in ignored}, **(types or {})}, extra_fields_allowed,
                     atof)
    if _NOT_BLANK.search(data) is None:  # stops at the first non-blank byte
        columns = {n: pa.array([], layout.type_of(n)) for n in layout.kept}
        return TextTable(pa.table(columns), np.zeros(0, dtype=np.int64))
    delimiter = single_delimiter(data)
    if delimiter is None:
        return read_normalised(data, layout)
    width = usual_width(data, delimiter, len(names)) if extra_fields_allowed else len(names)
    blocks = _blocks(data)
    parsed = _each(lambda block: _parse_block(data, block, layout, delimiter, width), blocks)
    if any(line is None for block in parsed for line, _ in block.odd):
        return read_normalised(data, layout)  # Arrow could not number a line
    first = np.cumsum([0] + [block.line_ends for block in parsed[:-1]]).tolist()
    done = _each(lambda block, before: _finish_block(data, block, before, layout), parsed, first)
    read = TextTable(pa.concat_tables([part.table for part, _, _ in done]),
                     np.concatenate([part.lines for part, _, _ in done]),
                     [finding for part, _, _ in done for finding in part.findings])
    extra = [line for _, lines, _ in done for line in lines]
    wide = np.concatenate([wide for _, _, wide in done]) if width > len(names) else None
    read.findings += extra_fields_warning(file, len(names), extra, wide, width)
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


def _blocks(data: Mapped) -> list[tuple[int, int]]:
    """Byte ranges of about ``BLOCK_BYTES`` cut after a line end (one range for a file under
    ``PARALLEL_BYTES``: small files are read two at a time, one per thread, by the callers)."""
    if len(data) < PARALLEL_BYTES:
        return [(0, len(data))]
    cuts = [0]
    while cuts[-1] < len(data):
        end = data.find(b"\n", cuts[-1] + BLOCK_BYTES)
        cuts.append(len(data) if end < 0 else end + 1)
    return list(pairwise(cuts))


def _parse_block(data: Mapped, block: tuple[int, int], layout: TextLayout, delimiter: str,
                 width: int) -> _Block:
    """One byte range parsed at the usual width, in one thread (so Arrow numbers the lines it
    sets aside). Number columns are parsed as numbers; when a value does not read (Arrow
    then gives up on the whole range) the range is parsed again with them as text, turned
    to numbers by ``number_columns`` (which reads numbers as Arrow's parser does)."""
    start, end = block
    names = layout.names + [f"extra {i}" for i in range(width - len(layout.names))]
    text = pa.py_buffer(data).slice(start, end - start)
    odd: list[tuple[int | None, str]] = []
    try:
        table = parse_fields(text, names, delimiter, layout.types, layout.names, odd)
    except pa.ArrowInvalid:  # a number that does not read: every column as text
        odd.clear()
        text_types = {n: t for n, t in layout.types.items() if t != pa.float64()}
        table = parse_fields(text, names, delimiter, text_types, layout.names, odd)
    line_ends = count_of(data, b"\n", start, end) if end < len(data) else 0
    return _Block(start, end, number_columns(table, layout), odd, line_ends)


def _finish_block(data: Mapped, block: _Block, before: int, layout: TextLayout
                  ) -> tuple[TextTable, list[tuple[int, int]], np.ndarray]:
    """A parsed block whose first line is line ``before + 1``: its rows in line order, the
    careful rules applied to its odd and suspect lines (``merge_careful``), the (line,
    fields) of its careful rows with extra fields and the lines of its other rows (all of the
    usual width)."""
    table = block.table
    odd = [(line + before, text) for line, text in block.odd]
    lines = row_lines(table.num_rows, [line for line, _ in block.odd]) + before
    suspect = suspect_rows(table, layout)
    if not odd and suspect is None:
        return TextTable(table.select(layout.kept), lines), [], lines
    if suspect is None:
        suspect = np.zeros(table.num_rows, dtype=bool)
    view = memoryview(data)[block.start:block.end]
    odd += [(line + before, text) for line, text in line_texts(view, lines[suspect] - before)]
    read, extra = merge_careful(table, lines, suspect, odd, layout)
    return read, extra, lines[~suspect]
