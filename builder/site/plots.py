"""Plotly figures as plain JSON-ready dicts, small enough to inline in every page.

The figures are built as plotly.js reads them (``data``, ``layout``) rather than through
plotly's Python objects, which validate every attribute and cost milliseconds per figure.
Numbers are rounded to 4 decimals, as trec_eval prints them, to keep run pages small.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from typing import Any

from builder.site.models import Figure

RUN_COLOUR = "#1f4e9c"
MEDIAN_COLOUR = "#5c5c5c"
BEST_COLOUR = "#0b6e35"
NEGATIVE_COLOUR = "#a1261b"

_AXIS = {"gridcolor": "#dddddd", "zerolinecolor": "#999999", "color": "#222222"}


class PlotlyMarkup(str):
    """Pseudo-HTML written here on purpose (a hover template's ``<br>`` and ``<extra>``), the
    only text of a figure that reaches plotly.js as markup: every other string is text."""


def plotly_text(value: str) -> str:
    """Text as plotly.js shows it literally: it reads ``<b>``, ``<a href>``, ``<br>``,
    ``<span style>`` and entities in every label, title, legend entry, menu and hover text as
    markup, so ``&``, ``<`` and ``>`` go in as entities and come out as the characters written."""
    return html.escape(value, quote=False)


def plotly_safe(value: Any) -> Any:
    """A figure's ``data`` or ``layout`` with every string made :func:`plotly_text`, except
    :class:`PlotlyMarkup`. The figure builders take plain names (runs, topics, measures) and
    this, applied once to every figure a page carries (:func:`figure_json`), escapes them: a
    label cannot be forgotten. Strings without ``&<>`` (colours, modes) are unchanged."""
    if isinstance(value, str):
        return str(value) if isinstance(value, PlotlyMarkup) else plotly_text(value)
    if isinstance(value, dict):
        return {key: plotly_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        if set(map(type, value)) <= _PLAIN:  # a trace's numbers: nothing to escape in them
            return list(value)
        return [plotly_safe(item) for item in value]
    return value


_PLAIN = {float, int, bool, type(None)}
"""The types of a figure's values that hold no text, which ``plotly_safe`` returns as they are."""


def _round(values: Sequence[float]) -> list[float | None]:
    return [None if math.isnan(v) else round(float(v), 4) for v in values]


def _layout(x_title: str, y_title: str, **extra: Any) -> dict[str, Any]:
    """A figure's layout: the legend above the plot and every margin grown to fit its labels
    (``automargin``), so that axis titles, tick labels and legend never overlap, on screen or
    printed."""
    layout = {
        "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
        "height": 360,
        "font": {"family": "system-ui, sans-serif", "size": 13, "color": "#222222"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "xaxis": {"title": {"text": x_title, "standoff": 8}, "automargin": True, **_AXIS},
        "yaxis": {"title": {"text": y_title, "standoff": 8}, "automargin": True, **_AXIS},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02,
                   "yanchor": "bottom"},
    }
    layout.update(extra)
    return layout


def recall_precision(run: str, levels: Sequence[float], precision: Sequence[float],
                     median: Sequence[float], best: Sequence[float],
                     uninterpolated: tuple[Sequence[float], Sequence[float]] | None) -> Figure:
    """The interpolated recall-precision curve with the task's median and best as references."""
    data = [
        {"type": "scatter", "mode": "lines+markers", "name": "this run", "x": list(levels),
         "y": _round(precision), "line": {"color": RUN_COLOUR, "width": 2.5}},
        {"type": "scatter", "mode": "lines", "name": "task median", "x": list(levels),
         "y": _round(median), "line": {"color": MEDIAN_COLOUR, "dash": "dash"}},
        {"type": "scatter", "mode": "lines", "name": "task best", "x": list(levels),
         "y": _round(best), "line": {"color": BEST_COLOUR, "dash": "dot"}},
    ]
    if uninterpolated is not None:
        recall, values = uninterpolated
        data.append({"type": "scatter", "mode": "lines", "name": "uninterpolated",
                     "x": list(recall), "y": _round(values), "visible": "legendonly",
                     "line": {"color": RUN_COLOUR, "width": 1, "shape": "hv"}})
    label = (f"Interpolated recall-precision curve of run {run}, with the task's median and "
             f"best at each recall level; the values are in the recall-level table above.")
    layout = _layout("Recall", "Precision")
    # A little room left of recall 0, so that the two axes' "0" labels do not meet.
    layout["xaxis"]["range"] = [-0.03, 1.02]
    layout["yaxis"]["range"] = [0, 1.02]
    return Figure("figure-recall-precision", label, data, layout)


UNIT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1]
"""The ticks of an axis from 0 to 1 (recall, precision, fallout)."""


