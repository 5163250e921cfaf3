"""Runs and qrels given as tables or dicts, written as the TREC text files the readers read.

A notebook holds a run as a pandas DataFrame (our columns ``topic``, ``doc``, ``score``, or
ir_measures' and ranx's ``query_id``/``q_id``, ``doc_id``, ``score``/``relevance``) or as
pytrec_eval's dict of dicts (``{topic: {doc: score}}``). Each is written as TREC text and read
by the file readers (``builder.formats.trec.run``, ``.qrels``), so that a table is read and
checked by the very rules a file is (a score that is not a finite number, a duplicate document,
a topic the qrels lack) and gives the same numbers: Arrow's CSV writer prints each float as the
shortest text that reads back to the same double. A problem is reported on the table's row:
line ``n`` of the written file is row ``n - 1`` of the table (``Source.row``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from builder.findings import Finding, FindingCode, InputError

RUN_ALIASES: dict[str, tuple[str, ...]] = {
    "topic": ("topic", "query_id", "q_id", "qid"),
    "doc": ("doc", "doc_id", "docno", "docid"),
    "score": ("score",),
}
QRELS_ALIASES: dict[str, tuple[str, ...]] = {
    "topic": RUN_ALIASES["topic"],
    "doc": RUN_ALIASES["doc"],
    "rel": ("rel", "relevance", "label", "score"),
}
PYTHON_WHITE_SPACE = r"[\t\n\v\f\r\x1c-\x1f\x85\p{Z}]"
r"""Python's ``\s`` (the characters ``str.isspace`` holds: tabs and line ends, the four ASCII
separators, NEL and the Unicode separators) written for Arrow's RE2, whose ``\s`` is ASCII
white space only: the check runs over the whole column in Arrow, not once per row in Python."""
RUN_NAME_COLUMNS = ("run", "tag", "name")
"""A column that names each row's run, when one table holds several runs."""


@dataclass(frozen=True)
class Source:
    """A table written to ``path``, named ``label`` in findings."""

    path: Path
    label: str

    def finding(self, finding: Finding) -> Finding:
        """``finding`` about the written file, said of the table: its label, and the row
        (``line - 1``) named in the message."""
        if finding.file != str(self.path):
            return finding
        message = finding.message if finding.line is None else (
            f"row {finding.line - 1}: {finding.message}")
        return Finding(self.label, finding.line, finding.severity, finding.code, message)


def dict_table(mapping: Mapping[Any, Mapping[Any, Any]], value: str) -> pd.DataFrame:
    """pytrec_eval's ``{topic: {doc: value}}`` as a table of ``topic``, ``doc``, ``value``."""
    topics = [(str(topic), docs) for topic, docs in mapping.items()]
    return pd.DataFrame({
        "topic": np.repeat([t for t, _ in topics], [len(d) for _, d in topics]),
        "doc": [str(doc) for _, docs in topics for doc in docs],
        value: [v for _, docs in topics for v in docs.values()],
    })


def is_dict_of_dicts(value: Any) -> bool:
    """Whether ``value`` is pytrec_eval's ``{topic: {doc: number}}``."""
    if not isinstance(value, Mapping):
        return False
    inner = next(iter(value.values()), {})
    return isinstance(inner, Mapping) and all(
        not isinstance(v, (Mapping, pd.DataFrame)) for v in inner.values())


def runs_of_table(table: pd.DataFrame, label: str, default_name: str = "run"
                  ) -> dict[str, pd.DataFrame]:
    """The runs of one table, by its run column (``run``, ``tag`` or ``name``) or, without
    one, one run named ``default_name``."""
    column = next((c for c in RUN_NAME_COLUMNS if c in table.columns), None)
    if column is None:
        return {default_name: table}
    names = table[column].astype(str)
    return {name: table[(names == name).to_numpy()] for name in pd.unique(names)}


def write_run(table: pd.DataFrame, name: str, path: Path, label: str) -> None:
    """``table`` as a TREC run file named ``name`` (its tag): ``topic Q0 doc 0 score name``."""
    columns = _columns(table, RUN_ALIASES, label)
    _check_name(name, label)
    count = len(table)
    _write(pa.table({
        "topic": _text(table[columns["topic"]], label), "q0": pa.array(np.full(count, "Q0")),
        "doc": _text(table[columns["doc"]], label), "rank": pa.array(np.zeros(count, np.int8)),
        "score": _numbers(table[columns["score"]]), "tag": pa.array(np.full(count, name)),
    }), path)


def write_qrels(table: pd.DataFrame, path: Path, label: str) -> None:
    """``table`` as a TREC qrels file: ``topic 0 doc rel``."""
    columns = _columns(table, QRELS_ALIASES, label)
    _write(pa.table({
        "topic": _text(table[columns["topic"]], label),
        "iter": pa.array(np.zeros(len(table), np.int8)),
        "doc": _text(table[columns["doc"]], label),
        "rel": _numbers(table[columns["rel"]]),
    }), path)


def _columns(table: pd.DataFrame, aliases: Mapping[str, tuple[str, ...]], label: str
             ) -> dict[str, str]:
    found, missing = {}, []
    for column, names in aliases.items():
        name = next((n for n in names if n in table.columns), None)
        if name is None:
            missing.append(f"{column} (or {', '.join(names[1:])})" if names[1:] else column)
        else:
            found[column] = name
    if missing:
        raise InputError.at(label, None, FindingCode.SYNTAX,
                            f"no column {', '.join(missing)}; its columns: "
                            f"{', '.join(map(str, table.columns))}")
    return found


def _text(column: pd.Series, label: str) -> pa.Array:
    """Topic or document identifiers as text, refused where empty or holding white space
    (the field would split in two): the row named."""
    text = pa.array(column.astype(str).to_numpy(object), pa.string())
    bad = pc.or_(pc.match_substring_regex(text, PYTHON_WHITE_SPACE),
                 pc.equal(pc.binary_length(text), 0))
    if pc.any(bad).as_py():
        row = pc.index(bad, True).as_py()
        raise InputError.at(label, row + 1, FindingCode.SYNTAX,
                            f"row {row}: {column.name} {text[row].as_py()!r} is empty or holds "
                            "white space")
    return text


def _numbers(column: pd.Series) -> pa.Array:
    """Numbers as they are (integers stay integers); anything else as its text, which the
    reader judges."""
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return pa.array(column.to_numpy())
    return pa.array(column.astype(str).to_numpy(object), pa.string())


def _check_name(name: str, label: str) -> None:
    if not name or any(c.isspace() for c in name):
        raise InputError.at(label, None, FindingCode.NAMING,
                            f"run name {name!r} is empty or holds white space")


def _write(table: pa.Table, path: Path) -> None:
    pa_csv.write_csv(table, str(path), pa_csv.WriteOptions(
        include_header=False, delimiter=" ", quoting_style="none"))
