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

The sheets are drawn from the run pages' own models by the jobs that write the run pages, a
chunk of runs at a time in either render process (``write_sheets``), and bound into the
document once every chunk is drawn (``volume_pages``): drawn in one job from models made a
second time, the appendix of TREC-COVID round 1 was one job of 9 to 11 s of CPU (2.9 s of them
the models), which the other render process could not share.

The figures are the run pages' figures drawn as static SVG at build time
(``builder.site.runs.paper_figures``, which says why), each at the fixed width its share of
the sheet's row has on A4, on screen as on paper, so that printing resizes nothing and no
figure can spill over the page's edge.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup

from builder.site.manifest import INTERNAL_PREFIX
from builder.site.models import Figure, Page
from builder.site.paths import SiteTask, appendix_page, sheet_anchor
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


SHEETS_FOLDER = f"{INTERNAL_PREFIX}sheets"
"""The staging folder's scratch folder of drawn sheets, one file per chunk of runs, read back
and removed when the appendix is written (``volume_pages``): never published."""


def write_sheets(env: Any, analysis: SiteTask, run_page_models: Sequence[Page], start: int,
                 out: Path, site: dict[str, Any]) -> None:
    """Draw the sheets of the runs whose page models are ``run_page_models`` (the runs at
    positions ``start``, ``start + 1``, ... of the leaderboard, counted from 0) into the
    scratch folder. Called by the job that made those models for the run pages, so that a
    run's model is made once, and the sheets' figures (most of the appendix's cost) are drawn
    by both render processes, a chunk of runs each."""
    if not run_page_models:
        return
    sheets = [_sheet(model, f"s{position}-",
                     sheet_anchor(analysis.run_slugs[model.context["run"]]))
              for position, model in enumerate(run_page_models, start + 1)]
    html = env.get_template("appendix_sheets.html").render(
        sheets=sheets, analysis=analysis, site=site, root=_appendix(analysis).root)
    target = out / SHEETS_FOLDER / analysis.spec.id / f"{start:06d}.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(html, encoding="utf-8")


def volume_pages(analysis: SiteTask, out: Path) -> list[Page]:
    """The task's appendix (``appendix_page``): one sheet per accepted run, in leaderboard
    order, from the sheets ``write_sheets`` drew (then removed); none for a task without
    runs."""
    if not analysis.runs:
        return []
    folder = out / SHEETS_FOLDER / analysis.spec.id
    parts = [Markup(part.read_text(encoding="utf-8")) for part in sorted(folder.iterdir())]
    shutil.rmtree(folder)
    with suppress(OSError):  # removed with the last task's sheets
        (out / SHEETS_FOLDER).rmdir()
    page = _appendix(analysis)
    page.context = {"analysis": analysis, "wide": False, "sheet_parts": parts,
                    "contents": [(run, sheet_anchor(analysis.run_slugs[run]))
                                 for run in analysis.runs]}
    return [page]


def _appendix(analysis: SiteTask) -> Page:
    return Page(appendix_page(analysis.spec.id), "appendix.html",
                f"{analysis.spec.title}: appendix")


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