def per_topic_curve(figure_id: str, run: str, curves: Sequence[tuple[str, list, list]],
                    x_title: str, y_title: str, shape: str, note: str = "") -> Figure:
    """One curve per topic, ``curves`` = (topic, x, y), shown one at a time: a topic menu
    (plotly's own dropdown) swaps the single trace's points, so no data is repeated."""
    first = curves[0]
    data = [{"type": "scatter", "mode": "lines+markers", "name": f"topic {first[0]}",
             "x": _round(first[1]), "y": _round(first[2]),
             "line": {"color": RUN_COLOUR, "width": 2, "shape": shape}}]
    buttons = [{"label": topic, "method": "restyle",
                "args": [{"x": [_round(x)], "y": [_round(y)], "name": f"topic {topic}"}]}
               for topic, x, y in curves]
    layout = _layout(x_title, y_title, showlegend=False)
    layout["xaxis"]["range"] = [-0.03, 1.02]  # the two axes' "0" labels apart
    layout["yaxis"]["range"] = [0, 1.02]
    # Ticks at every fifth from 0 to 1 whatever the width: on a printed page plotly's own
    # choice stopped the recall axis at 0.8.
    for axis in ("xaxis", "yaxis"):
        layout[axis]["tickvals"] = UNIT_TICKS
    layout["updatemenus"] = [{"buttons": buttons, "direction": "down", "x": 1.0, "y": 1.12,
                              "xanchor": "right", "yanchor": "bottom", "showactive": True}]
    layout["margin"] = {**layout["margin"], "t": 50}
    label = (f"{y_title} against {x_title} of run {run}, one topic at a time (topic menu at the "
             f"top right){note}.")
    return Figure(figure_id, label, data, layout)


def values_at_cutoffs(figure_id: str, run: str, cutoffs: Sequence[int], values: Sequence[float],
                      median: Sequence[float], best: Sequence[float], measure: str) -> Figure:
    """A measure at rank cut-offs (gP[r], gR[r] ...) with the task's median and best per cut-off.

    The cut-offs are spread evenly (a category axis), as INEX's official result tables list them.
    """
    x = [str(r) for r in cutoffs]
    data = [
        {"type": "scatter", "mode": "lines+markers", "name": "this run", "x": x,
         "y": _round(values), "line": {"color": RUN_COLOUR, "width": 2.5}},
        {"type": "scatter", "mode": "lines", "name": "task median", "x": x,
         "y": _round(median), "line": {"color": MEDIAN_COLOUR, "dash": "dash"}},
        {"type": "scatter", "mode": "lines", "name": "task best", "x": x,
         "y": _round(best), "line": {"color": BEST_COLOUR, "dash": "dot"}},
    ]
    layout = _layout("Rank cut-off r", f"{measure}[r]")
    layout["xaxis"]["type"] = "category"
    layout["yaxis"]["range"] = [0, 1.02]
    label = (f"Line chart of {measure}[r] of run {run} at the cut-offs r = {', '.join(x)}, with "
             f"the task's median and best at each cut-off; the values are in the table above.")
    return Figure(figure_id, label, data, layout)


def difference_from_median(run: str, topics: Sequence[str], difference: Sequence[float],
                           measure_label: str,
                           figure_id: str = "figure-difference-from-median") -> Figure:
    """One bar per topic: the run's value minus the task's median, on a -1 .. 1 axis."""
    rounded = _round(difference)
    colours = [NEGATIVE_COLOUR if (v or 0) < 0 else RUN_COLOUR for v in rounded]
    data = [{"type": "bar", "name": "difference from median", "x": list(topics), "y": rounded,
             "marker": {"color": colours}}]
    layout = _layout("Topic", f"{measure_label} minus median", showlegend=False)
    layout["xaxis"].update({"type": "category", "automargin": True})
    layout["yaxis"]["range"] = [-1, 1]
    label = (f"Bar chart: difference between run {run}'s {measure_label} and the median "
             f"{measure_label} of all runs, per topic; the values are in the per-topic table.")
    return Figure(figure_id, label, data, layout)


