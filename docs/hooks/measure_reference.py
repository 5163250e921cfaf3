"""mkdocs hook: the measure reference, written from the measure registry at build time.

Importing ``builder.measures`` declares every family's measures; the page ``measures.md`` gets
one table per family in place of the marker ``<!-- measures -->``.
"""

from __future__ import annotations

import html
from typing import Any

MARKER = "<!-- measures -->"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, measure_reference())


def measure_reference() -> str:
    from builder.measures.registry import families, measures_of

    return "\n".join(_family_table(family, measures_of(family)) for family in families())


def _family_table(family: str, measures: list[Any]) -> str:
    rows = "\n".join(
        "<tr>"
        f"<td><code>{_text(m.name)}</code></td>"
        f"<td>{_text(m.description)}</td>"
        f"<td>{_text(m.source)}</td>"
        f"<td>{_text(_summary(m))}</td>"
        f"<td>{_text(m.differs) or '&mdash;'}</td>"
        "</tr>"
        for m in measures
    )
    return (
        f"## {family}\n\n"
        f"{len(measures)} measures.\n\n"
        "<table>\n<thead><tr><th>Name</th><th>Definition</th><th>Source</th>"
        "<th>Summary over topics</th><th>Differs from the official program</th></tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody>\n</table>\n"
    )


def _summary(measure: Any) -> str:
    direction = "" if measure.higher_is_better else ", lower is better"
    return f"{measure.aggregation.value}{direction}"


def _text(value: object) -> str:
    return html.escape(str(value or ""))
