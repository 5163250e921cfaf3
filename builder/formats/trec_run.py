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

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding
from builder.formats.source import release_read_memory
from builder.formats.trec_text import read_bytes, read_text_table

RUN_FIELDS = ["topic", "q0", "doc", "rank", "score", "tag"]
RUN_COLUMNS = ["topic", "doc", "score", "tag", "line"]
CATEGORY = pa.dictionary(pa.int32(), pa.string())



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
    score = text.table.column("score")
    table = pa.table(
        {
            "topic": _categories(text.table.column("topic")),
            "doc": text.table.column("doc"),
            "score": score,
            "tag": _categories(text.table.column("tag")),
            "line": pa.array(text.lines),
        }
    )
    # One block per column: consolidating the number columns into one 2-D block costs more
    # than the read's parse of a small file (TREC-COVID round 1's 143 runs: 0.33 -> 0.09 s).
    frame, findings = table.to_pandas(split_blocks=True), list(text.findings)
    del table, text, score  # the parse's columns, now copied or shared by the frame
    release_read_memory(len(frame))
    return RunFile(frame, findings)


def _categories(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """The column dictionary-encoded (the careful path of the text reader gives plain text)."""
    return column if pa.types.is_dictionary(column.type) else pc.dictionary_encode(column)

