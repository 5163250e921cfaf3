"""The ad hoc run page: the TREC appendix layout, in the appendix's order.

Run metadata; summary statistics; the official and shown measures; recall-level precision averages (interpolated precision at recall
0.0 .. 1.0, trec_eval's ``iprec_at_recall_*``); non-interpolated average precision (``map``);
document-level averages (``P_5`` .. ``P_1000``); R-precision (``Rprec``); the recall-precision
curve with the task's median and best; per topic, the difference from the median and the
per-topic table, on the official measure and, a choice away, on each shown one
(``builder.site.runs.measures``). Layout as in the TREC proceedings appendices.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from builder.measures.adhoc.interpolation import RECALL_LEVELS
from builder.measures.adhoc.trec_eval.params import CUTOFFS
from builder.site import plots
from builder.site.models import Page
from builder.site.paths import SiteTask, run_page, table_csv, validation_page
from builder.site.runs.measures import TopicViews, measures_table
from builder.site.runs.metadata import metadata_table
from builder.site.tables import key_value_table, number

IPREC = [f"iprec_at_recall_{level}" for level in RECALL_LEVELS]


INTERPOLATION_RULES = {
    "exact": "the precision at the ceil(x·R)-th relevant document or later, as trec_eval 8.1 "
             "and NIST's appendices compute it",
    "trec_eval_9": "the cutoff (long)(x·R + 0.9), as trec_eval 9.0.8 computes it",
    "lround": "the cutoff lround(x·R), as trec_eval 10.0 computes it",
}
"""The rule of the recall-level table, by the task's ``interpolation`` option."""

