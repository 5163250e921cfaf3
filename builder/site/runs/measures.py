"""What every run page shows, whatever its kind, besides its metadata (``runs.metadata``): the
task's official and shown measures beside their median and best over the runs, and per topic
one view per measure (a table with the worst, median and best of the runs, and a
difference-from-median chart), the official one shown and the others a choice away.

The numbers are the analyse stage's (``builder.pipeline.analysis``); here they are laid out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from builder.site import plots
from builder.site.models import Figure
from builder.site.paths import SiteTask, topic_page
from builder.site.tables import (
    COUNT_MEASURES,
    Cell,
    Table,
    number,
    numbers,
    signed_numbers,
)

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def shown_measures(analysis: SiteTask) -> list[str]:
    """The official measure, then the task's shown ones (``measures``), those computed."""
    spec = analysis.spec
    names = dict.fromkeys([spec.official_measure, *spec.measures])
    return [m for m in names if m in analysis.summary.columns]


def topic_measures(analysis: SiteTask) -> list[str]:
    """The per-topic measure behind each shown measure (AiP for MAiP), counts left out: the
    measures a run page's per-topic views switch between, the official one's first."""
    from builder.measures.registry import measures_of

    per_topic = {m.name: m.per_topic for m in measures_of(analysis.spec.kind.family)
                 if m.per_topic}
    names = dict.fromkeys(per_topic.get(m, m) for m in shown_measures(analysis))
    return [m for m in names if m in analysis.median.columns and m not in COUNT_MEASURES]


def measures_table(analysis: SiteTask, run: str) -> Table:
    """The official and shown measures of ``run`` over all topics, beside the median and best
    of the task's runs."""
    official = analysis.spec.official_measure
    rows = []
    for m in shown_measures(analysis):
        label = analysis.label(m) + (" (official)" if m == official else "")
        rows.append([Cell(label), number(analysis.summary.at[run, m], m),
                     number(analysis.summary_median.get(m), m),
                     number(analysis.summary_best.get(m), m)])
    return Table("measures", "Official and shown measures over all topics",
                 ["Measure", "This run", "Median of all runs", "Best of all runs"], rows)


@dataclass(frozen=True)
class TopicView:
    """One measure's per-topic view of a run page: its table and chart ids."""

    measure: str
    table: str
    figure: str
    label: str = ""
    """The measure's display name (``Measure.label``)."""


def topic_views(analysis: SiteTask) -> list[TopicView]:
    """The views of ``topic_measures``: the official one keeps the plain ids (``per-topic``,
    ``figure-difference-from-median``), the others add the measure."""
    views = []
    for index, m in enumerate(topic_measures(analysis)):
        suffix = "" if index == 0 else f"-{_UNSAFE.sub('_', m)}"
        views.append(TopicView(m, f"per-topic{suffix}", f"figure-difference-from-median{suffix}",
                               analysis.label(m)))
    return views


def per_topic_values(analysis: SiteTask, runs: list[str],
                     measures: Sequence[str]) -> dict[str, np.ndarray]:
    """Per measure of ``measures`` the task has, a runs x topics array (NaN where a run has no
    value): one reindex for all the pages, where one per page and table cost 0.2 s over the
    143 runs of TREC-COVID."""
    measures = [m for m in measures if m in analysis.per_topic.columns]
    cells = pd.MultiIndex.from_product([runs, analysis.topics])
    values = analysis.per_topic[measures].reindex(cells).to_numpy(dtype=float, na_value=np.nan)
    values = values.reshape(len(runs), len(analysis.topics), len(measures))
    return {m: values[:, :, k] for k, m in enumerate(measures)}


class TopicViews:
    """The per-topic tables and charts of a chunk of a task's run pages, laid out once."""

    def __init__(self, analysis: SiteTask, runs: list[str],
                 counts: Sequence[tuple[str, str]] = ()):
        """``counts``: (measure, label) of count columns every view's table ends with
        (relevant documents, relevant retrieved ...)."""
        self.analysis = analysis
        self.views = topic_views(analysis)
        self.counts = [(m, label) for m, label in counts if m in analysis.per_topic.columns]
        measures = [v.measure for v in self.views] + [m for m, _ in self.counts]
        self.values = per_topic_values(analysis, runs, measures)
        topics = analysis.topics
        self.median = {v.measure: analysis.median[v.measure].reindex(topics).to_numpy(float)
                       for v in self.views}
        self.best = {v.measure: analysis.best[v.measure].reindex(topics).to_numpy(float)
                     for v in self.views}
        self.worst = {v.measure: analysis.worst[v.measure].reindex(topics).to_numpy(float)
                      for v in self.views}
        self.links = [Cell(topic, href=topic_page(analysis.spec.id, analysis.topic_slugs[topic]))
                      for topic in topics]
        self.reference = {v.measure: (numbers(self.worst[v.measure]),
                                      numbers(self.median[v.measure]),
                                      numbers(self.best[v.measure])) for v in self.views}

    def tables(self, index: int) -> list[Table]:
        """The per-topic table of each view for the run at ``index`` of the chunk: the
        official one with links to the topics and the count columns, the others (a choice
        away, and on INEX tasks of 120 topics five of them) only the measure's columns."""
        counts = [numbers(self.values[m][index], m) for m, _ in self.counts]
        plain = [Cell(cell.text) for cell in self.links]
        tables = []
        for number_, view in enumerate(self.views):
            m = view.measure
            values = self.values[m][index]
            worst, median, best = self.reference[m]
            columns = [numbers(values, m), worst, median, best,
                       signed_numbers(values - self.median[m])]
            label = view.label
            header = ["Topic", label, f"Worst {label}", f"Median {label}", f"Best {label}",
                      f"{label} minus median"]
            official = ["", m, f"Worst {m}", f"Median {m}", f"Best {m}", f"{m} minus median"]
            if number_ == 0:
                columns += counts
                header += [label for _, label in self.counts]
                official += [m for m, _ in self.counts]
            rows = [list(row) for row in zip(self.links if number_ == 0 else plain, *columns)]
            tables.append(Table(view.table, f"Per-topic {label}", header, rows,
                                official=official))
        return tables

    def figures(self, run: str, index: int) -> list[Figure]:
        """The difference-from-median chart of each view for the run at ``index``, with the
        task's worst and best per topic as marks on the same scale."""
        figures = []
        for v in self.views:
            median = self.median[v.measure]
            figures.append(plots.difference_from_median(
                run, self.analysis.topics, self.values[v.measure][index] - median, v.label,
                v.figure, worst=self.worst[v.measure] - median, best=self.best[v.measure] - median))
        return figures
