"""The topic pages of a task: the index of its topics, how hard each was, and a page per topic
with its text, its judgements and every run's scores on it."""

from __future__ import annotations

from typing import Any

from builder.site import plots
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, run_page, topic_page
from builder.site.runs.measures import topic_measures
from builder.site.tables import Cell, Table, TableControls, number, numbers, text


def topic_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The task's topic index, then its page per topic."""
    return [topic_index_page(analysis), *pages_per_topic(analysis)]


def topic_index_page(analysis: SiteTask) -> Page:
    """Every topic with its judgements and how hard it was: the worst, median and best of the
    runs on the official measure (its per-topic measure: AiP for MAiP), a sortable table."""
    spec = analysis.spec
    page = Page(f"{spec.id}/topics/index.html", "topics.html", f"{spec.title}: topics")
    measures = topic_measures(analysis)
    official = measures[0] if measures else None
    judgements = analysis.judgements.reindex(analysis.topics)
    counts = [c for c in ("judged", "relevant") if c in judgements.columns]
    grades = [c for c in judgements.columns if c.startswith("grade ") and c != "grade 0"]
    columns = [numbers(judgements[c].to_numpy(float), "num_rel") for c in counts + grades]
    if official is not None:
        columns += [numbers(reference[official].reindex(analysis.topics).to_numpy(float))
                    for reference in (analysis.worst, analysis.median, analysis.best)]
    links = [Cell(topic, href=topic_page(spec.id, analysis.topic_slugs[topic]))
             for topic in analysis.topics]
    titles = [text(analysis.topic_text.get(topic, {}).get("title", "")) for topic in analysis.topics]
    rows = [list(row) for row in zip(links, titles, *columns)]
    header = ["Topic", "Title"] + [c.capitalize() for c in counts] + [
        f"Relevant at {c}" for c in grades]
    names = [""] * len(header)
    if official is not None:
        label = analysis.label(official)
        header += [f"Worst {label}", f"Median {label}", f"Best {label}"]
        names += [f"Worst {official}", f"Median {official}", f"Best {official}"]
    page.tables = [_sortable(Table("topics", f"{spec.title}: topics", header, rows,
                                   official=names), "topics")]
    page.context = {"analysis": analysis, "official": official}
    return page.with_table_csvs()


def _sortable(table: Table, noun: str) -> Table:
    """``table`` with the sorting and filtering controls of ``assets/tables.js``."""
    table.controls = TableControls(noun=noun, noun_one=noun.removesuffix("s"),
                                   filter_columns=(0, 1), filter_label="Filter by topic or title")
    return table


def pages_per_topic(analysis: SiteTask) -> list[Page]:
    """Per topic: its text, its judgements (judged documents, relevant ones per grade), the
    distribution of every run's score on the official measure, and every run's scores on the
    shown measures (best first)."""
    spec = analysis.spec
    measures = topic_measures(analysis)
    official = measures[0] if measures else None
    by_topic = analysis.per_topic.reorder_levels(["topic", "run"]).sort_index()
    judgements = analysis.judgements
    pages = []
    for topic in analysis.topics:
        page = Page(topic_page(spec.id, analysis.topic_slugs[topic]), "topic.html",
                    f"{spec.title}: topic {topic}")
        values = by_topic.loc[topic].reindex(analysis.runs)
        if official is not None:
            order = values[official].sort_values(ascending=False, kind="mergesort").index
            values = values.loc[order]
        links = [Cell(run, href=run_page(spec.id, analysis.run_slugs[run]))
                 for run in values.index]
        rows = [list(row) for row in zip(links, *[numbers(values[m].to_numpy(), m)
                                                  for m in measures])]
        page.tables = [Table("runs", f"Runs on topic {topic}, best first",
                             ["Run"] + [analysis.label(m) for m in measures], rows,
                             official=["", *measures])]
        if official is not None:
            page.figures.append(plots.score_distribution(
                topic, list(values.index), values[official].to_numpy(), analysis.label(official)))
        stats: list[tuple[str, Any]] = []
        if topic in judgements.index:
            for column in judgements.columns:
                label = {"judged": "Judged documents", "relevant": "Relevant documents"}.get(
                    column, f"Documents judged at {column}")
                stats.append((label, str(int(judgements.at[topic, column]))))
        if official is not None:
            label = analysis.label(official)
            stats += [(f"{name} {label}", number(reference.at[topic, official]).text)
                      for name, reference in (("Worst", analysis.worst),
                                              ("Median", analysis.median),
                                              ("Best", analysis.best))]
        page.context = {"analysis": analysis, "topic": topic, "stats": stats,
                        "official": official, "text": analysis.topic_text.get(topic, {})}
        pages.append(page.with_table_csvs())
    return pages


TOPIC_PAGES = PageBuilder("topics", Scope.TASK, topic_pages, Cost.HEAVY)
