"""The run page of the INEX focused and thorough tasks, laid out like INEX's official results.

A summary (passages, articles, characters and highlighted characters retrieved); the official
table iP[0.00], iP[0.01], iP[0.05], iP[0.10] and MAiP beside the task's median and best; the
interpolated precision-recall curve over the 101 recall points iP[0.00] .. iP[1.00] (Kamps et
al., "INEX 2007 evaluation measures", INEX 2007, LNCS 4862, 2008, eq. 1-2 for P[r] and R[r];
Pal, Mitra and Chakraborty, "Stability of INEX 2007 evaluation measures", 2008, for iP[x] and
MAiP) with the task's median and best; the difference from the median per topic on the
official measure; the per-topic table.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from builder.measures.inex.focused.precision import IP_NAMES, OFFICIAL_CUTOFFS, RECALL_POINTS
from builder.site import plots
from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, validation_page
from builder.site.runs.eprum_block import add_eprum_block, eprum_summary
from builder.site.runs.measures import TopicViews, measures_table
from builder.site.runs.metadata import metadata_table
from builder.site.tables import Cell, Table, key_value_table, number, text

PER_TOPIC_COUNTS = [("num_ret", "Articles"), ("num_rel", "Relevant articles"),
                    ("num_rel_ret", "Relevant retrieved")]
OFFICIAL = (*OFFICIAL_CUTOFFS, "MAiP")
"""The columns of INEX's official focused results."""
RECALL_AXIS = [i / (RECALL_POINTS - 1) for i in range(RECALL_POINTS)]


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The page of every accepted run of a focused or thorough task."""
    summary, task = analysis.summary, analysis.spec.id
    curve = [m for m in IP_NAMES if m in summary.columns]
    official = [m for m in OFFICIAL if m in summary.columns]
    shown = list(dict.fromkeys(curve + official))
    median, best = summary[shown].median(), summary[shown].max()
    counts = analysis.extras.get("summary")
    counts = counts.set_index("run") if counts is not None else pd.DataFrame()
    impossible = analysis.extras.get("impossible_recall")
    impossible = (impossible.groupby("run")["count"].sum() if impossible is not None
                  else pd.Series(dtype=float))
    eprum = eprum_summary(analysis.extras)
    elements = analysis.extras.get("elements")
    elements = elements.groupby("run") if elements is not None else None
    positions = range(len(analysis.runs)) if positions is None else positions
    views = TopicViews(analysis, [analysis.runs[p] for p in positions], PER_TOPIC_COUNTS)
    pages = []
    for index, position in enumerate(positions):
        run = analysis.runs[position]
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), "run_focused.html", f"Run {run}")
        row = summary.loc[run]
        meta = analysis.metadata.get(run, {})
        page.tables = [
            metadata_table(run, meta, analysis.metadata_paths),
            _summary_table(row, counts.loc[run] if run in counts.index else None,
                           int(impossible.get(run, 0))),
            measures_table(analysis, run),
            _reference_table("ip-curve", "Interpolated precision at the 101 recall points",
                             curve, row, median, best),
            *views.tables(index),
        ]
        add_eprum_block(page, run, eprum, analysis.spec.options)
        if elements is not None and run in elements.groups:
            page.tables.append(_elements_table(elements.get_group(run)))
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        if curve:
            page.figures.append(plots.recall_precision(
                run, RECALL_AXIS[: len(curve)], row[curve].to_numpy(), median[curve].to_numpy(),
                best[curve].to_numpy(), None))
        page.figures += views.figures(run, index)
        page.context = {"run": run, "meta": meta, "rank": analysis.ranks[run], "views": views.views,
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages


def _summary_table(row: pd.Series, counts: pd.Series | None, impossible: int) -> Table:
    pairs = []
    if "num_q" in row.index:
        pairs.append(("Topics", number(row["num_q"], "num_q")))
    if counts is not None:
        pairs += [("Passages retrieved", number(int(counts["passages"]))),
                  ("Articles retrieved", number(int(counts["articles"]))),
                  ("Characters retrieved", number(int(counts["characters"]))),
                  ("Relevant characters retrieved", number(int(counts["relevant_characters"])))]
    if "rel_size" in row.index:
        pairs.append(("Relevant characters", number(int(row["rel_size"]))))
    if "num_rel" in row.index:
        pairs.append(("Relevant articles", number(int(row["num_rel"]))))
    if impossible:
        pairs.append(("Impossible recall points (recall above 1, skipped as by inex_eval)",
                      number(impossible)))
    return key_value_table("summary", "Summary statistics", pairs)


def _elements_table(kinds: pd.DataFrame) -> Table:
    """The kinds of element an element run returns, most returned first."""
    rows = [[Cell(element), number(int(results)), text(example)]
            for element, results, example in zip(kinds["element"], kinds["results"],
                                                  kinds["example"], strict=True)]
    return Table("elements", "Element results by kind of element",
                 ["Element", "Results", "Most returned path"], rows)


def _reference_table(table_id: str, caption: str, measures: list[str], row: pd.Series,
                     median: pd.Series, best: pd.Series) -> Table:
    rows = [[Cell(m), number(row[m]), number(median[m]), number(best[m])] for m in measures]
    return Table(table_id, caption, ["Measure", "This run", "Median", "Best"], rows)
