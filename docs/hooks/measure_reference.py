"""mkdocs hook: the measure reference, written from the measure registry at build time.

Importing ``builder.measures`` declares every family's measures; the page ``measures.md`` gets
one table per family in place of the marker ``<!-- measures -->``. The markers
``<!-- trec_eval-differences -->`` and ``<!-- inex_eval-differences -->`` become the tables of
the remaining differences from each program, the rows the site's measures page shows.
"""

from __future__ import annotations

import html
from typing import Any

MARKER = "<!-- measures -->"


DIFFERENCES = {"<!-- trec_eval-differences -->": "TREC_EVAL_DIFFERENCES",
               "<!-- inex_eval-differences -->": "INEX_EVAL_DIFFERENCES"}


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    for marker, name in DIFFERENCES.items():
        if marker in markdown:
            markdown = markdown.replace(marker, differences_table(name))
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, measure_reference())


def differences_table(name: str) -> str:
    """The rows of ``TREC_EVAL_DIFFERENCES`` or ``INEX_EVAL_DIFFERENCES`` as an HTML table."""
    from builder.measures.adhoc.trec_eval import profiles
    from builder.measures.inex import differences

    rows = getattr(profiles, name, None) or getattr(differences, name)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{_text(cell)}</td>" for cell in
                         (d.program, d.case, d.ours, d.theirs, d.reason)) + "</tr>"
        for d in rows)
    return ("<table>\n<thead><tr><th>Program</th><th>Case</th><th>appendix</th>"
            "<th>The program</th><th>Reason</th></tr></thead>\n"
            f"<tbody>\n{body}\n</tbody>\n</table>\n")


def measure_reference() -> str:
    from builder.measures.bibliography import Reference
    from builder.measures.registry import families, measures_of

    references: dict[str, Reference] = {}
    tables = [_family_table(family, measures_of(family), references) for family in families()]
    return "\n".join(tables) + _references(list(references.values()))


def _family_table(family: str, measures: list[Any], references: dict[str, Any]) -> str:
    """The family's compact table (``builder.measures.catalogue``), its notes below."""
    from builder.measures.catalogue import catalogue

    listed = catalogue(measures)
    references.update({ref.key: ref for ref in listed.references})
    rows = "\n".join(
        f'<tr data-measures="{_text(" ".join(row.measures))}">'
        f"<td><code>{_text(row.name)}</code></td>"
        f"<td>{_text(row.parameters) or '&mdash;'}</td>"
        f"<td>{_text(row.description)}</td>"
        f"<td>{_text(row.source)}</td>"
        f"<td>{_text(row.summary)}</td>"
        f"<td>{f'See note {row.note}.' if row.note else _text(row.differs) or '&mdash;'}</td>"
        "</tr>"
        for row in listed.rows
    )
    notes = "".join(f"{index}. {_text(note)}\n" for index, note in enumerate(listed.notes, 1))
    return (
        f"## {family}\n\n"
        f"{len(measures)} measures in {len(listed.rows)} rows.\n\n"
        "<table>\n<thead><tr><th>Name</th><th>Parameters</th><th>Definition</th><th>Source</th>"
        "<th>Summary over topics</th><th>Differs from the official program</th></tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody>\n</table>\n"
        + (f"\nNotes:\n\n{notes}" if notes else "")
    )


def _references(references: list[Any]) -> str:
    if not references:
        return ""
    items = "".join(f"- **{_text(ref.label)}.** {_text(ref.format())}\n" for ref in references)
    return f"\n## References\n\n{items}"


def _text(value: object) -> str:
    return html.escape(str(value or ""))
