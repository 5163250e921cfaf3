"""A task's topics file in whichever format it is written, told apart by its content.

INEX topic files (``<inex-topic-file>``, ``<topic id=..>`` with a ``castitle``) and Indri
query files (``<parameters><query>``) are read by ``builder.formats.inex.topics``, so INEX
topic pages show the title, CAS title, description and narrative; anything else (TREC
format, TREC's XML variant) by ``builder.formats.trec.topics``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from builder.findings import Finding
from builder.formats.source import read_input

_INEX_MARK = re.compile(r"<(inex-topic|castitle|parameters)\b", re.IGNORECASE)
HEAD_CHARS = 4000
"""How much of the file is looked at to tell the formats apart."""


def is_inex_topics(text: str) -> bool:
    """Whether ``text`` is an INEX topic file or an Indri query file."""
    return _INEX_MARK.search(text[:HEAD_CHARS]) is not None


def read_topic_file(path: Path) -> tuple[pd.DataFrame, list[Finding]]:
    """The topics of ``path`` (one row each, ``topic`` and ``title`` first) and the problems."""
    from builder.formats.inex.topics import TopicsError, read_inex_topics
    from builder.formats.trec.topics import read_topics

    head = read_input(path)[:HEAD_CHARS].decode("utf-8", errors="replace")
    if not is_inex_topics(head):
        return read_topics(path)
    try:
        return read_inex_topics(path), []
    except TopicsError as error:
        return pd.DataFrame(columns=["topic", "title"]), error.findings
