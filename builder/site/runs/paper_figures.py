"""The run pages' figures drawn once, at build time, as static SVG for the sheets of a task's
printable appendix (``builder.site.runs.volume``), by matplotlib from the same plotly-shaped
figures (``builder.site.plots``) the run pages draw in the browser.

Why static: the run pages' figures are drawn by plotly.js when the page opens, 30 to 200 ms
each. The appendix of TREC-COVID round 1 holds 286 of them (143 runs, two figures a sheet):
drawn in the browser, the document took more than 30 s to open on a loaded machine and a
printout was only as complete as the drawing when printing began. As SVG written at build
time, the document opens at once, prints with no script, and keeps its figures in an archive
that never runs JavaScript. matplotlib rather than SVG written by hand: axes, ticks, legends
and the escaping of names as text are its work. The cost: 11 to 15 KB and 25 ms of CPU a
figure on a new canvas, 12 ms on a kept one (``svg``), so 3.4 s of CPU for the 286 figures of
TREC-COVID round 1, drawn by both render processes (``builder.site.runs.volume``).

Only what the run pages' figures use is read: line and marker traces (``scatter``, dashed or
dotted, stepped with ``shape: "hv"``, marks alone with ``mode: "markers"``, plotly's
``line-ew`` symbol as a short stroke) and bars with a colour per bar; axis titles, ranges,
fixed ticks and category axes. A trace shown only from the legend is left out (paper has
no legend to click).
"""

from __future__ import annotations

import io
import json
import re
from collections import OrderedDict
from typing import Any

from builder.site.models import Figure

DPI = 96
"""CSS pixels per inch: a figure of ``width`` px is ``width / DPI`` inches."""
DASHES = {"dash": (0, (4, 2)), "dot": (0, (1, 1.5))}
"""plotly's dash names as matplotlib line styles."""
_ID = re.compile(r'(\bid="|url\(#|href="#)')
_GROUP_ID = re.compile(r'<g id="[^"]*"')
"""matplotlib names every group (``figure_1``, ``line2d_3``): names nothing refers to."""
_PATH = re.compile(r'\bd="([^"]*)"')
_DECIMALS = re.compile(r"(\.\d)\d+")
"""Path coordinates to a tenth of a point (matplotlib writes six decimals)."""
MARGINS = {"left": 52, "right": 8, "top": 26, "bottom": 38}
"""px around the axes: tick labels and axis titles on the left and below, the legend above."""
LEGEND_ROW = 11
"""px of a row of the legend, which takes two rows on a figure narrower than 300 px."""
ROTATED_BOTTOM = 62
"""px below the axes when category names are written upwards."""


STYLE = {"svg.fonttype": "none", "svg.hashsalt": "appendix", "text.parse_math": False,
         "font.size": 8, "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
         "axes.edgecolor": "#999999", "axes.linewidth": 0.6,
         "xtick.color": "#222222", "ytick.color": "#222222"}
"""matplotlib's settings for every figure (text as text, ids from a fixed salt)."""
FRAMES_KEPT = 8
"""Frames kept per process: a task has one or two kinds of figure on its sheets."""
_frames: OrderedDict[str, Any] = OrderedDict()
"""The canvases drawn last, by frame (``_frame_key``), the most recent last; each process its
own (a forked render worker its copy)."""


def load_matplotlib() -> None:
    """Import what ``svg`` draws with (0.3 s of CPU): called before the render worker is
    forked (``builder.site.writer``), so that both render processes have it for that price
    once rather than each importing it at its first sheet."""
    import matplotlib.backends.backend_svg
    import matplotlib.figure  # noqa: F401 (imported for its cost, before the fork)


