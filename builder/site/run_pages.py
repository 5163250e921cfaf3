"""Run pages per task kind: each family picks its page model and its template.

A family registers a function ``(TaskAnalysis, positions) -> list[Page]`` in ``RUN_PAGES``
(ad hoc: the TREC appendix layout, template ``run_adhoc.html``), and in ``SHARED`` what its
pages share, if anything (the function then takes it as a third argument); a family without
one gets the generic page (``run_generic.html``): every summary measure and a per-topic table
of the task's measures with the median and best over runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from builder.site.adhoc_run import adhoc_run_pages, adhoc_shared
from builder.site.analysis import TaskAnalysis
from builder.site.focused_run import focused_run_pages
from builder.site.in_context_run import in_context_run_pages
from builder.site.models import Page
from builder.site.paths import run_page, table_csv, topic_page, validation_page
from builder.site.significance_pages import with_run_comparisons
from builder.site.tables import Cell, Table, key_value_table, number, text

RUN_PAGES: dict[str, Callable[..., list[Page]]] = {
    "adhoc": adhoc_run_pages,
    "focused": focused_run_pages,
    "thorough": focused_run_pages,
    "in-context": in_context_run_pages,
}


SHARED: dict[str, Callable[[TaskAnalysis], dict[str, Any]]] = {"adhoc": adhoc_shared}
"""Per family, what all the run pages of a task share (``shared_by_run_pages``)."""


def shared_by_run_pages(analysis: TaskAnalysis) -> dict[str, Any] | None:
    """What the family's page model computes once for all the task's run pages (None: nothing),
    to pass to each ``run_pages`` call when the pages are built in chunks."""
    share = SHARED.get(analysis.spec.kind.family)
    return share(analysis) if share is not None else None


def run_pages(analysis: TaskAnalysis, positions: Sequence[int] | None = None,
              shared: dict[str, Any] | None = None) -> list[Page]:
    """The run pages of a task (of its runs at ``positions`` on the leaderboard, when given),
    by its family's page model, each with its significance comparisons
    (``context["significance"]``, rendered by ``run_significance.html``). ``shared``:
    ``shared_by_run_pages(analysis)``, or None to compute it here."""
    make = RUN_PAGES.get(analysis.spec.kind.family, generic_run_pages)
    pages = make(analysis, positions) if shared is None else make(analysis, positions, shared)
    return with_run_comparisons(analysis, pages)


def generic_run_pages(analysis: TaskAnalysis,
                      positions: Sequence[int] | None = None) -> list[Page]:
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