def score_distribution(topic: str, runs: Sequence[str], values: Sequence[float],
                       measure_label: str) -> Figure:
    """The distribution of one measure over the task's runs on one topic."""
    data = [{"type": "box", "name": measure_label, "x": _round(values), "text": list(runs),
             "boxpoints": "all", "jitter": 0.4, "pointpos": 0, "orientation": "h",
             "hoverinfo": "x+text", "marker": {"color": RUN_COLOUR, "size": 5},
             "line": {"color": MEDIAN_COLOUR}}]
    layout = _layout(measure_label, "", height=220, showlegend=False)
    layout["xaxis"]["range"] = [0, 1.02]
    layout["yaxis"]["showticklabels"] = False
    label = (f"Box plot of {measure_label} of all runs on topic {topic}; the values are in "
             f"the table below.")
    return Figure("figure-distribution", label, data, layout)


def leaderboard(task: str, runs: Sequence[str], values: Sequence[float],
                measure_label: str) -> Figure:
    """The official measure of every run, best first."""
    data = [{"type": "bar", "x": list(runs), "y": _round(values), "name": measure_label,
             "marker": {"color": RUN_COLOUR}}]
    layout = _layout("Run", measure_label, showlegend=False)
    layout["xaxis"].update({"type": "category", "tickangle": -45, "automargin": True})
    label = f"Bar chart of {measure_label} per run of task {task}, best first, as in the table."
    return Figure(f"figure-leaderboard-{task}", label, data, layout)


def figure_json(figure: Figure) -> str:
    """The figure as JSON safe inside a ``<script type="application/json">`` element, its
    text escaped for plotly.js (:func:`plotly_safe`)."""
    figure_dict = plotly_safe({"data": figure.data, "layout": figure.layout})
    text = json.dumps(figure_dict, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


SIGNIFICANT_COLOURS = ("#08306b", "#6baed6")
NOT_SIGNIFICANT_COLOURS = ("#d9d9d9", "#ffffff")
HEATMAP_TEXT_MAX_RUNS = 40
"""Up to this many runs, significant cells also carry a visible mark (not colour alone)."""


def p_value_heatmap(figure_id: str, measure: str, runs: Sequence[str], p_values: Any,
                    alpha: float) -> Figure:
    """The all-pairs matrix of adjusted p-values, runs best first on both axes.

    Blues at or below ``alpha`` (significant), greys above; the diagonal is empty.
    """
    z = [_round(row) for row in p_values]
    marks = [["*" if v is not None and v <= alpha else "" for v in row] for row in z]
    scale = [[0, SIGNIFICANT_COLOURS[0]], [alpha, SIGNIFICANT_COLOURS[1]],
             [alpha, NOT_SIGNIFICANT_COLOURS[0]], [1, NOT_SIGNIFICANT_COLOURS[1]]]
    trace: dict[str, Any] = {
        "type": "heatmap", "x": list(runs), "y": list(runs), "z": z, "text": marks,
        "zmin": 0, "zmax": 1, "colorscale": scale, "xgap": 1, "ygap": 1,
        "colorbar": {"title": {"text": "adjusted p"}},
        "hovertemplate": PlotlyMarkup(
            "%{y} vs %{x}<br>adjusted p = %{z}%{text}<extra></extra>"),
    }
    if len(runs) <= HEATMAP_TEXT_MAX_RUNS:
        trace["texttemplate"] = "%{text}"
    size = min(900, 260 + 14 * len(runs))
    layout = _layout("", "", height=size, showlegend=False)
    layout["xaxis"].update({"type": "category", "tickangle": -45, "automargin": True,
                            "side": "top"})
    layout["yaxis"].update({"type": "category", "autorange": "reversed", "automargin": True})
    label = (f"Heatmap of the adjusted p-values of every pair of runs on {measure}, runs best "
             f"first on both axes; cells at or below alpha = {alpha:g} (significant) are blue "
             f"and marked with *. All values are in the task's significance.csv download.")
    return Figure(figure_id, label, [trace], layout)
