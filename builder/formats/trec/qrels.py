"""TREC qrels: ``qid iter docno rel`` per line, plain or gzip.

Read into a qrels table ``topic`` (str), ``doc`` (str), ``rel`` (int64). As in trec_eval's
``get_qrels.c``: the iteration field may be any token (TREC-COVID has floats), lines starting
with ``#`` are comments, relevance is read like C's ``atol`` (``"2.0"`` is 2) and may be
negative (judged-but-unjudged: neither relevant nor non-relevant). A malformed line or a docno
judged twice for one topic makes the whole file unusable: ``QrelsError`` lists every problem.

``atof``, trec_eval's reading: a relevance with no leading integer (``abc``, ``+-3``) is 0, as
``atol`` reads it, with a warning naming its line; a blank line, on which trec_eval quits
("Malformed line"), is skipped with a warning (the strict reading skips it without one).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode, InputError
from builder.formats.source import release_read_memory
from builder.formats.text.reader import read_bytes, read_text_table
from builder.formats.trec.repeated_pairs import repeated_rows

QRELS_FIELDS = ["topic", "iter", "doc", "rel"]
QRELS_COLUMNS = ["topic", "doc", "rel"]

_LEADING_INTEGER = r"^\+?(?P<n>-?\d+)"
"""What C's ``atol`` reads at the start of the field; the sign ``+`` is not kept (Arrow's
integer parser refuses it)."""
MAX_DIGITS = 18
"""Relevance values have at most this many digits (they must fit a 64-bit integer)."""


class QrelsError(InputError):
    """The qrels file cannot be used; ``findings`` says where and why."""


def read_trec_qrels(path: Path, atof: bool = False) -> pd.DataFrame:
    """Read a qrels file into ``QRELS_COLUMNS``; raises ``QrelsError`` on bad content. The
    warnings of the ``atof`` reading are the table's ``attrs["findings"]``."""
    file = str(path)
    data = read_bytes(path)
    text = read_text_table(
        data, file, QRELS_FIELDS, extra_fields_allowed=False, ignored=("iter",)
    )
    findings = list(text.findings)
    rel, problems, warnings = _relevance(text.table.column("rel"), text.lines, file, atof)
    findings += problems
    if atof:
        warnings += [
            Finding(file, line, "warning", FindingCode.SYNTAX, "blank line skipped (trec_eval quits on it: "
                    "Malformed line)")
            for line in blank_lines(data)
        ]
    qrels = pd.DataFrame(
        {
            "topic": text.table.column("topic").to_pandas(),
            "doc": text.table.column("doc").to_pandas(),
            "rel": rel,
        }
    )
    repeated = _repeated(text.table.column("topic"), text.table.column("doc"))
    findings += [
        Finding(file, int(line), "error", FindingCode.DUPLICATE,
                f"document {doc} judged twice for topic {topic}")
        for line, topic, doc in zip(
            text.lines[repeated], qrels["topic"][repeated], qrels["doc"][repeated]
        )
    ]
    del text, data  # the parse's columns, now copied or shared by the frame
    release_read_memory(len(qrels))
    if not findings and qrels.empty:
        findings.append(Finding(file, None, "error", FindingCode.EMPTY,
                                "no judgement: the qrels file has no "
                                "judgement line (only blank or comment lines)"))
    if findings:
        raise QrelsError(findings)
    if warnings:
        qrels.attrs["findings"] = warnings
    return qrels


def _relevance(rel_text: pa.ChunkedArray, lines: np.ndarray, file: str, atof: bool
               ) -> tuple[np.ndarray, list[Finding], list[Finding]]:
    """The relevance values as C's ``atol`` reads them, the errors (or, with ``atof``, the
    warnings) of the values that are not integers, and the errors of those too long."""
    plain = _plain_integers(rel_text)
    if plain is not None:
        return plain, [], []
    integer = pc.extract_regex(rel_text, _LEADING_INTEGER)
    # atol reads one sign: "+-3" is 0 (the pattern's optional "+" would let "-3" through).
    valid = pc.and_(pc.is_valid(integer), pc.invert(pc.starts_with(rel_text, "+-")))
    valid = valid.to_numpy(zero_copy_only=False)
    findings, warnings = [], []
    if atof:
        warnings += [
            Finding(file, int(line), "warning", FindingCode.VALUE,
                    f"relevance {rel} read as 0, as trec_eval "
                    "reads it (C's atol)")
            for line, rel in zip(lines[~valid], rel_text.filter(pa.array(~valid)).to_pylist())
        ]
    else:
        findings += [
            Finding(file, int(line), "error", FindingCode.VALUE, "relevance is not an integer")
            for line in lines[~valid]
        ]
    digits = pc.utf8_length(pc.utf8_ltrim(pc.struct_field(integer, "n"), "-"))
    huge = pc.fill_null(pc.greater(digits, MAX_DIGITS), False).to_numpy(zero_copy_only=False)
    findings += [
        Finding(file, int(line), "error", FindingCode.VALUE,
                f"relevance has more than {MAX_DIGITS} digits")
        for line in lines[huge]
    ]
    valid &= ~huge
    rel = np.zeros(len(valid), dtype=np.int64)
    if valid.any():
        digits = pc.struct_field(integer.filter(pa.array(valid)), "n")
        rel[valid] = pc.cast(digits, pa.int64()).to_numpy()
    return rel, findings, warnings


def _plain_integers(rel_text: pa.ChunkedArray) -> np.ndarray | None:
    """The values when every one is a plain integer of at most ``MAX_DIGITS`` characters (the
    usual file: one cast, no pattern), else None. Arrow's cast also reads ``0x1A`` as 26,
    where ``atol`` reads 0: a value with an ``x`` takes the pattern's way."""
    if not len(rel_text) or pc.max(pc.binary_length(rel_text)).as_py() > MAX_DIGITS:
        return None
    # Two plain searches: ignore_case makes Arrow's search about 15 times slower.
    if any(pc.any(pc.match_substring(rel_text, x)).as_py() for x in "xX"):
        return None
    try:
        values = pc.cast(rel_text, pa.int64())
    except pa.ArrowInvalid:
        return None
    return np.concatenate([np.zeros(0, np.int64), *(c.to_numpy() for c in values.chunks)])


def blank_lines(data: bytes) -> list[int]:
    """The 1-based numbers of the lines of ``data`` with nothing but blanks (the end of the
    last line is not a line); counted by whole arrays."""
    codes = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(codes == ord("\n"))
    if len(codes) and codes[-1] != ord("\n"):
        ends = np.r_[ends, len(codes)]
    starts = np.r_[0, ends[:-1] + 1] if len(ends) else ends
    content = ~np.isin(codes, np.frombuffer(b" \t\n\v\f\r", dtype=np.uint8))
    before = np.r_[0, np.cumsum(content)]
    return (np.flatnonzero(before[ends] == before[starts]) + 1).tolist()


def _repeated(topic: pa.ChunkedArray, doc: pa.ChunkedArray) -> np.ndarray:
    """Per row: whether an earlier row has its (topic, doc) pair (``repeated_rows``)."""
    topic_codes = np.concatenate([np.zeros(0, np.int32)] + [
        chunk.indices.to_numpy() for chunk in pc.dictionary_encode(topic).chunks])
    repeated = np.zeros(len(doc), dtype=bool)
    repeated[repeated_rows(topic_codes, doc)] = True
    return repeated
