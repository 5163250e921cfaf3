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

from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode, InputError, counted, listed
from builder.formats.long_values import long_arrow_cells
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
    fields, counts = split_fields(text.encode("utf-8"))
    lines = np.arange(1, len(counts) + 1, dtype=np.int64)
    if (counts != len(FIELDS)).any():
        return None, _field_count_findings(label, lines, counts)
    cells = [fields.take(np.arange(k, len(fields), len(FIELDS))) for k in range(len(FIELDS))]
    return _to_table(dict(zip(FIELDS, cells)), lines, name, label)


_SPACE, _TAB, _LF, _CR = (ord(c) for c in " \t\n\r")


def split_fields(data: bytes) -> tuple[pa.Array, np.ndarray]:
    """The whitespace-separated fields of every line of ``data``, in file order, as one Arrow
    string array, and the number of fields of each line.

    The rules of the reader this replaces (pandas' C parser, ``sep=r"\\s+"``): lines end at
    ``\\n``, ``\\r\\n`` or a lone ``\\r`` (a last line without one counts); fields are separated
    by runs of spaces and tabs, leading and trailing ones ignored; a blank line has no field.
    Computed on the bytes as numpy arrays (a mask of the fields' bytes, where fields start and
    end, each line's fields counted by a search of its end among the starts) and the fields'
    bytes gathered into one buffer, an Arrow string array's layout: no Python object per line
    or field (pandas' ``read_csv`` made one per cell, then Arrow strings of them: the reading
    took about three times as long).
    """
    raw = np.frombuffer(data, dtype=np.uint8)
    cr, lf = raw == _CR, raw == _LF
    line_end = cr | lf
    inside = ~(line_end | (raw == _SPACE) | (raw == _TAB))
    line_end[1:] &= ~(lf[1:] & cr[:-1])  # the \\n of \\r\\n ends no second line
    step = np.diff(inside.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1)
    bounds = np.flatnonzero(line_end)
    if not (cr[-1] or lf[-1]):  # a last line without its end
        bounds = np.append(bounds, len(raw))
    counts = np.diff(np.searchsorted(starts, bounds), prepend=0)
    offsets = np.zeros(len(starts) + 1, dtype=np.int64)
    np.cumsum(ends - starts, out=offsets[1:])
    kind, width = (pa.string(), np.int32) if offsets[-1] < 2**31 else (pa.large_string(), np.int64)
    fields = pa.Array.from_buffers(kind, len(starts), [
        None, pa.py_buffer(offsets.astype(width)), pa.py_buffer(raw[inside])])
    return fields, counts


def _field_count_findings(label: str, lines: np.ndarray, counts: np.ndarray) -> list[Finding]:
    """Lines without eight fields: every line of more (however many), then every line of fewer.
    (pandas' parser, which this reader replaces, stopped at the first line of ten or more.)"""
    return (_line_findings(label, lines[counts > len(FIELDS)], FindingCode.SYNTAX,
                           "too many fields (inex_eval needs 8)")
            + _line_findings(label, lines[counts < len(FIELDS)], FindingCode.SYNTAX,
                             "fields missing (inex_eval needs 8)"))


def _to_table(cells: dict[str, pa.Array], lines: np.ndarray, name: str, label: str
              ) -> tuple[pd.DataFrame | None, list[Finding]]:
    findings: list[Finding] = []
    unknown = pc.is_in(cells["offset"], pa.array(["X", "-1"]))
    offset, offset_bad, offset_huge = whole_numbers(pc.if_else(unknown, "-1", cells["offset"]))
    length, length_bad, length_huge = whole_numbers(pc.if_else(unknown, "0", cells["length"]))
    for what, bad, huge in (("offset", offset_bad, offset_huge),
                            ("length", length_bad, length_huge)):
        findings += _line_findings(label, lines[bad], FindingCode.VALUE,
                                   f"{what} is not an integer (a sign and digits, as inex_eval "
                                   "reads it)")
        findings += _line_findings(label, lines[huge], FindingCode.VALUE,
                                   f"{what} is too large (more than {LARGEST_WHOLE})")
    score = _finite_numbers(cells["score"])
    if score is None:
        score, score_findings = _scores(label, lines, cells["score"].to_pandas())
        findings += score_findings
    findings += long_arrow_cells(label, pa.table({k: cells[k] for k in ("topic", "file", "tag")}),
                                 lines, ["topic", "file", "tag"])
    if findings:
        return None, findings

    rank = _finite_numbers(cells["rank"])
    if rank is None:  # rare: pandas' reading of what is not a plain number (NaN if none)
        rank = pd.to_numeric(cells["rank"].to_pandas(), errors="coerce").to_numpy(np.float64)
    topic = cells["topic"].to_pandas()
    table = pd.DataFrame(
        {
            "run": name,
            "topic": topic,
            "file": cells["file"].to_pandas(),
            "offset": offset,
            "length": length,
            "line": lines,
            "rank": rank,
            "score": score,
            "tag": cells["tag"].to_pandas(),
        }
    )
    table["order"] = _order_in_topic(pc.dictionary_encode(cells["topic"]).indices.to_numpy())
    return table, findings


def _finite_numbers(texts: pa.Array) -> np.ndarray | None:
    """``texts`` as doubles when every one is a finite number (``FINITE_NUMBER``), read by
    Arrow's cast (which reads such texts as pandas and Python do, to the last bit); ``None``
    otherwise, for the careful reading."""
    if not pc.all(pc.match_substring_regex(texts, FINITE_NUMBER)).as_py():
        return None
    values = pc.cast(texts, pa.float64()).to_numpy()
    return values if np.isfinite(values).all() else None


def _order_in_topic(topic: np.ndarray) -> np.ndarray:
    """1-based position of each line among the lines of its topic (``topic``: codes)."""
    by_topic = np.argsort(topic, kind="stable")
    sorted_topic = topic[by_topic]
    first = np.concatenate([[True], sorted_topic[1:] != sorted_topic[:-1]])
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(topic)), 0))
    order = np.empty(len(topic), dtype=np.int64)
    order[by_topic] = np.arange(len(topic)) - group_start + 1
    return order


def _scores(label: str, lines: np.ndarray, texts: pd.Series) -> tuple[np.ndarray, list[Finding]]:
    """The scores, read once, and their findings. A score must be a finite number: the bad
    lines found over the whole column at once, each reported by the TREC run reader's own
    rule (``number_problem``), so a FOL run and a TREC run say the same of the same score."""
    number = texts.str.fullmatch(FINITE_NUMBER).to_numpy(bool)
    value = pd.to_numeric(texts.where(number, "0"), errors="coerce").to_numpy(np.float64)
    bad = np.flatnonzero(~(number & np.isfinite(value)))
    findings = listed(label, lines[bad], "error", FindingCode.VALUE,
                      lambda i: (number_problem("score", texts.iloc[bad[i]])
                                 or "score is not a number"),
                      lambda n: f"score is not a finite number: {counted(n, 'more line')}")
    return value, findings


def _line_findings(label: str, lines: np.ndarray, code: FindingCode, message: str
                   ) -> list[Finding]:
    """An error of ``message`` for each of ``lines`` (``listed``: the first ones, then a count)."""
    return listed(label, lines, "error", code, message)
