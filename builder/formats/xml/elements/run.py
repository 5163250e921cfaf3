"""Element runs: INEX results that name XML elements (or element-bounded passages) by path.

Two formats are read into one element-run table (``COLUMNS``):

- the TREC-like element format, one result a line::

      topic Q0 file rank rsv run_id path

- INEX XML submissions (INEX 2006-2010 ad hoc track)::

      <inex-submission participant-id="P" run-id="R" task="Focused" result-type="element">
        <topic topic-id="T">
          <result><file>F</file><path>/article[1]/body[1]</path><rsv>0.8</rsv></result>
          <result><file>F</file><passage start="/article[1]/p[1]/text()[1].5"
                                         end="/article[1]/p[3]"/></result>
          <result><file>F</file><fol offset="120" length="300"/></result>
        </topic>
      </inex-submission>

  a result is an element (``<path>``), a passage between two element points (``<passage>``,
  2007's passage form; an endpoint may end in ``.N``, the N-th character of that node), or a
  file-offset-length passage (``<fol>``, 2008-2010's form).

The ranking is the order of results in the file, as inex_eval reads FOL runs. Readers only
read; ``builder.formats.xml.elements.resolve`` turns paths into character ranges over a corpus.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, InputError, listed
from builder.formats.long_values import long_cells, too_long

if TYPE_CHECKING:
    from lxml import etree
from builder.formats.source import decode_text, read_input
from builder.formats.text.numbers import LARGEST_WHOLE, whole_number

COLUMNS = ["run", "topic", "file", "path", "end_path", "offset", "length", "line", "rank",
           "score", "tag", "order"]
"""``path``: the element (or a passage's start point); ``end_path``: a passage's end point
(empty for elements); ``offset``/``length``: a ``<fol>`` result's range (-1 otherwise)."""
TREC_FIELDS = 7
MAX_OFFSET = LARGEST_WHOLE
"""Larger offsets and lengths are no article's (and would not survive the float arithmetic)."""


def looks_like_xml(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("<")


def read_element_run(source: Path, name: str | None = None, label: str | None = None
                     ) -> tuple[pd.DataFrame | None, list[Finding]]:
    """Read an element run (either format, told apart by its first character). A file that
    cannot be opened, unpacked or decoded (``builder.formats.source``'s encoding policy; an
    XML submission may declare its encoding) is a finding, not an exception."""
    path = Path(source)
    label = label or str(path)
    try:
        data = read_input(path)
        if looks_like_xml(data[:4096].decode("utf-8", "replace")):
            return read_inex_submission(data, name or path.name, label)
        text = decode_text(data, label)
    except InputError as error:
        return None, [replace(f, file=label) for f in error.findings]
    return read_trec_element_run(text, name or path.name, label)


def read_trec_element_run(text: str, name: str, label: str
                          ) -> tuple[pd.DataFrame | None, list[Finding]]:
    if not text.strip():
        return None, [Finding(label, None, "error", FindingCode.EMPTY, "the run is empty")]
    try:
        raw = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None,
                          names=list(range(TREC_FIELDS + 1)), dtype=str, quoting=csv.QUOTE_NONE,
                          keep_default_na=False, na_values=[], skip_blank_lines=False)
    except pd.errors.ParserError as exc:
        return None, [Finding(label, None, "error", FindingCode.SYNTAX,
                              f"cannot read the run: {exc}")]
    cells = raw.fillna("")
    lines = np.arange(1, len(cells) + 1, dtype=np.int64)
    blank = (cells[0] == "").to_numpy()
    cells, lines = cells[~blank], lines[~blank]
    bad = ((cells[TREC_FIELDS] != "") | (cells[TREC_FIELDS - 1] == "")).to_numpy()
    if bad.any():
        return None, listed(label, lines[bad], "error", FindingCode.SYNTAX,
                            f"expected {TREC_FIELDS} fields (topic Q0 file rank rsv run_id path)")
    long = long_cells(label, cells.rename(columns={0: "topic", 2: "file", 5: "tag", 6: "path"}),
                      lines, ["topic", "file", "tag", "path"])
    if long:
        return None, long
    table = pd.DataFrame({
        "run": name, "topic": cells[0], "file": cells[2], "path": cells[6], "end_path": "",
        "offset": np.int64(-1), "length": np.int64(-1), "line": lines.astype(np.int64),
        "rank": pd.to_numeric(cells[3], errors="coerce").to_numpy(),
        "score": pd.to_numeric(cells[4], errors="coerce").to_numpy(),
        "tag": cells[5],
    })
    return _with_order(table), []


def _text(result: etree._Element, tag: str) -> str:
    found = result.find(tag)
    return "" if found is None or found.text is None else found.text.strip()


def read_inex_submission(data: bytes, name: str, label: str
                         ) -> tuple[pd.DataFrame | None, list[Finding]]:
    from lxml import etree  # here, not at the top: a FOL run's reading never needs lxml

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True,
                             huge_tree=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        return None, [Finding(label, line, "error", FindingCode.SYNTAX,
                              f"not well-formed XML: {exc.msg}")]
    if root.tag != "inex-submission":
        return None, [Finding(label, root.sourceline, "error", FindingCode.SYNTAX,
                              f"root element is <{root.tag}>, expected <inex-submission>")]
    tag = root.get("run-id", "") or name
    long = too_long(label, np.array([root.sourceline or 1]), np.array([len(tag)]), "run-id")
    if long:  # before the table repeats it on every row
        return None, long
    findings: list[Finding] = []
    records: list[tuple] = []
    for topic in root.iter("topic"):
        topic_id = topic.get("topic-id", "").strip()
        if not topic_id:
            findings.append(Finding(label, topic.sourceline, "error", FindingCode.SYNTAX,
                                    "<topic> without a topic-id attribute"))
            continue
        for result in topic.iter("result"):
            file = _text(result, "file")
            rsv = _text(result, "rsv")
            rank = _text(result, "rank")
            passage = result.find("passage")
            fol = result.find("fol")
            path, end_path, offset, length = _text(result, "path"), "", -1, -1
            if passage is not None:
                path, end_path = passage.get("start", ""), passage.get("end", "")
            elif fol is not None:
                try:  # as inex_eval reads them; not whole numbers: refused by the range below
                    offset = whole_number(fol.get("offset", ""))
                    length = whole_number(fol.get("length", ""))
                except OverflowError:
                    findings.append(Finding(label, fol.sourceline, "error", FindingCode.VALUE,
                                            "<fol> offset and length are too large (more than "
                                            f"{MAX_OFFSET})"))
                    continue
                offset, length = (-1 if offset is None else offset,
                                  -1 if length is None else length)
                if not (0 <= offset < MAX_OFFSET and 0 < length < MAX_OFFSET):
                    findings.append(Finding(label, fol.sourceline, "error",
                                            FindingCode.VALUE,
                                            "<fol> offset must be an integer of 0 or more and "
                                            "length a positive integer"))
                    continue
            if not file:
                findings.append(Finding(label, result.sourceline, "error",
                                        FindingCode.SYNTAX, "<result> without a <file>"))
                continue
            if not path and fol is None:
                findings.append(Finding(label, result.sourceline, "error",
                                        FindingCode.SYNTAX,
                                        "<result> without a <path>, <passage> or <fol>"))
                continue
            records.append((topic_id, file, path, end_path, offset, length, result.sourceline,
                            rank, rsv))
    if findings:
        return None, findings
    if not records:
        return None, [Finding(label, None, "error", FindingCode.EMPTY,
                              "the submission has no result")]
    columns = list(zip(*records, strict=True))
    long = long_cells(label, pd.DataFrame({"topic": columns[0], "file": columns[1],
                                           "path": columns[2], "end_path": columns[3]}),
                      np.asarray(columns[6], dtype=np.int64), ["topic", "file", "path", "end_path"])
    if long:
        return None, long
    table = pd.DataFrame({
        "run": name, "topic": list(columns[0]), "file": list(columns[1]),
        "path": list(columns[2]), "end_path": list(columns[3]),
        "offset": np.asarray(columns[4], dtype=np.int64),
        "length": np.asarray(columns[5], dtype=np.int64),
        "line": np.asarray(columns[6], dtype=np.int64),
        "rank": pd.to_numeric(pd.Series(columns[7]), errors="coerce").to_numpy(),
        "score": pd.to_numeric(pd.Series(columns[8]), errors="coerce").to_numpy(),
        "tag": tag,
    })
    return _with_order(table), findings


def _with_order(table: pd.DataFrame) -> pd.DataFrame:
    table["order"] = table.groupby("topic", sort=False).cumcount().to_numpy(np.int64) + 1
    return table[COLUMNS]
