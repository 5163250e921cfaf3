"""The judgements page of a task: what the qrels judged, per topic and per run, and how deep
the pool reaches; the leaderboard's Pooled and Unjudged@10 columns and each run page's row.

Everything shown comes from the task's ``JudgementReport``, computed by the analyse stage
(``builder.stats.pools.judgements``); this module only lays it out. An INEX task's page has
its assessed articles per topic (and the pooled runs when the metadata says which).
"""

from __future__ import annotations

import math

import pandas as pd

from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, run_page, topic_page
from builder.site.tables import Cell, Table, TableControls, text

POOLED_MARK = "pooled"
REFERENCES = [
    ("Buckley and Voorhees. Retrieval evaluation with incomplete information. SIGIR 2004."),
    ("Zobel. How reliable are the results of large-scale information retrieval experiments? "
     "SIGIR 1998."),
    ("Lipani, Palotti, Lupu, Piroi, Zuccon and Hanbury. Fixed-cost pooling strategies based "
     "on IR evaluation measures. ECIR 2017."),
]


def judgements_page_path(task: str) -> str:
    return f"{task}/judgements.html"


def _count(value: float) -> Cell:
    return Cell("" if value is None or math.isnan(value) else str(int(value)), numeric=True)


def _percent(value: float) -> Cell:
    return Cell("" if value is None or math.isnan(value) else f"{100 * value:.1f}%",
                numeric=True)


def _topic_table(analysis: SiteTask) -> Table:
    report, spec = analysis.pool, analysis.spec
    topics = report.topics
    order = [t for t in analysis.topics if t in topics.index] + sorted(
        set(topics.index) - set(analysis.topics))
    topics = topics.reindex(order)
    grades = [c for c in topics.columns if c.startswith("grade ")]
    if "relevant_chars" in topics.columns:
        columns = ["judged", "relevant", "relevant_chars"]
        header = ["Topic", "Articles assessed", "Relevant articles", "Relevant characters"]
    else:
        columns = ["judged", *grades, "judged_depth"]
        header = ["Topic", "Judged"] + [f"Relevance {c.removeprefix('grade ')}" for c in grades] \
            + ["Judged depth"]
    rows = []
    for topic, row in topics.iterrows():
        slug = analysis.topic_slugs.get(topic)
        rows.append([Cell(topic, href=topic_page(spec.id, slug) if slug else None)]
                    + [_count(float(row[c])) for c in columns])
    return Table("judged-topics", f"{spec.title}: judgements per topic", header, rows,
                 controls=TableControls(noun="topics", noun_one="topic", filter_columns=(0,),
                                        filter_label="Filter by topic"))


RUN_HEADER = ["Pooled", "Unjudged@10", "Unjudged@100", "Unjudged@1000", "Contributed",
              "Unique", "Unique relevant"]


def _run_cells(runs: pd.DataFrame, run: str) -> list[Cell]:
    row = runs.loc[run]
    cells = [text(POOLED_MARK if row["pooled"] else "")]
    if "unjudged@10" in runs.columns:
        cells += [_percent(row[f"unjudged@{k}"]) for k in (10, 100, 1000)]
    if _counted(runs):
        cells += [_count(row[c]) for c in ("contributed", "unique", "unique_relevant")]
    return cells


def _counted(runs: pd.DataFrame) -> bool:
    """Whether the pool contributions were counted (not at depth 0, not for INEX)."""
    return "contributed" in runs.columns and bool(runs["contributed"].notna().any())


def run_table(analysis: SiteTask, runs: list[str], table_id: str, caption: str) -> Table:
    """The report's row of each of ``runs``: run, team, pooled, unjudged shares, pool
    contributions (ad hoc), or run, team, pooled (INEX)."""
    spec, table = analysis.spec, analysis.pool.runs
    header = RUN_HEADER[:1] + (RUN_HEADER[1:4] if "unjudged@10" in table.columns else []) \
        + (RUN_HEADER[4:] if _counted(table) else [])
    rows = [[Cell(run, href=run_page(spec.id, analysis.run_slugs[run])),
             text(analysis.metadata.get(run, {}).get("team", ""))] + _run_cells(table, run)
            for run in runs if run in table.index]
    return Table(table_id, caption, ["Run", "Team", *header], rows)


def judgements_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The task's judgements page ([]: no report, or nothing judged)."""
    report = analysis.pool
    if report is None or not len(report.topics):
        return []
    spec = analysis.spec
    page = Page(judgements_page_path(spec.id), "judgements.html", f"{spec.title}: judgements")
    page.tables.append(_topic_table(analysis))
    if len(report.runs):
        table = run_table(analysis, analysis.runs, "judged-runs",
                          f"{spec.title}: pooled runs and unjudged documents per run")
        table.controls = TableControls(noun="runs", noun_one="run", filter_columns=(0, 1, 2),
                                       filter_label="Filter by run, team or pooled")
        page.tables.append(table)
    page.context = {"analysis": analysis, "report": report, "totals": report.totals,
                    "references": REFERENCES, "pooled_mark": POOLED_MARK}
    return [page.with_table_csvs()]


JUDGEMENTS_PAGE = PageBuilder("judgements", Scope.TASK, judgements_pages, Cost.LIGHT)


def judgement_columns(analysis: SiteTask) -> tuple[list[str], dict[str, list[Cell]]] | None:
    """The leaderboard's judgement columns, Pooled and Unjudged@10, and each run's cells
    (None: the task has no ad hoc judgement report)."""
    report = analysis.pool
    if report is None or "unjudged@10" not in report.runs.columns:
        return None
    runs, stated = report.runs, report.pooled_stated
    cells = {run: ([text(POOLED_MARK if runs.at[run, "pooled"] else "")] if stated else [])
             + [_percent(runs.at[run, "unjudged@10"])] for run in analysis.runs
             if run in runs.index}
    return ["Pooled"] * stated + ["Unjudged@10"], cells


def with_judgement_rows(analysis: SiteTask, pages: list[Page]) -> list[Page]:
    """Give each run page (``context["run"]``) its row of the judgements page and the link."""
    report = analysis.pool
    if report is None or not len(report.runs):
        return pages
    link = judgements_page_path(analysis.spec.id)
    for page in pages:
        run = page.context.get("run")
        if run is not None and run in report.runs.index:
            page.context["judgements"] = {
                "table": run_table(analysis, [run], "run-judgements",
                                   f"Run {run} in the judgements"), "page": link}
    return pages
