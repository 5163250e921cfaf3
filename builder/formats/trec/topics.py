"""Topic files: the TREC SGML-like format and an XML variant, read into a topic table.

TREC format (TREC 1-8 ad hoc, Robust)::

    <top>
    <num> Number: 401
    <title> foreign minorities, Germany
    <desc> Description:
    What language and cultural differences impede ...
    <narr> Narrative:
    A relevant document will focus on ...
    </top>

Fields have no closing tags and may span lines. The XML variant (TREC-COVID, INEX) is
``<topics><topic number="1"><query>..</query><question>..</question><narrative>..</narrative>
</topic></topics>``; ``title``/``query``, ``description``/``desc``/``question`` and
``narrative``/``narr`` are accepted, and the number may be an attribute (``number``, ``id``)
or a child element (``number``, ``num``). Indri query files (``<parameters><query>``, as INEX
re-use data ships its topics) are read by ``builder.formats.inex.topics``.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pandas as pd

from builder.findings import Finding, FindingCode
from builder.formats.source import decode_text, read_input

TOPIC_COLUMNS = ["topic", "title", "description", "narrative"]

_TREC_FIELDS = {"num": "topic", "title": "title", "desc": "description", "narr": "narrative"}
_TREC_TAG = re.compile(r"^\s*<(/?top|num|title|desc|narr)>\s?(.*)$", re.IGNORECASE)
_FIELD_PREFIX = {
    "topic": re.compile(r"^number:\s*", re.IGNORECASE),
    "title": re.compile(r"^topic:\s*", re.IGNORECASE),
    "description": re.compile(r"^description:\s*", re.IGNORECASE),
    "narrative": re.compile(r"^narrative:\s*", re.IGNORECASE),
}
_XML_FIELDS = {
    "title": ("title", "query"),
    "description": ("description", "desc", "question"),
    "narrative": ("narrative", "narr"),
}


def read_topics(path: Path) -> tuple[pd.DataFrame, list[Finding]]:
    """The topics of ``path`` (``TOPIC_COLUMNS``, in file order) and the problems found.

    A file whose first non-blank character opens an XML declaration or a ``<topics>`` root is
    read as XML; anything else as TREC format.
    """
    data = read_input(path)
    head = data.removeprefix(codecs.BOM_UTF8).lstrip()[:200].lower()
    if head.startswith((b"<?xml", b"<topics", b"<parameters")):
        rows, findings = _read_xml(path, data)
    else:
        rows, findings = _read_trec(str(path), decode_text(data, str(path)))
    findings += _duplicates(str(path), rows)
    table = pd.DataFrame([r[1] for r in rows], columns=TOPIC_COLUMNS)
    return table.drop_duplicates("topic", keep="first").reset_index(drop=True), findings


def _clean(field: str, lines: list[str]) -> str:
    text = " ".join(line.strip() for line in lines if line.strip())
    return _FIELD_PREFIX[field].sub("", text).strip()


def _read_trec(file: str, text: str) -> tuple[list[tuple[int, dict[str, str]]], list[Finding]]:
    rows: list[tuple[int, dict[str, str]]] = []
    findings: list[Finding] = []
    start: int | None = None
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = _TREC_TAG.match(line)
        tag = match.group(1).lower() if match else None
        if tag == "top":
            if start is not None:
                findings.append(Finding(file, number, "error", FindingCode.SYNTAX,
                                        "<top> inside an open <top>"))
            start, fields, current = number, {}, None
        elif tag == "/top":
            if start is None:
                findings.append(Finding(file, number, "error", FindingCode.SYNTAX,
                                        "</top> without <top>"))
                continue
            topic = {f: _clean(f, fields.get(f, [])) for f in TOPIC_COLUMNS}
            if not topic["topic"]:
                findings.append(Finding(file, start, "error", FindingCode.SYNTAX,
                                        "topic without <num>"))
            else:
                rows.append((start, topic))
            start, current = None, None
        elif tag is not None:
            if start is None:
                findings.append(Finding(file, number, "error", FindingCode.SYNTAX,
                                        f"<{tag}> outside <top>"))
                continue
            current = _TREC_FIELDS[tag]
            fields[current] = [match.group(2)]
        elif current is not None:
            fields[current].append(line)
        elif start is None and line.strip():
            findings.append(Finding(file, number, "error", FindingCode.SYNTAX, "text outside <top>"))
    if start is not None:
        findings.append(Finding(file, start, "error", FindingCode.SYNTAX, "<top> is never closed"))
    if not rows and not findings:
        findings.append(Finding(file, None, "error", FindingCode.EMPTY, "no topics found"))
    return rows, findings


def _read_xml(path: Path, data: bytes) -> tuple[list[tuple[int, dict[str, str]]], list[Finding]]:
    from lxml import etree

    from builder.formats.inex.topics import safe_xml_parser

    file = str(path)
    try:
        root = etree.fromstring(data, safe_xml_parser())
    except etree.XMLSyntaxError as exc:
        return [], [Finding(file, exc.lineno or None, "error", FindingCode.SYNTAX,
                            f"not well-formed XML: {exc.msg}")]
    if root.tag == "parameters":
        return _read_indri(path)
    rows: list[tuple[int, dict[str, str]]] = []
    findings: list[Finding] = []
    for element in root.iter("topic"):
        children = {child.tag.lower(): child for child in element if isinstance(child.tag, str)}
        number = element.get("number") or element.get("id")
        for name in ("number", "num"):
            if number is None and name in children:
                number = children[name].text
        topic = {"topic": (number or "").strip()}
        for field, names in _XML_FIELDS.items():
            found = next((children[n] for n in names if n in children), None)
            topic[field] = " ".join("".join(found.itertext()).split()) if found is not None else ""
        if not topic["topic"]:
            findings.append(Finding(file, element.sourceline, "error", FindingCode.SYNTAX,
                                    "topic without a number"))
        else:
            rows.append((element.sourceline, topic))
    if not rows and not findings:
        findings.append(Finding(file, None, "error", FindingCode.EMPTY, "no <topic> elements found"))
    return rows, findings


def _read_indri(path: Path) -> tuple[list[tuple[int, dict[str, str]]], list[Finding]]:
    from builder.formats.inex.topics import TopicsError, read_inex_topics

    try:
        table = read_inex_topics(path)
    except TopicsError as error:
        return [], error.findings
    table = table.assign(description="", narrative="")[TOPIC_COLUMNS]
    return [(0, row) for row in table.to_dict("records")], []


def _duplicates(file: str, rows: list[tuple[int, dict[str, str]]]) -> list[Finding]:
    seen: dict[str, int] = {}
    findings = []
    for line, topic in rows:
        if topic["topic"] in seen:
            message = f"topic {topic['topic']} already defined on line {seen[topic['topic']]}"
            findings.append(Finding(file, line, "error", FindingCode.DUPLICATE, message))
        else:
            seen[topic["topic"]] = line
    return findings