PER_TOPIC_COUNTS = [("num_rel", "Relevant"), ("num_rel_ret", "Relevant retrieved")]
SUMMARY_COUNTS = (("Topics", "num_q"), ("Retrieved", "num_ret"), ("Relevant", "num_rel"),
                  ("Relevant retrieved", "num_rel_ret"))


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The appendix page of every accepted run of an ad hoc task (of the runs at ``positions``
    of the leaderboard, when given)."""
    summary, task = analysis.summary, analysis.spec.id
    positions = range(len(analysis.runs)) if positions is None else positions
    runs = [analysis.runs[position] for position in positions]
    have = set(summary.columns)
    iprec = [m for m in IPREC if m in have]
    reference_median = analysis.summary_median[iprec].to_numpy() if iprec else []
    reference_best = analysis.summary_best[iprec].to_numpy() if iprec else []
    curves = analysis.extras.get("uninterpolated_precision")
    views = TopicViews(analysis, runs, PER_TOPIC_COUNTS)
    by_run, negatives = _curve_points(analysis, runs)
    pages = []
    for index, run in enumerate(runs):
        slug = analysis.run_slugs[run]
        page = Page(run_page(task, slug), f"run_{analysis.spec.kind.family}.html", f"Run {run}")
        row = summary.loc[run]
        meta = analysis.metadata.get(run, {})
        page.tables = [
            metadata_table(run, meta, analysis.metadata_paths),
            key_value_table("summary", "Summary statistics",
                            [(label, number(row[m], m)) for label, m in SUMMARY_COUNTS
                             if m in have]),
            measures_table(analysis, run),
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
            *views.tables(index),
        ]
        for table in page.tables:
            table.csv = table_csv(page.path, table.id)
        uninterpolated = None
        if curves is not None:
            uninterpolated = (list(curves.columns), curves.loc[run].to_numpy())
        if iprec:
            page.figures.append(plots.recall_precision(
                run, [float(level) for level in RECALL_LEVELS[: len(iprec)]], row[iprec].to_numpy(),
                reference_median, reference_best, uninterpolated))
        page.figures += views.figures(run, index)
        page.figures += topic_curves(run, by_run.get(run), negatives)
        page.context = {"run": run, "meta": meta, "rank": analysis.ranks[run], "views": views.views,
                        "interpolation": INTERPOLATION_RULES.get(
                            getattr(analysis.spec.options, "interpolation", ""), ""),
                        "validation": validation_page(task, slug), "analysis": analysis}
        pages.append(page)
    return pages


def _curve_points(analysis: SiteTask, runs: list[str]) -> tuple[dict, str]:
    """Per run of ``runs``: its topics' uninterpolated precision-recall and ROC curves, thinned
    for drawing (``_thinned_curves``), and what fallout divides by."""
    if "curve_points" not in analysis.extras:
        return {}, ""
    points = analysis.extras["curve_points"]
    points = points[points["run"].isin(runs)]
    size = getattr(analysis.spec.options, "collection_size", 0)
    negatives = (f"of the collection's {size} documents less the relevant" if size else
                 "of the judged non-relevant documents; no collection size given")
    by_run: dict[str, tuple[list, list]] = {run: ([], []) for run in runs}
    relevant = points[(points["point"] == "relevant").to_numpy()]
    for run, topic, x, y in _thinned_curves(relevant, "recall", "precision"):
        by_run[run][0].append((topic, x, y))
    corners = points[points["fallout"].notna().to_numpy()]
    for run, topic, x, y in _thinned_curves(corners, "fallout", "recall"):
        by_run[run][1].append((topic, [0.0, *x], [0.0, *y]))
    return by_run, negatives


def topic_curves(run: str, curves: tuple[list, list] | None, negatives: str) -> list:
    """The uninterpolated precision-recall curve and the ROC curve of each topic of a run
    (points from ``builder.measures.adhoc.curves``), each with a topic menu."""
    if curves is None:
        return []
    pr, roc = curves
    figures = []
    if pr:
        figures.append(plots.per_topic_curve(
            "figure-uninterpolated-topic", run, pr, "Recall", "Precision", "linear",
            "; a marker at each relevant document retrieved"))
    if roc:
        # The axis title stays short enough for a printed page; what fallout divides by is
        # in the figure's text alternative and its caption.
        figures.append(plots.per_topic_curve(
            "figure-roc-topic", run, roc, "False-positive rate (fallout)",
            "True-positive rate (recall)", "hv", f"; fallout is the share {negatives}"))
    return figures


CURVE_DECIMALS = 2
"""Curve points are drawn to 0.01 (a pixel or two of the figure), which keeps pages small."""
CURVE_POINTS = 16
"""At most this many points per topic's curve (evenly spread, the first and last kept): a run
page draws a curve for each of up to a hundred or more topics."""


def _thinned_curves(points: pd.DataFrame, x_name: str, y_name: str) -> list[tuple]:
    """(run, topic, x, y) of every (run, topic) in ``points`` (rows of a curve contiguous, in
    curve order): the points rounded to ``CURVE_DECIMALS``, without those equal to the one
    before, the curve's end kept, at most ``CURVE_POINTS`` of them spread evenly as
    ``np.linspace`` spreads them. One pass over all curves: a page shows thousands."""
    if not len(points):
        return []
    x = np.round(points[x_name].to_numpy(float), CURVE_DECIMALS)
    y = np.round(points[y_name].to_numpy(float), CURVE_DECIMALS)
    run_code = points["run"].cat.codes.to_numpy(np.int64)
    topic_code = points["topic"].cat.codes.to_numpy(np.int64)
    first = np.r_[True, (run_code[1:] != run_code[:-1]) | (topic_code[1:] != topic_code[:-1])]
    last = np.r_[first[1:], True]
    keep = first | last | np.r_[True, (x[1:] != x[:-1]) | (y[1:] != y[:-1])]
    kept = np.flatnonzero(keep)
    curve = np.cumsum(first)[kept] - 1  # the curve of each kept point
    count = np.bincount(curve)
    start = np.r_[0, np.cumsum(count)[:-1]]
    # np.linspace(0, k - 1, CURVE_POINTS) is i * ((k - 1) / (CURVE_POINTS - 1)), its last
    # value k - 1 exactly; a kept point stays when some i rounds to its position.
    long = np.flatnonzero(count > CURVE_POINTS)
    step = (count[long] - 1) / (CURVE_POINTS - 1)
    chosen = np.round(np.arange(CURVE_POINTS)[None, :] * step[:, None]).astype(np.int64)
    chosen[:, -1] = count[long] - 1
    drop = np.zeros(len(kept), bool)
    drop[np.isin(curve, long)] = True
    drop[(start[long][:, None] + chosen).ravel()] = False
    kept, curve = kept[~drop], curve[~drop]
    bounds = np.flatnonzero(np.r_[True, curve[1:] != curve[:-1]])
    runs, topics = points["run"].cat.categories, points["topic"].cat.categories
    xs = np.split(x[kept], bounds[1:])
    ys = np.split(y[kept], bounds[1:])
    heads = kept[bounds]
    return [(str(runs[run_code[h]]), str(topics[topic_code[h]]), xi.tolist(), yi.tolist())
            for h, xi, yi in zip(heads, xs, ys)]
