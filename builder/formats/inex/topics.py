"""INEX topics: the statement of each topic, for the topic pages.

Two layouts are read:

- INEX topic files: ``<topic id="2009001">`` (or ``<inex-topic topic_id=...>``) elements with
  ``title``, ``castitle``, ``phrasetitle``, ``description`` and ``narrative`` children, one topic
  per file or many under any root;
- Indri query files (``<parameters><query><number>2009001</number><text>#combine( nobel prize
  )</text></query>``), as distributed with INEX re-use data: ``title`` is the text without the
  Indri operators, ``query`` the text as written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from builder.findings import FindingCode, InputError
from builder.formats.source import read_input

TOPIC_COLUMNS = ["topic", "title", "castitle", "phrasetitle", "description", "narrative", "query"]
TOPIC_TAGS = ("topic", "inex-topic")
ID_ATTRIBUTES = ("id", "topic_id", "topic-id", "number")
_INDRI_OPERATOR = re.compile(r"#[A-Za-z0-9.]*\(|\)")


class TopicsError(InputError):
    """A topics file that cannot be read; the findings give file, line and reason."""


def safe_xml_parser(recover: bool = False):
    """An lxml parser that reads no entity, file or network resource a document names (a
    topics file must not pull other files into a published site)."""
    from lxml import etree

    return etree.XMLParser(recover=recover, resolve_entities=False, no_network=True,
                           load_dtd=False, huge_tree=False)


def read_inex_topics(path: Path | str) -> pd.DataFrame:
    """The topics of an INEX topics or Indri query file, one row each (``TOPIC_COLUMNS``)."""
    from lxml import etree

    file = str(path)
    data = read_input(path)
    try:
        root = etree.fromstring(data, safe_xml_parser(recover=True))
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise TopicsError.at(file, getattr(exc, "lineno", None), FindingCode.SYNTAX,
                             f"not XML: {exc}") from None
    if root is None:
        raise TopicsError.at(file, None, FindingCode.EMPTY, "no XML element found")
    rows = [_inex_topic(element) for element in root.iter(*TOPIC_TAGS)]
    rows += [_indri_query(element) for element in root.iter("query")]
    missing = [row for row in rows if not row["topic"]]
    if missing:
        raise TopicsError.at(file, missing[0]["line"], FindingCode.SYNTAX, "topic without an id")
    table = pd.DataFrame(rows, columns=[*TOPIC_COLUMNS, "line"])
    duplicated = table["topic"].duplicated()
    if duplicated.any():
        raise TopicsError.at(file, int(table.loc[duplicated, "line"].iloc[0]),
                             FindingCode.DUPLICATE, "topic given twice")
    return table[TOPIC_COLUMNS].sort_values("topic", ignore_index=True)


def _text(element, tag: str) -> str:
    child = element.find(tag)
    return " ".join("".join(child.itertext()).split()) if child is not None else ""


def _inex_topic(element) -> dict[str, object]:
    topic = next((element.get(name) for name in ID_ATTRIBUTES if element.get(name)), "")
    row: dict[str, object] = {name: _text(element, name) for name in TOPIC_COLUMNS[1:]}
    row["topic"] = topic.strip() or _text(element, "number")
    row["line"] = element.sourceline
    return row


def _indri_query(element) -> dict[str, object]:
    query = _text(element, "text")
    row: dict[str, object] = dict.fromkeys(TOPIC_COLUMNS, "")
    row["topic"] = _text(element, "number")
    row["query"] = query
    row["title"] = " ".join(_INDRI_OPERATOR.sub(" ", query).split())
    row["line"] = element.sourceline
    return row
