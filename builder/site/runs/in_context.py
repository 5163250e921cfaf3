"""The run page of the INEX in-context tasks (relevant, restricted relevant, best in context).

Laid out like the official INEX results (Kamps et al., "INEX 2007 evaluation measures", INEX
2007, LNCS 4862, 2008, section 5): a summary (articles and passages retrieved, relevant articles
retrieved); the official measures gP[5], gP[10], gP[25], gP[50] and MAgP; generalized
precision and recall at every rank cut-off r (eq. 11-12)
against the task's median and best run, as a table and as figures; the difference from the
median AgP (eq. 13) per topic; the per-topic table; and each retrieved article's score (F-beta,
restricted precision or entry-point score), the top ranks shown per topic and every rank in a
CSV file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from builder.measures.inex.in_context.generalized_precision import RANKS
from builder.site import plots
from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, validation_page
from builder.site.runs.eprum_block import add_eprum_block, eprum_summary
from builder.site.runs.measures import TopicViews, measures_table
from builder.site.runs.metadata import metadata_table
from builder.site.tables import Cell, Table, key_value_table, number

PER_TOPIC_COUNTS = [("num_ret", "Articles"), ("num_rel", "Relevant"),
                    ("num_rel_ret", "Relevant retrieved")]

TOP_RANKS = 10
"""Article scores shown on the page per topic; the CSV holds every rank."""

ARTICLE_COLUMNS = ["run", "topic", "rank", "file", "score"]


@dataclass
class FrameTable(Table):
    """A table only downloaded, never shown: its CSV is ``frame`` (too long for a page)."""

    frame: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=ARTICLE_COLUMNS))

    @property
    def has_rows(self) -> bool:
        return not self.frame.empty

    def csv_text(self) -> str:
        return self.frame.to_csv(index=False, lineterminator="\n")


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The page of every accepted run of an in-context task."""
    summary, task = analysis.summary, analysis.spec.id
    ranks = [r for r in getattr(analysis.spec.options, "ranks", RANKS)
             if f"gP[{r}]" in summary.columns and f"gR[{r}]" in summary.columns]
    precision = [f"gP[{r}]" for r in ranks]
    recall = [f"gR[{r}]" for r in ranks]
    references = {
        "median": summary[precision + recall].median(),
        "best": summary[precision + recall].max(),
    }
    articles = _article_scores(analysis)
    top = _top_ranks(articles)
    run_summary = analysis.extras.get("run_summary")
    if run_summary is not None:
        run_summary = run_summary.set_index("run")
    positions = range(len(analysis.runs)) if positions is None else positions
    views = TopicViews(analysis, [analysis.runs[p] for p in positions], PER_TOPIC_COUNTS)
    eprum = eprum_summary(analysis.extras)
    pages = []
    for index, position in enumerate(positions):
        run = analysis.runs[position]
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), "run_in_context.html", f"Run {run}")
        row = summary.loc[run]
        meta = analysis.metadata.get(run, {})
        counts = run_summary.loc[run] if run_summary is not None and run in run_summary.index else None
        page.tables = [
            metadata_table(run, meta, analysis.metadata_paths),
            _summary_table(row, counts),
            measures_table(analysis, run),
            _cutoff_table(ranks, row, references),
            *views.tables(index),
            _top_articles_table(analysis, top, run),
            FrameTable("article-scores", "Score of every retrieved article", ARTICLE_COLUMNS, [],
                       frame=articles[articles["run"] == run]),
        ]
        add_eprum_block(page, run, eprum, analysis.spec.options)
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        if ranks:
            for measure, names in (("gP", precision), ("gR", recall)):
                page.figures.append(plots.values_at_cutoffs(
                    f"figure-{measure}", run, ranks, row[names].to_numpy(),
                    references["median"][names].to_numpy(), references["best"][names].to_numpy(),
                    measure))
        page.figures += views.figures(run, index)
        page.context = {"run": run, "meta": meta, "rank": analysis.ranks[run], "top_ranks": TOP_RANKS,
                        "views": views.views,
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages


def _article_scores(analysis: SiteTask) -> pd.DataFrame:
    """The ``article_scores`` extra, topics in the site's order, then by rank."""
    scores = analysis.extras.get("article_scores")
    if scores is None:
        return pd.DataFrame(columns=ARTICLE_COLUMNS)
    order = {topic: i for i, topic in enumerate(analysis.topics)}
    position = scores["topic"].astype(str).map(order).fillna(len(order))
    keys = pd.DataFrame({"run": scores["run"], "topic": position, "rank": scores["rank"]})
    return scores.loc[keys.sort_values(["run", "topic", "rank"], kind="mergesort").index,
                      ARTICLE_COLUMNS].reset_index(drop=True)


def _top_ranks(articles: pd.DataFrame) -> pd.DataFrame:
    """(run, topic) x rank 1 .. TOP_RANKS: the article scores shown on the pages."""
    top = articles[articles["rank"] <= TOP_RANKS]
    top = top.assign(topic=top["topic"].astype(str))
    return top.pivot(index=["run", "topic"], columns="rank", values="score").reindex(
        columns=range(1, TOP_RANKS + 1))


def _summary_table(row: pd.Series, counts: pd.Series | None) -> Table:
    pairs = []
    if "num_q" in row.index:
        pairs.append(("Topics", number(row["num_q"], "num_q")))
    if counts is not None:
        pairs += [("Articles retrieved", number(int(counts["articles"]))),
                  ("Passages retrieved", number(int(counts["passages"]))),
                  ("Relevant articles retrieved", number(int(counts["relevant_articles"])))]
    if "num_rel" in row.index:
        pairs.append(("Relevant articles", number(row["num_rel"], "num_rel")))
    for label, measure in (("Characters retrieved", "ret_size"),
                           ("Relevant characters", "rel_size"),
                           ("Relevant characters retrieved", "rel_ret_size")):
        if measure in row.index:
            pairs.append((label, number(int(row[measure]))))
    return key_value_table("summary", "Summary statistics", pairs)


def _cutoff_table(ranks: list[int], row: pd.Series, references: dict[str, pd.Series]) -> Table:
    rows = []
    for r in ranks:
        cells = [Cell(str(r), numeric=True)]
        for measure in (f"gP[{r}]", f"gR[{r}]"):
            cells += [number(row[measure]), number(references["median"][measure]),
                      number(references["best"][measure])]
        rows.append(cells)
    return Table("cutoffs", "Generalized precision and recall at rank cut-offs",
                 ["r", "gP[r]", "Median gP[r]", "Best gP[r]", "gR[r]", "Median gR[r]",
                  "Best gR[r]"], rows)


def _top_articles_table(analysis: SiteTask, top: pd.DataFrame, run: str) -> Table:
    """Per topic the score of the article at each of the first ranks (blank: no article)."""
    if run not in top.index.get_level_values("run"):
        return Table("top-articles", "Article scores at the first ranks", [], [])
    scores = top.loc[run]
    rows = [[Cell(topic)] + [number(value) for value in scores.loc[topic].to_numpy()]
            for topic in analysis.topics if topic in scores.index]
    return Table("top-articles", f"Article scores at ranks 1 to {TOP_RANKS}, per topic",
                 ["Topic"] + [str(r) for r in range(1, TOP_RANKS + 1)], rows)