def svg(figure: Figure, prefix: str) -> str:
    """``figure`` (plotly's ``data`` and ``layout``, ``layout.width`` and ``height`` in px) as
    an inline ``<svg>`` element whose every id starts with ``prefix``, unique in a document
    of many figures (matplotlib names its clip paths and groups alike in every file).

    The frame (axes, ticks, titles, grid, legend) is the same for every run's figure of a
    kind on a task's sheets, and making it was two thirds of a figure's 25 ms (matplotlib
    makes each tick's lines and label anew for a new axes): a canvas is kept per frame and
    each later figure of that frame only replaces the traces (``_frames``). The SVG is the
    one a new canvas draws, byte for byte (``tests/site/test_paper_figures.py``)."""
    import matplotlib as mpl

    with mpl.rc_context(STYLE):
        key = _frame_key(figure)
        canvas = _frames.pop(key, None)
        if canvas is None:
            canvas = _new_canvas(figure)
        else:
            axes = canvas.axes[0]
            for artist in [*axes.lines, *axes.patches]:
                artist.remove()
            axes.set_prop_cycle(None)  # a trace without a colour takes the first again
            _draw(axes, figure.data, _categories(figure.data, figure.layout))
            axes.relim()  # the limits the layout leaves free follow this figure's traces
            axes.autoscale_view()
        _frames[key] = canvas
        while len(_frames) > FRAMES_KEPT:
            _frames.popitem(last=False)
        out = io.StringIO()
        canvas.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL)
    text = _GROUP_ID.sub("<g", text)
    text = _PATH.sub(lambda m: 'd="' + _DECIMALS.sub(r"\1", m.group(1)) + '"', text)
    return _ID.sub(lambda m: m.group(1) + prefix, text)


def _frame_key(figure: Figure) -> str:
    """What a figure's frame is made of: its layout, its x axis's categories and what its
    legend shows (every trace's kind, name and style, not its values)."""
    # a bar's colours are its values' (above or below the median); a mark's style is the legend's
    drawn = [{k: v for k, v in trace.items()
              if k not in ("x", "y") and not (k == "marker" and trace["type"] == "bar")}
             for trace in figure.data if trace.get("visible") != "legendonly"]
    return json.dumps([figure.layout, _categories(figure.data, figure.layout), drawn],
                      sort_keys=True, default=str)


def _new_canvas(figure: Figure) -> Any:
    """A canvas drawing ``figure``: its traces, then its frame."""
    from matplotlib.figure import Figure as Canvas

    layout = figure.layout
    width, height = layout["width"], layout["height"]
    canvas = Canvas(figsize=(width / DPI, height / DPI), dpi=DPI)
    axes = canvas.add_subplot()
    categories = _categories(figure.data, layout)
    _draw(axes, figure.data, categories)
    rotated, legend_rows = _axes(axes, layout, categories, width)
    # fixed margins: matplotlib's layout engines measure every label, 60 ms a figure
    bottom = ROTATED_BOTTOM if rotated else MARGINS["bottom"]
    top = MARGINS["top"] + LEGEND_ROW * (legend_rows - 1)
    canvas.subplots_adjust(left=MARGINS["left"] / width, right=1 - MARGINS["right"] / width,
                           top=1 - top / height, bottom=bottom / height)
    return canvas


def _categories(data: list[dict[str, Any]], layout: dict[str, Any]) -> list[str]:
    """The x axis's categories in the order the traces name them (empty for a numeric axis)."""
    if layout.get("xaxis", {}).get("type") != "category":
        return []
    return list(dict.fromkeys(str(v) for trace in data if trace.get("visible") != "legendonly"
                              for v in trace["x"]))


def _draw(axes: Any, data: list[dict[str, Any]], categories: list[str]) -> None:
    """Draw the traces, on the x axis's ``categories`` when it has them."""
    position = {c: k for k, c in enumerate(categories)}
    for trace in data:
        if trace.get("visible") == "legendonly":
            continue
        x = [position[str(v)] for v in trace["x"]] if categories else trace["x"]
        y = [float("nan") if v is None else v for v in trace["y"]]
        if trace["type"] == "bar":
            _bars(axes, x, y, trace.get("marker", {}).get("color", "#1f4e9c"), trace.get("name"))
            continue
        line, marker = trace.get("line", {}), trace.get("marker", {})
        mode = trace.get("mode", "lines")
        axes.plot(x, y, color=line.get("color", marker.get("color")),
                  linewidth=line.get("width", 1.5) * 0.75,
                  linestyle=DASHES.get(line.get("dash"), "-") if "lines" in mode else "none",
                  drawstyle="steps-post" if line.get("shape") == "hv" else "default",
                  label=trace.get("name"), **_marks(mode, marker))


