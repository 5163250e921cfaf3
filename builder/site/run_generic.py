"""The generic run page, for a task kind without a page model of its own
(``TaskKind.page_model``, template ``run_generic.html``): every summary measure, then per topic
the task's measures beside the median and best over runs of the official one.
"""

from __future__ import annotations

from collections.abc import Sequence

from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, topic_page, validation_page
from builder.site.tables import Cell, Table, key_value_table, number, text


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """Every summary measure, then per topic the task's measures beside median and best."""
    task, official = analysis.spec.id, analysis.spec.official_measure
    measures = analysis.measure_order()
    shown = [m for m in analysis.spec.measures if m in analysis.per_topic.columns]
    pages = []
    for position in range(len(analysis.runs)) if positions is None else positions:
        run = analysis.runs[position]
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), "run_generic.html", f"Run {run}")
        meta = analysis.metadata.get(run, {})
        row = analysis.summary.loc[run]
        pairs = [("Run", text(run))] + [(k.capitalize(), text(meta.get(k, "")))
                                        for k in ("team", "type", "description")]
        rows = analysis.per_topic.loc[run].reindex(analysis.topics)
        per_topic = []
        for topic in analysis.topics:
            cells = [Cell(topic, href=topic_page(task, analysis.topic_slugs[topic]))]
            cells += [number(rows.at[topic, m], m) for m in shown]
            if official in analysis.median.columns:
                cells += [number(analysis.median.at[topic, official]),
                          number(analysis.best.at[topic, official])]
            per_topic.append(cells)
        header = ["Topic"] + shown
        if official in analysis.median.columns:
            header += [f"Median {official}", f"Best {official}"]
        page.tables = [
            key_value_table("summary", "Summary", pairs),
            key_value_table("measures", "All measures over all topics",
                            [(m, number(row[m], m)) for m in measures], ("Measure", "Value")),
            Table("per-topic", "Per-topic results", header, per_topic),
        ]
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        page.context = {"run": run, "meta": meta, "rank": position + 1,
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages
