"""The generic run page, for a task kind without a page model of its own
(``TaskKind.page_model``, template ``run_generic.html``): the run's metadata, its official and
shown measures beside the median and best over runs, every summary measure, and per topic one
view per measure (``builder.site.runs.measures``).
"""

from __future__ import annotations

from collections.abc import Sequence

from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, validation_page
from builder.site.runs.measures import TopicViews, measures_table
from builder.site.runs.metadata import metadata_table
from builder.site.tables import key_value_table, number


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The generic page of every accepted run (of the runs at ``positions``, when given)."""
    task = analysis.spec.id
    measures = analysis.measure_order()
    positions = range(len(analysis.runs)) if positions is None else positions
    views = TopicViews(analysis, [analysis.runs[p] for p in positions])
    pages = []
    for index, position in enumerate(positions):
        run = analysis.runs[position]
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), "run_generic.html", f"Run {run}")
        meta = analysis.metadata.get(run, {})
        row = analysis.summary.loc[run]
        page.tables = [
            metadata_table(run, meta, analysis.metadata_paths),
            key_value_table("summary", "Summary statistics", []),
            measures_table(analysis, run),
            key_value_table("all-measures", "All measures over all topics",
                            [(m, number(row[m], m)) for m in measures], ("Measure", "Value")),
            *views.tables(index),
        ]
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        page.figures += views.figures(run, index)
        page.context = {"run": run, "meta": meta, "rank": analysis.ranks[run], "views": views.views,
                        "validation": validation_page(task, slug), "analysis": analysis,
                        "above_one": _above_one(analysis, run)}
        pages.append(page)
    return pages


def _above_one(analysis: SiteTask, run: str) -> str | None:
    """The note on values above 1 of an EPRUM run (the kind's ``above_one`` extra), if any."""
    table = analysis.extras.get("above_one")
    if table is None or not len(table):
        return None
    mine = table[table["run"] == run]
    if not len(mine):
        return None
    shown = ", ".join(f"{m} = {v:.4f} (topic {t})" for t, m, v in
                      mine[["topic", "measure", "value"]].head(5).itertuples(index=False))
    more = f" and {len(mine) - 5} more" if len(mine) > 5 else ""
    return (f"{len(mine)} precision value{'s' if len(mine) > 1 else ''} above 1: {shown}{more}. "
            "EPRUM multiplies the ideal list's expected search length by the expected inverse "
            "search length of the run, which can exceed 1; see the measures page.")
