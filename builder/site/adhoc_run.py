"""The ad hoc run page: the TREC appendix layout, in the appendix's order.

Summary statistics; recall-level precision averages (interpolated precision at recall
0.0 .. 1.0, trec_eval's ``iprec_at_recall_*``); non-interpolated average precision (``map``);
document-level averages (``P_5`` .. ``P_1000``); R-precision (``Rprec``); the recall-precision
curve with the task's median and best; the difference from the median average precision per
topic; the per-topic table. Layout as in the TREC proceedings appendices (seed 004).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from builder.measures.adhoc_declarations import CUTOFFS
from builder.measures.adhoc_interpolation import RECALL_LEVELS
from builder.site import plots
from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, topic_page, validation_page
from builder.site.tables import Cell, Table, key_value_table, number, numbers, signed_numbers, text

IPREC = [f"iprec_at_recall_{level}" for level in RECALL_LEVELS]


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The appendix page of every accepted run of an ad hoc task (of the runs at ``positions``
    of the leaderboard, when given)."""
    summary, task = analysis.summary, analysis.spec.id
    positions = range(len(analysis.runs)) if positions is None else positions
    runs = [analysis.runs[position] for position in positions]
    have = set(summary.columns)
    iprec = [m for m in IPREC if m in have]
    reference_median = summary[iprec].median().to_numpy() if iprec else []
    reference_best = summary[iprec].max().to_numpy() if iprec else []
    curves = analysis.extras.get("uninterpolated_precision")
    per_topic = per_topic_values(analysis, runs, [m for m, _ in PER_TOPIC_COLUMNS])
    by_run, negatives = _curve_points(analysis, runs)
    median = _over_topics(analysis.median, "map", analysis.topics)
    best = _over_topics(analysis.best, "map", analysis.topics)
    pages = []
    for index, (position, run) in enumerate(zip(positions, runs)):
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), f"run_{analysis.spec.kind.family}.html", f"Run {run}")
        row = summary.loc[run]
        meta = analysis.metadata.get(run, {})
        rows = {m: values[index] for m, values in per_topic.items()}
        page.tables = [
            _summary_table(run, meta, row, analysis),
            key_value_table("recall-precision", "Recall-level precision averages",
                            [(level, number(row[m], m))
                             for level, m in zip(RECALL_LEVELS, IPREC) if m in have],
                            ("Recall", "Precision")),
            key_value_table("average-precision", "Average precision (non-interpolated) over all "
                            "relevant documents", [("Mean average precision", number(row.get("map")))]),
            key_value_table("precision-at-cutoffs", "Document-level averages",
                            [(f"At {k} docs", number(row[f"P_{k}"]))
                             for k in CUTOFFS if f"P_{k}" in have], ("Cutoff", "Precision")),
            key_value_table("r-precision", "R-precision: precision after R (= number of relevant "
                            "documents for a topic) documents retrieved",
                            [("Exact", number(row.get("Rprec")))]),
            _per_topic_table(analysis, rows, median, best),
        ]
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        uninterpolated = None
        if curves is not None:
            uninterpolated = (list(curves.columns), curves.loc[run].to_numpy())
        if iprec:
            page.figures.append(plots.recall_precision(
                run, [float(level) for level in RECALL_LEVELS[: len(iprec)]], row[iprec].to_numpy(),
                reference_median,
                reference_best, uninterpolated))
        if "map" in have:
            page.figures.append(plots.difference_from_median(
                run, analysis.topics, rows["map"] - median, "average precision"))
        page.figures += topic_curves(run, by_run.get(run), negatives)
        page.context = {"run": run, "meta": meta, "rank": position + 1,
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages


def _curve_points(analysis: SiteTask, runs: list[str]) -> tuple[dict, str]:
    """The kind's per-topic curve points of ``runs``, per run, and what fallout divides by."""
    if "curve_points" not in analysis.extras:
        return {}, ""
    points = analysis.extras["curve_points"]
    points = points[points["run"].isin(runs)]
    size = getattr(analysis.spec.options, "collection_size", 0)
    negatives = (f"of the collection's {size} documents less the relevant" if size else
                 "of the judged non-relevant documents; no collection size given")
    return {run: frame for run, frame in points.groupby("run", observed=True, sort=False)}, negatives


def topic_curves(run: str, points: pd.DataFrame | None, negatives: str) -> list:
    """The uninterpolated precision-recall curve and the ROC curve of each topic of a run
    (points from ``builder.measures.adhoc_curves``), each with a topic menu."""
    if points is None or points.empty:
        return []
    pr, roc = [], []
    for topic, frame in points.groupby("topic", observed=True, sort=True):
        relevant = frame[frame["point"] == "relevant"]
        if len(relevant):
            pr.append((str(topic), *_thinned(relevant["recall"], relevant["precision"])))
        corners = frame[frame["fallout"].notna()]
        if len(corners):
            fallout, recall = _thinned(corners["fallout"], corners["recall"])
            roc.append((str(topic), [0.0, *fallout], [0.0, *recall]))
    figures = []
    if pr:
        figures.append(plots.per_topic_curve(
            "figure-uninterpolated-topic", run, pr, "Recall", "Precision", "linear",
            "; a marker at each relevant document retrieved"))
    if roc:
        figures.append(plots.per_topic_curve(
            "figure-roc-topic", run, roc, f"False-positive rate (fallout, {negatives})",
            "True-positive rate (recall)", "hv"))
    return figures


CURVE_DECIMALS = 2
"""Curve points are drawn to 0.01 (a pixel or two of the figure), which keeps pages small."""
CURVE_POINTS = 16
"""At most this many points per topic's curve (evenly spread, the first and last kept): a run
page draws a curve for each of up to a hundred or more topics."""


def _thinned(x: pd.Series, y: pd.Series) -> tuple[list[float], list[float]]:
    """The points rounded to ``CURVE_DECIMALS``, without those equal to the one before, at most
    ``CURVE_POINTS`` of them."""
    x = np.round(x.to_numpy(float), CURVE_DECIMALS)
    y = np.round(y.to_numpy(float), CURVE_DECIMALS)
    keep = np.flatnonzero(np.r_[True, (x[1:] != x[:-1]) | (y[1:] != y[:-1])])
    if keep[-1] != len(x) - 1:
        keep = np.r_[keep, len(x) - 1]  # the end of the curve
    if len(keep) > CURVE_POINTS:
        keep = keep[np.unique(np.linspace(0, len(keep) - 1, CURVE_POINTS).round().astype(int))]
    return x[keep].tolist(), y[keep].tolist()


def per_topic_values(analysis: SiteTask, runs: list[str],
                     measures: Sequence[str]) -> dict[str, np.ndarray]:
    """Per measure of ``measures`` the task has, a runs x topics array (NaN where a run has no
    value): one reindex for all the pages, where one per page and table cost 0.2 s over the
    143 runs of TREC-COVID (issue 3)."""
    measures = [m for m in measures if m in analysis.per_topic.columns]
    cells = pd.MultiIndex.from_product([runs, analysis.topics])
    values = analysis.per_topic[measures].reindex(cells).to_numpy(dtype=float, na_value=np.nan)
    values = values.reshape(len(runs), len(analysis.topics), len(measures))
    return {m: values[:, :, k] for k, m in enumerate(measures)}


def _over_topics(frame: pd.DataFrame, measure: str, topics: list[str]) -> np.ndarray | None:
    """``frame[measure]`` (median or best) in the order of ``topics``; None without it."""
    if measure not in frame.columns:
        return None
    return frame[measure].reindex(topics).to_numpy(dtype=float, na_value=np.nan)


def _summary_table(run: str, meta: dict[str, str], row: pd.Series,
                   analysis: SiteTask) -> Table:
    pairs = [("Run", text(run)), ("Team", text(meta.get("team", ""))),
             ("Type", text(meta.get("type", ""))),
             ("Description", text(meta.get("description", "")))]
    for label, measure in (("Topics", "num_q"), ("Retrieved", "num_ret"),
                           ("Relevant", "num_rel"), ("Relevant retrieved", "num_rel_ret")):
        if measure in row.index:
            pairs.append((label, number(row[measure], measure)))
    extra = sorted(set(meta) - {"run", "team", "type", "description"})
    pairs += [(name, text(meta[name])) for name in extra if meta[name]]
    return key_value_table("summary", "Summary statistics", pairs)


PER_TOPIC_COLUMNS = [("map", "Average precision"), ("P_10", "P@10"), ("Rprec", "R-precision"),
                     ("num_rel", "Relevant"), ("num_rel_ret", "Relevant retrieved")]


def _per_topic_table(analysis: SiteTask, rows: dict[str, np.ndarray],
                     median: np.ndarray | None, best: np.ndarray | None) -> Table:
    """Per topic: the run's values of ``PER_TOPIC_COLUMNS`` (``rows``), then the task's median
    and best average precision and the run's difference from the median."""
    task = analysis.spec.id
    columns = [(m, label) for m, label in PER_TOPIC_COLUMNS if m in rows]
    has_map = "map" in rows and median is not None and best is not None
    # Each column formatted at once, then zipped into rows.
    formatted = [numbers(rows[m], m) for m, _ in columns]
    if has_map:
        formatted += [numbers(median), numbers(best), signed_numbers(rows["map"] - median)]
    links = [Cell(topic, href=topic_page(task, analysis.topic_slugs[topic]))
             for topic in analysis.topics]
    table_rows = [list(row) for row in zip(links, *formatted)]
    header = ["Topic"] + [label for _, label in columns]
    if has_map:
        header += ["Median AP", "Best AP", "AP minus median"]
    return Table("per-topic", "Per-topic results", header, table_rows)
