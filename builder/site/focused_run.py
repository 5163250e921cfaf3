"""The run page of the INEX focused and thorough tasks, laid out like INEX's official results.

A summary (passages, articles, characters and highlighted characters retrieved); the official
table iP[0.00], iP[0.01], iP[0.05], iP[0.10] and MAiP beside the task's median and best; the
interpolated precision-recall curve over the 101 recall points iP[0.00] .. iP[1.00] (seed 001,
eq. 1-2 for P[r] and R[r]; seed 002 for iP[x] and MAiP) with the task's median and best; the
difference from the median per topic on the official measure; the per-topic table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from builder.measures.focused import IP_NAMES, OFFICIAL_CUTOFFS, RECALL_POINTS
from builder.measures.registry import get
from builder.site import plots
from builder.site.eprum_block import eprum_block, eprum_summary
from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, topic_page, validation_page
from builder.site.tables import Cell, Table, key_value_table, number, signed, text

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
    declared = get(analysis.spec.kind.family, analysis.spec.official_measure)
    topic_measure = declared.per_topic or declared.name
    eprum = eprum_summary(analysis.extras)
    elements = analysis.extras.get("elements")
    elements = elements.groupby("run") if elements is not None else None
    pages = []
    for position in range(len(analysis.runs)) if positions is None else positions:
        run = analysis.runs[position]
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), "run_focused.html", f"Run {run}")
        row = summary.loc[run]
        meta = analysis.metadata.get(run, {})
        rows = analysis.per_topic.loc[run].reindex(analysis.topics)
        page.tables = [
            _summary_table(run, meta, row, counts.loc[run] if run in counts.index else None,
                           int(impossible.get(run, 0))),
            _reference_table("official", "Official measures", official, row, median, best),
            _reference_table("ip-curve", "Interpolated precision at the 101 recall points",
                             curve, row, median, best),
            _per_topic_table(analysis, rows, topic_measure),
        ]
        if eprum is not None and run in eprum.index:
            table, figure = eprum_block(run, eprum, analysis.spec.options.eprum_model)
            page.tables.append(table)
            page.figures.append(figure)
        if elements is not None and run in elements.groups:
            page.tables.append(_elements_table(elements.get_group(run)))
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        if curve:
            page.figures.append(plots.recall_precision(
                run, RECALL_AXIS[: len(curve)], row[curve].to_numpy(), median[curve].to_numpy(),
                best[curve].to_numpy(), None))
        if topic_measure in rows.columns:
            difference = (rows[topic_measure].to_numpy()
                          - analysis.median[topic_measure].reindex(analysis.topics).to_numpy())
            page.figures.append(plots.difference_from_median(
                run, analysis.topics, np.asarray(difference), topic_measure))
        page.context = {"run": run, "meta": meta, "rank": position + 1,
                        "topic_measure": topic_measure,
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages


def _summary_table(run: str, meta: dict[str, str], row: pd.Series, counts: pd.Series | None,
                   impossible: int) -> Table:
    pairs = [("Run", text(run))] + [(key.capitalize(), text(meta.get(key, "")))
                                    for key in ("team", "type", "description")]
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
    extra = sorted(set(meta) - {"run", "team", "type", "description"})
    pairs += [(name, text(meta[name])) for name in extra if meta[name]]
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


def _per_topic_table(analysis: SiteTask, rows: pd.DataFrame, measure: str) -> Table:
    task = analysis.spec.id
    columns = [("num_ret", "Articles"), ("num_rel", "Relevant articles"),
               ("num_rel_ret", "Relevant retrieved"), ("char_prec", "Character precision"),
               ("char_rec", "Character recall"), ("iP[0.01]", "iP[0.01]"), ("AiP", "AiP")]
    if measure not in dict(columns):
        columns.append((measure, measure))
    columns = [(m, label) for m, label in columns if m in rows.columns]
    has_measure = measure in rows.columns
    median = analysis.median[measure].reindex(analysis.topics).to_numpy() if has_measure else None
    best = analysis.best[measure].reindex(analysis.topics).to_numpy() if has_measure else None
    values = {m: rows[m].to_numpy() for m, _ in columns}
    table_rows = []
    for i, topic in enumerate(analysis.topics):
        cells = [Cell(topic, href=topic_page(task, analysis.topic_slugs[topic]))]
        cells += [number(values[m][i], m) for m, _ in columns]
        if has_measure:
            cells += [number(median[i]), number(best[i]), signed(values[measure][i] - median[i])]
        table_rows.append(cells)
    header = ["Topic"] + [label for _, label in columns]
    if has_measure:
        header += [f"Median {measure}", f"Best {measure}", f"{measure} minus median"]
    return Table("per-topic", "Per-topic results", header, table_rows)
