"""A TREC run file read for its ranking alone, when it is plainly clean: topic, docno and
score, and its tags, without line numbers; ``None`` on any doubt, for the full reader.

A judgement pool needs of each run only its rankings (trec_eval's order: score descending,
then docno descending) and its name; the full reader (``builder.formats.trec.run``) also
numbers every line, keeps the tag of each line and makes the docnos Python strings for
pandas. Here Arrow's parse (``builder.formats.text.fields``, the full reader's) is kept as
it comes, docnos as Arrow strings, and every rule of the full reader is a yes-or-no question
on the whole file: the bytes are read under the same limits (``builder.formats.source``:
size, gunzipped size, line length); UTF-8 without a byte order mark; one delimiter, a
carriage return only before a line end; every line of six fields (Arrow raises on any
other), none empty (no blank line, no blank doubled or at a line's edge); a score that
reads as a finite number; no comment line; no name or docno beyond the limits. A file that
fails any of them, or has no line, is ``None``: the caller reads it again with the full
reader, which says on which line and why. So a clean file costs its parse, and a bad file
gets the findings it always got. Arrow's parser rather than code by hand on the bytes: the
two readers then read a clean file alike.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import InputError
from builder.formats.long_values import has_long_arrow_cells
from builder.formats.source import check_utf8, map_input
from builder.formats.text.fields import parse_fields, single_delimiter
from builder.formats.trec.run import (
    CATEGORY,
    LIMITED,
    RUN_FIELDS,
    categorical,
    joined_numbers,
)


@dataclass
class CleanRun:
    """A clean run file's rows (``topic`` categorical, ``doc`` Arrow strings, ``score``) and
    the distinct tags of its lines."""

    table: pd.DataFrame
    tags: list[str]


def read_clean_run(path: Path) -> CleanRun | None:
    """The run file's rows when it is plainly clean (see the module), else ``None``."""
    try:
        data = map_input(path)
        check_utf8(data, str(path))
    except InputError:
        return None
    delimiter = single_delimiter(data)
    if delimiter is None or data[:3] == codecs.BOM_UTF8:
        return None
    try:
        read = parse_fields(data, RUN_FIELDS, delimiter, {
            "score": pa.float64(), "topic": CATEGORY, "tag": CATEGORY, "q0": pa.binary(),
            "rank": pa.binary()})
    except (pa.ArrowException, MemoryError):  # a line of another width, a score that does
        return None  # not read; or more than memory holds, which the full reader reports
    topic, tag = read.column("topic"), read.column("tag")
    if (not read.num_rows or not pc.all(pc.is_finite(read.column("score"))).as_py()
            or any(_has_empty(read.column(name)) for name in RUN_FIELDS if name != "score")
            or any(pc.any(pc.starts_with(chunk.dictionary, "#")).as_py()
                   for chunk in topic.chunks)
            or has_long_arrow_cells(read, LIMITED)):
        return None
    table = pd.DataFrame({
        "topic": categorical(topic),
        "doc": pd.arrays.ArrowStringArray(read.column("doc")),
        "score": joined_numbers(read.column("score")),
    }, copy=False)
    tags = list(dict.fromkeys(str(value) for chunk in tag.chunks
                              for value in chunk.dictionary.to_pylist()))
    return CleanRun(table, tags)


def _has_empty(column: pa.ChunkedArray) -> bool:
    """Whether a value of ``column`` is empty (a blank line, a blank doubled or at a line's
    edge): looked for in the dictionaries of an encoded column."""
    chunks = [chunk.dictionary if pa.types.is_dictionary(column.type) else chunk
              for chunk in column.chunks]
    return any(len(chunk) and pc.min(pc.binary_length(chunk)).as_py() == 0 for chunk in chunks)
