"""FOL runs: INEX file-offset-length passage runs.

One result a line, eight whitespace-separated fields::

    topic Q0 file rank rsv run_id offset length

A passage is the half-open character interval ``[offset, offset + length)`` of ``file``. The
ranking is the order of lines in the file (inex_eval 3.1 ignores ``rank`` and ``rsv``), so the
table keeps ``line`` (1-based) and ``order`` (1-based position of the line among the lines of
its topic). An offset of ``X`` or ``-1`` is inex_eval's "passage unknown to the database": kept
as ``offset = -1`` (``length`` 0 when not an integer); the evaluator gives it inex_eval's
length of an unknown passage and no relevant text.

The reader only reads: it reports a file it cannot open or decode (``builder.formats.source``),
an empty one, and lines it cannot parse (wrong number of fields, offsets and lengths that are
not integers, a score that is not a finite number), and leaves every other rule to
``builder.validate.fol_run``. The score follows the TREC run reader's rule (an error naming the
line for ``abc``, ``nan``, ``inf`` or ``1e999``) though inex_eval 3.1 never reads that field
(nor the rank): one rule for every run file, and a run page that shows the scores it ranks by.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, InputError, counted, listed
from builder.formats.long_values import long_cells
from builder.formats.source import read_text
from builder.formats.text.numbers import (
    FINITE_NUMBER,
    LARGEST_WHOLE,
    number_problem,
    whole_numbers,
)

FIELDS = ["topic", "q0", "file", "rank", "score", "tag", "offset", "length"]
COLUMNS = ["run", "topic", "file", "offset", "length", "line", "rank", "score", "tag", "order"]
"""The run table. ``tag`` is the run id written in the file (inex_eval prints the last one)."""

UNKNOWN_OFFSET = -1
"""``offset`` of a passage the file marks as unknown (``X`` or ``-1``)."""

_TOO_MANY = re.compile(r"Expected \d+ fields in line (\d+), saw (\d+)")


def empty_run_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "run": pd.Series(dtype=str),
            "topic": pd.Series(dtype=str),
            "file": pd.Series(dtype=str),
            "offset": pd.Series(dtype=np.int64),
            "length": pd.Series(dtype=np.int64),
            "line": pd.Series(dtype=np.int64),
            "rank": pd.Series(dtype=np.float64),
            "score": pd.Series(dtype=np.float64),
            "tag": pd.Series(dtype=str),
            "order": pd.Series(dtype=np.int64),
        }
    )


def read_fol_run(
    source: Path | str | IO[str], name: str | None = None, label: str | None = None
) -> tuple[pd.DataFrame | None, list[Finding]]:
    """Read a FOL run into the run table (``COLUMNS``) and the findings of unreadable lines.

    ``source`` is a path or an open text stream; ``name`` fills the ``run`` column (default:
    the file name); ``label`` names the file in findings (default: the path). The table is
    ``None`` when a line cannot be read: inex_eval stops at the first such line, we report
    every one of them.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        label = label or str(path)
        name = name or path.name
        try:
            text = read_text(path)
        except InputError as error:  # this run is rejected, the others are read
            return None, error.findings
    else:
        text = source.read()
        label = label or "<run>"
        name = name or label
    if not text.strip():
        return empty_run_table(), [Finding(label, None, "error", FindingCode.EMPTY,
                                           "empty run: no result lines")]
    try:
        raw = pd.read_csv(
            io.StringIO(text),
            sep=r"\s+",
            header=None,
            names=list(range(len(FIELDS) + 1)),
            dtype=str,
            skip_blank_lines=False,
            quoting=csv.QUOTE_NONE,
            keep_default_na=False,
            na_values=[],
        )
    except pd.errors.ParserError as exc:
        match = _TOO_MANY.search(str(exc))
        line = int(match.group(1)) if match else None
        return None, [Finding(label, line, "error", FindingCode.SYNTAX,
                              "too many fields (inex_eval needs 8)")]
    return _to_table(raw, name, label)


def _to_table(raw: pd.DataFrame, name: str, label: str) -> tuple[pd.DataFrame | None, list[Finding]]:
    findings: list[Finding] = []
    lines = np.arange(1, len(raw) + 1, dtype=np.int64)
    cells = raw.fillna("")
    extra = cells[len(FIELDS)] != ""
    missing = cells[len(FIELDS) - 1] == ""
    findings += _line_findings(label, lines[extra.to_numpy()], FindingCode.SYNTAX,
                               "too many fields (inex_eval needs 8)")
    findings += _line_findings(label, lines[missing.to_numpy()], FindingCode.SYNTAX,
                               "fields missing (inex_eval needs 8)")
    if findings:
        return None, findings

    offset_text = cells[6]
    unknown = offset_text.isin(["X", "-1"]).to_numpy()
    offset, offset_bad, offset_huge = whole_numbers(offset_text.where(~unknown, "-1"))
    length, length_bad, length_huge = whole_numbers(cells[7].where(~unknown, "0"))
    for what, bad, huge in (("offset", offset_bad, offset_huge),
                            ("length", length_bad, length_huge)):
        findings += _line_findings(label, lines[bad], FindingCode.VALUE,
                                   f"{what} is not an integer (a sign and digits, as inex_eval "
                                   "reads it)")
        findings += _line_findings(label, lines[huge], FindingCode.VALUE,
                                   f"{what} is too large (more than {LARGEST_WHOLE})")
    score, score_findings = _scores(label, lines, cells[4])
    findings += score_findings
    findings += long_cells(label, cells.rename(columns={0: "topic", 2: "file", 5: "tag"}),
                           lines, ["topic", "file", "tag"])
    if findings:
        return None, findings

    topic = cells[0].astype(str)
    table = pd.DataFrame(
        {
            "run": name,
            "topic": topic,
            "file": cells[2].astype(str),
            "offset": offset,
            "length": length,
            "line": lines,
            "rank": pd.to_numeric(cells[3], errors="coerce").to_numpy(dtype=np.float64),
            "score": score,
            "tag": cells[5].astype(str),
        }
    )
    table["order"] = table.groupby("topic", sort=False).cumcount().to_numpy(dtype=np.int64) + 1
    return table, findings


def _scores(label: str, lines: np.ndarray, texts: pd.Series) -> tuple[np.ndarray, list[Finding]]:
    """The scores, read once, and their findings. A score must be a finite number: the bad
    lines found over the whole column at once, each reported by the TREC run reader's own
    rule (``number_problem``), so a FOL run and a TREC run say the same of the same score."""
    number = texts.str.fullmatch(FINITE_NUMBER).to_numpy(bool)
    value = pd.to_numeric(texts.where(number, "0"), errors="coerce").to_numpy(np.float64)
    bad = np.flatnonzero(~(number & np.isfinite(value)))
    findings = listed(label, lines[bad], "error", FindingCode.VALUE,
                      lambda i: number_problem("score", texts.iloc[bad[i]]) or "score is not a number",
                      lambda n: f"score is not a finite number: {counted(n, 'more line')}")
    return value, findings


def _line_findings(label: str, lines: np.ndarray, code: FindingCode, message: str
                   ) -> list[Finding]:
    """An error of ``message`` for each of ``lines`` (``listed``: the first ones, then a count)."""
    return listed(label, lines, "error", code, message)
