"""Names and fields beyond the input limits (``builder.formats.limits``): a run tag or run-id,
a topic id or a team longer than ``limits.name`` characters, a run's other field (a docno, a
file, an XML path) longer than ``limits.field`` bytes. A name is shown on every page of its
run and joins its tables, so its length would multiply through the build; such a run is
refused whole (no table), and named by its file.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode, listed
from builder.formats.limits import current_limits, size_text

NAMES = ("topic", "tag", "run-id", "team", "run")
"""The columns whose values are names (``limits.name``, in characters)."""


def too_long(file: str, lines: np.ndarray, lengths: np.ndarray, what: str) -> list[Finding]:
    """An error for each line whose ``what`` (a column of ``NAMES``, or another field) is
    ``lengths`` long beyond its limit: characters for a name, bytes for a field."""
    limit, beyond = _limit(what)
    bad = np.flatnonzero(np.asarray(lengths) > limit)
    message = f"the {_label(what)} is longer than {beyond}"
    return listed(file, np.asarray(lines)[bad], "error", FindingCode.TOO_LARGE, message)


def _limit(what: str) -> tuple[int, str]:
    """The limit of a column and how a message says it: ``limits.name`` characters for a
    name (``NAMES``), ``limits.field`` bytes for any other field."""
    limits = current_limits()
    if what in NAMES:
        return limits.name, f"{limits.name} characters (limits: name)"
    return limits.field, f"{size_text(limits.field)} (limits: field)"


def _label(what: str) -> str:
    return {"tag": "run tag", "topic": "topic id"}.get(what, what)


def long_cells(file: str, table: pd.DataFrame, lines: np.ndarray, columns: Iterable[str]
               ) -> list[Finding]:
    """``too_long`` over text ``columns`` of ``table`` (characters of names, UTF-8 bytes of
    other fields: a field's bytes are at least its characters, so only the rows that may be
    too long are encoded)."""
    found: list[Finding] = []
    for column in columns:
        values = table[column].astype(str)
        lengths = values.str.len().to_numpy()
        if column not in NAMES:
            maybe = np.flatnonzero(lengths * 4 > current_limits().field)
            lengths = np.zeros(len(values), dtype=np.int64)
            lengths[maybe] = [len(v.encode("utf-8")) for v in values.iloc[maybe]]
        found += too_long(file, lines, lengths, column)
    return found


def long_arrow_cells(file: str, table: pa.Table, lines: np.ndarray, columns: Iterable[str]
                     ) -> list[Finding]:
    """``too_long`` over string columns of an Arrow ``table`` (plain or dictionary-encoded),
    measured on the rows only when ``has_long_arrow_cells`` found some value too long."""
    found: list[Finding] = []
    for name in columns:
        column = table.column(name)
        if not has_long_arrow_cells(table, [name]):
            continue
        length = _arrow_length(name)
        rows = np.concatenate([
            length(chunk.dictionary).to_numpy(zero_copy_only=False)[
                chunk.indices.to_numpy(zero_copy_only=False)]
            if pa.types.is_dictionary(column.type)
            else length(chunk).to_numpy(zero_copy_only=False) for chunk in column.chunks])
        found += too_long(file, lines, rows, name)
    return found


def has_long_arrow_cells(table: pa.Table, columns: Iterable[str]) -> bool:
    """Whether a value of a string column of ``table`` is beyond its limit: measured on each
    chunk's dictionary of an encoded column, so that a valid run costs one pass over its
    distinct values."""
    for name in columns:
        column, length = table.column(name), _arrow_length(name)
        values = [chunk.dictionary if pa.types.is_dictionary(column.type) else chunk
                  for chunk in column.chunks]
        if any(len(v) and pc.max(length(v)).as_py() > _limit(name)[0] for v in values):
            return True
    return False


def _arrow_length(name: str):
    """Arrow's length of a column's values: characters of a name, UTF-8 bytes of a field."""
    return pc.utf8_length if name in NAMES else pc.binary_length
