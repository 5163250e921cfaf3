"""Element assessments: per topic, the judged elements of each article with their size and
highlighted size, as the INEX 2005 assessment files give them (Pehcevski and Thom, HiXEval,
Fig. 1; written by the X-RAI assessment tool)::

    <assessments topic="203">
      <file collection="ieee" name="co/2000/r7108">
        <element path="/article[1]" E="1" size="13,556" rsize="5,494"/>
        <element path="/article[1]/bdy[1]/sec[2]/st[1]" E="?" size="30" rsize="30"/>
      </file>
    </assessments>

A file or a folder of such files (one topic each). Numbers may carry thousands separators.
Element relevance can also be derived from highlighted passages over an XML corpus
(``builder.measures.inex.thorough.hixeval_elements.derive_element_assessments``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from lxml import etree

from builder.findings import Finding, FindingCode
from builder.formats.xml.corpus import file_id as article_id

COLUMNS = ["topic", "file", "path", "exhaustivity", "size", "rsize"]


MAX_SIZE = 2**53
"""A larger size is no element's (and int64 would not hold every such number)."""


def _number(text: str | None) -> int | None:
    try:
        value = int((text or "").replace(",", "").strip())
    except ValueError:
        return None
    return value if abs(value) < MAX_SIZE else None


def read_element_assessments(source: Path) -> tuple[pd.DataFrame | None, list[Finding]]:
    """The assessments of a file or of every ``*.xml`` of a folder, and their findings."""
    files = sorted(source.glob("*.xml")) if source.is_dir() else [source]
    rows: list[tuple] = []
    findings: list[Finding] = []
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True)
    for path in files:
        label = str(path)
        try:
            root = etree.parse(str(path), parser).getroot()
        except (OSError, etree.XMLSyntaxError) as exc:
            code = FindingCode.UNREADABLE if isinstance(exc, OSError) else FindingCode.SYNTAX
            findings.append(Finding(label, getattr(exc, "lineno", None), "error", code,
                                    f"cannot read the assessments: {exc}"))
            continue
        topic = (root.get("topic") or "").strip()
        if not topic:
            findings.append(Finding(label, root.sourceline, "error", FindingCode.SYNTAX,
                                    "<assessments> needs a topic attribute"))
            continue
        for file in root.iter("file"):
            name = article_id(file.get("name", ""))
            for element in file.iter("element"):
                size, rsize = _number(element.get("size")), _number(element.get("rsize"))
                where = element.get("path", "")
                if size is None or rsize is None or not where:
                    findings.append(Finding(label, element.sourceline, "error",
                                            FindingCode.SYNTAX,
                                            "an element needs path, size and rsize (integers)"))
                elif not 0 <= rsize <= size:
                    findings.append(Finding(label, element.sourceline, "error",
                                            FindingCode.VALUE,
                                            f"rsize {rsize} is not within 0 and size {size}"))
                else:
                    rows.append((topic, name, where, element.get("E", ""), size, rsize))
    if any(f.severity == "error" for f in findings):
        return None, findings
    table = pd.DataFrame(rows, columns=COLUMNS).astype({"size": np.int64, "rsize": np.int64})
    return table, findings
