"""TREC text files the fast parse cannot split on one delimiter (tabs and spaces mixed, or a
carriage return that ends no line): normalised whole with byte-level regular expressions,
then parsed and read carefully like any other."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa

from builder.formats.source import Mapped
from builder.formats.text.careful import (
    extra_fields_warning,
    line_texts,
    merge_careful,
    suspect_rows,
)
from builder.formats.text.fields import parse_fields
from builder.formats.text.numbers import number_columns
from builder.formats.text.table import TextLayout, TextTable

_BLANKS = re.compile(rb"[ \t\f\v\r]+")
_LINE_EDGES = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^#[^\n]*")


def read_normalised(data: Mapped, layout: TextLayout) -> TextTable:
    """Files mixing tabs and spaces, or with a lone carriage return: normalised whole."""
    data = bytes(data)  # a mapped file too: the expressions make new bytes anyway
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
    table = (parse_fields(kept_codes.tobytes(), names, " ", string_types) if keep.any()
             else pa.table({n: pa.array([], layout.type_of(n) if n in string_types
                                        else pa.large_string()) for n in names}))
    table = number_columns(table, layout)
    lines = np.flatnonzero(keep).astype(np.int64) + 1
    suspect = suspect_rows(table, layout)
    if suspect is None:
        suspect = np.zeros(table.num_rows, dtype=bool)
    odd += line_texts(text, np.flatnonzero(keep)[suspect] + 1)
    read, extra = merge_careful(table, lines, suspect, odd, layout)
    read.findings += extra_fields_warning(layout.file, width, extra)
    return read
