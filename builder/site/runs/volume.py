"""A task's printable appendix: every run's appendix page in leaderboard order, one per A4
sheet, in one HTML document (``TASK/appendix.html``) that a browser prints, or saves, as one
PDF, as NIST published the appendices of the TREC proceedings in volumes of one page per run
(Voorhees and Harman, "Overview of the Eighth Text REtrieval Conference (TREC-8)", TREC-8,
NIST Special Publication 500-246, 1999, appendix A: "the evaluation results for each run").

A sheet is the run page of the task's kind (``builder.site.runs.page_model``) cut to what an
appendix page printed: the metadata, the summary statistics, the official and shown measures
beside the median and best, the kind's own summary tables (the ad hoc recall-level,
document-level and R-precision averages; the INEX cut-off tables) and two or three figures
(the kind's curve and the difference from the median per topic on the official measure).
Per-topic tables, the significance comparisons and the per-topic curves stay on the run
pages: on TREC-COVID round 1 they are 150 KB of each page, and 143 of them would make a
document of 20 MB; the sheets make one of 4.3 MB, 30 KB a run, most of it the figures
(``docs/site.md``).

Every id of a sheet (tables, their captions, figures, their data, headings) starts with
``s<position>-``, the run's position on the leaderboard, so that ids are unique across the
document whatever the run names; a sheet is ``#sheet-<run slug>``, linked from the run page.

The figures are the run pages' figures drawn as static SVG at build time
(``builder.site.runs.paper_figures``, which says why), each at the fixed width its share of
the sheet's row has on A4, on screen as on paper, so that printing resizes nothing and no
figure can spill over the page's edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from markupsafe import Markup

from builder.site.models import Figure, Page
from builder.site.paths import SiteTask, appendix_page, sheet_anchor
from builder.site.runs import page_model
from builder.site.runs.paper_figures import svg
from builder.site.tables import Table

PRINT_WIDTH = 680
"""px: the printable width of A4 at the stylesheet's 14 mm margins (182 mm = 688 px)."""
FIGURE_GAP = 14
"""px: the gap between two figures of a row (1 rem printed)."""
SHEET_FIGURE_WIDTH = 330
"""px: a figure's width on a sheet of one or two figures, half the printable width less the
gap; three figures share the row."""
SHEET_FIGURE_HEIGHT = 240
"""px: two rows of figures and the tables fit one A4 sheet."""


@dataclass(frozen=True)
class Sheet:
    """What a run page model's sheet keeps: ``columns``, the ids of the tables set side by
    side (a list of tables per column), ``wide``, the tables under them across the sheet,
    and ``figures``, the figures (id -> caption) before the official difference from the
    median."""

    columns: tuple[tuple[str, ...], ...]
    wide: tuple[str, ...]
    figures: dict[str, str]


OVERVIEW = ("metadata", "summary")
SHEETS: dict[str, Sheet] = {
    "run_adhoc.html": Sheet(
        (OVERVIEW, ("recall-precision",),
         ("average-precision", "precision-at-cutoffs", "r-precision")),
        ("measures",),
        {"figure-recall-precision": "Interpolated recall-precision curve, with the task's "
                                    "median and best."}),
    "run_focused.html": Sheet(
        (OVERVIEW, ("eprum",)), ("measures",),
        {"figure-recall-precision": "Interpolated precision iP[x] at the 101 recall points, "
                                    "with the task's median and best."}),
    "run_in_context.html": Sheet(
        (OVERVIEW, ("measures",)), ("cutoffs",),
        {"figure-gP": "Generalized precision gP[r], with the task's median and best.",
         "figure-gR": "Generalized recall gR[r], with the task's median and best."}),
    "run_generic.html": Sheet((OVERVIEW, ("all-measures",)), ("measures",), {}),
}
"""The sheet of each run page template (``Page.template``); another template gets the
generic one."""


def volume_pages(analysis: SiteTask) -> list[Page]:
    """The task's appendix (``appendix_page``): one sheet per accepted run, in leaderboard
    order; none for a task without runs."""
    if not analysis.runs:
        return []
    task = analysis.spec.id
    page = Page(appendix_page(task), "appendix.html", f"{analysis.spec.title}: appendix")
    sheets = []
    for position, run_page_model in enumerate(page_model(analysis.spec.kind.name)
                                              .run_pages(analysis), 1):
        sheet = _sheet(run_page_model, f"s{position}-",
                       sheet_anchor(analysis.run_slugs[run_page_model.context["run"]]))
        sheets.append(sheet)
    page.context = {"analysis": analysis, "sheets": sheets, "wide": False}
    return [page]


def _sheet(run: Page, prefix: str, anchor: str) -> dict[str, Any]:
    """One run's sheet (its id ``anchor``): its tables and figures from the run page, ids
    prefixed."""
    layout = SHEETS.get(run.template, SHEETS["run_generic.html"])
    tables = {t.id: replace(t, id=prefix + t.id, csv=None, controls=None) for t in run.tables}
    views = run.context.get("views") or []
    captions = dict(layout.figures)
    if views:
        captions[views[0].figure] = (f"{views[0].label} of this run minus the median of all "
                                     f"runs, per topic.")
    drawn = {f.id: f for f in run.figures}
    shown = [f for f in captions if f in drawn]
    # one row of figures: two at half the width, three at a third
    width = min(SHEET_FIGURE_WIDTH, (PRINT_WIDTH - FIGURE_GAP * (len(shown) - 1))
                // max(len(shown), 1))
    return {
        "run": run.context["run"], "prefix": prefix, "anchor": anchor,
        "page": run.path, "rank": run.context["rank"], "meta": run.context.get("meta", {}),
        "columns": _present(layout.columns, tables),
        "wide": [t for column in _present((layout.wide,), tables) for t in column],
        "figures": [_sheet_figure(drawn[f], prefix, width, captions[f]) for f in shown],
    }


def _present(columns: Sequence[Sequence[str]], tables: dict[str, Table]) -> list[list[Table]]:
    """The tables of each column that the run page has and that have rows; empty columns
    left out."""
    kept = [[tables[t] for t in column if t in tables and tables[t].has_rows]
            for column in columns]
    return [column for column in kept if column]


def _sheet_figure(figure: Figure, prefix: str, width: int, caption: str) -> dict[str, Any]:
    """``figure`` drawn as SVG at ``width`` and the sheet's height, its ids prefixed: the
    markup, its text alternative, its width and its caption."""
    layout = {**figure.layout, "width": width, "height": SHEET_FIGURE_HEIGHT}
    sized = replace(figure, layout=layout)
    return {"svg": Markup(svg(sized, f"{prefix}{figure.id}-")), "label": figure.label,
            "width": width, "caption": caption}
