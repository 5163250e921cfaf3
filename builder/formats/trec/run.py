"""TREC run files: ``qid Q0 docno rank score tag`` per line, plain or gzip.

Read into a run table with columns ``topic`` (categorical), ``doc``, ``score`` (float64),
``tag`` (categorical) and ``line`` (1-based line in the file); the ``Q0`` and rank fields must
be there but are not kept (trec_eval ignores both). Topics and tags repeat over thousands of
lines, so they are kept as categories: a byte or two per line instead of a string each. The
caller adds ``run``. Lines with fewer than six fields and scores that are not finite numbers
(``nan``, ``inf`` in any spelling: such a run cannot be ranked) become error findings; fields
after the sixth are ignored, as trec_eval does (``get_trec_results.c``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding
from builder.formats.long_values import long_arrow_cells
from builder.formats.source import release_read_memory
from builder.formats.text.reader import read_bytes, read_text_table

RUN_FIELDS = ["topic", "q0", "doc", "rank", "score", "tag"]
RUN_COLUMNS = ["topic", "doc", "score", "tag", "line"]
CATEGORY = pa.dictionary(pa.int32(), pa.string())
LIMITED = ("topic", "tag", "doc")
"""The columns whose length is limited (``builder.formats.long_values``): names and docno."""


@dataclass
class RunFile:
    """A run file's rows (``RUN_COLUMNS``) and the problems met while reading it (no table when
    the file could not be read at all)."""

    table: pd.DataFrame | None
    findings: list[Finding] = field(default_factory=list)


def read_trec_run(path: Path, atof: bool = False) -> RunFile:
    """Read one TREC run file: bad lines are findings; ``InputError`` when the file cannot be
    opened or is not UTF-8 (``builder.formats.source``). ``atof``: a score that is not a
    number is read as trec_eval reads it (C's ``atof``: ``1.5abc`` is 1.5, ``.`` 0, ``0x1A``
    26), with a warning naming its line, instead of an error."""
    file = str(path)
    text = read_text_table(
        read_bytes(path),
        file,
        RUN_FIELDS,
        extra_fields_allowed=True,
        types={"score": pa.float64(), "topic": CATEGORY, "tag": CATEGORY},
        ignored=("q0", "rank"),
        atof=atof,
    )
    long = long_arrow_cells(file, text.table, text.lines, LIMITED)
    if long:  # refused whole: a name that long would be the run's on every page
        return RunFile(None, text.findings + long)
    frame, findings = _frame(text.table, text.lines), list(text.findings)
    del text  # the parse's columns, now copied or shared by the frame
    release_read_memory(len(frame))
    return RunFile(frame, findings)


def _frame(read: pa.Table, lines: np.ndarray) -> pd.DataFrame:
    """The parsed columns as the run table. A file parsed in one block goes through Arrow's
    conversion, one call for every column (one block per column: consolidating the number
    columns into one 2-D block cost more than the parse of a small file; TREC-COVID round
    1's 143 runs: 0.33 -> 0.09 s). A file parsed in many blocks (a large one, on every
    core) is converted column by column here, each block's values copied once into place:
    Arrow's conversion of its categories cost a 10M-line run 0.2-0.3 s more, on one core."""
    if read.column("topic").num_chunks <= 1:
        return pa.table({
            "topic": _encoded(read.column("topic")), "doc": read.column("doc"),
            "score": read.column("score"), "tag": _encoded(read.column("tag")),
            "line": pa.array(lines),
        }).to_pandas(split_blocks=True)
    return pd.DataFrame({
        "topic": categorical(read.column("topic")),
        "doc": read.select(["doc"]).to_pandas()["doc"],  # the text as pandas holds it
        "score": joined_numbers(read.column("score")),
        "tag": categorical(read.column("tag")),
        "line": lines,
    }, copy=False)


def categorical(column: pa.ChunkedArray) -> pd.Categorical:
    """The column as a pandas categorical, its categories in the order first met (as Arrow's
    ``to_pandas`` makes it). Made here because Arrow's conversion transposes each block's
    indices into a new array, then pandas narrows them into another: a 10M-line run's tag
    column took 0.1-0.16 s, against 0.01 s for one copy of the unified indices into codes of
    the narrowest type."""
    column = _encoded(column).unify_dictionaries()
    categories = column.chunk(0).dictionary  # every block's, once unified
    codes = np.empty(len(column), code_type(len(categories)))
    start = 0
    for chunk in column.chunks:  # one per block of the file read
        codes[start:start + len(chunk)] = chunk.indices.to_numpy(zero_copy_only=False)
        start += len(chunk)
    return pd.Categorical.from_codes(codes, categories=pd.Index(categories.to_pandas()),
                                     validate=False)


def _encoded(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """The column dictionary-encoded (the careful path of the text reader gives plain text)."""
    return column if pa.types.is_dictionary(column.type) else pc.dictionary_encode(column)


def recategorised(values: pd.Categorical, dtype: pd.CategoricalDtype) -> pd.Categorical:
    """``values`` under ``dtype``, whose categories hold all of theirs: looked up once per
    category, the codes made at the width pandas keeps them (not made wide, then narrowed)."""
    lookup = dtype.categories.get_indexer(values.categories)
    return pd.Categorical.from_codes(lookup.astype(code_type(len(dtype.categories)))[
        values.codes], dtype=dtype, validate=False)


def code_type(count: int) -> type[np.signedinteger]:
    """The narrowest codes pandas uses for ``count`` categories."""
    return next(t for t in (np.int8, np.int16, np.int32, np.int64) if count < np.iinfo(t).max)


def joined_numbers(column: pa.ChunkedArray) -> np.ndarray:
    """A float column of no nulls as one array: its blocks copied once, side by side."""
    return np.concatenate([chunk.to_numpy(zero_copy_only=False) for chunk in column.chunks])