def _marks(mode: str, marker: dict[str, Any]) -> dict[str, Any]:
    """matplotlib's marker arguments for a scatter trace's ``mode`` and ``marker``: plotly's
    ``line-ew`` symbols (a short horizontal stroke, the worst and best marks of a topic) as
    matplotlib's ``_`` in the stroke's colour and width; any other as a small dot."""
    if "markers" not in mode:
        return {"marker": None}
    if str(marker.get("symbol", "")).startswith("line-ew"):
        stroke = marker.get("line", {})
        return {"marker": "_", "markersize": marker.get("size", 8) * 0.75,
                "markeredgewidth": stroke.get("width", 1) * 0.75,
                "markeredgecolor": stroke.get("color", marker.get("color"))}
    return {"marker": "o", "markersize": 2.5}


def _bars(axes: Any, x: list[float], y: list[float], colours: str | list[str],
          name: str | None) -> None:
    """One bar per value, 0.8 wide, one path per colour (a path per bar, as ``axes.bar``
    draws them, took 60 ms and 20 KB for the 30 topics of a figure); the legend names the
    trace once, with its first colour, as plotly's does."""
    import numpy as np
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    x, y = np.asarray(x, float), np.nan_to_num(np.asarray(y, float))
    colours = np.asarray([colours] * len(x) if isinstance(colours, str) else colours)
    left, right = x - 0.4, x + 0.4
    corners = np.stack([np.c_[left, np.zeros_like(y)], np.c_[left, y], np.c_[right, y],
                        np.c_[right, np.zeros_like(y)]], axis=1)
    for first, colour in enumerate(dict.fromkeys(colours.tolist())):
        polygons = corners[colours == colour]
        axes.add_patch(PathPatch(Path.make_compound_path_from_polys(polygons),
                                 facecolor=colour, edgecolor="none",
                                 label=name if first == 0 else None))
    axes.autoscale_view()


def _axes(axes: Any, layout: dict[str, Any], categories: list[str],
          width: int) -> tuple[bool, int]:
    """Axis titles, ranges, ticks and grid as the figure's layout sets them; the legend when
    the figure shows one (in two rows on a figure ``width`` px narrow). Whether the category
    names are written upwards, and the legend's rows."""
    from matplotlib.ticker import MaxNLocator

    for name, set_label, set_range, set_ticks in (
            ("xaxis", axes.set_xlabel, axes.set_xlim, axes.set_xticks),
            ("yaxis", axes.set_ylabel, axes.set_ylim, axes.set_yticks)):
        axis = layout.get(name, {})
        set_label(axis.get("title", {}).get("text", ""))
        if "range" in axis:
            set_range(*axis["range"])
        if "tickvals" in axis:
            set_ticks(axis["tickvals"])
    rotated = False
    if categories:
        step = max(1, len(categories) // 12)  # at most a dozen names across
        rotated = len(categories) > 8 and max(map(len, categories)) > 3
        axes.set_xticks(range(0, len(categories), step), categories[::step],
                        rotation=90 if rotated else 0)
        axes.set_xlim(-0.6, len(categories) - 0.4)
    if "tickvals" not in layout.get("yaxis", {}):
        # few and short labels, room for the title
        axes.yaxis.set_major_locator(MaxNLocator(4, steps=[1, 2, 2.5, 5, 10]))
    axes.grid(True, axis="y", color="#dddddd", linewidth=0.5)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    entries = len(axes.get_legend_handles_labels()[0])
    if not layout.get("showlegend", True) or entries < 2:
        return rotated, 1
    columns = entries if width >= 300 else 2
    axes.legend(fontsize=7, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                ncols=columns, borderaxespad=0.2, handlelength=1.5, columnspacing=0.8)
    return rotated, -(-entries // columns)
