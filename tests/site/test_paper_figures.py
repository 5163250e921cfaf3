"""The appendix sheets' static figures (``builder.site.runs.paper_figures``): a figure drawn on
a kept frame, after other runs' figures of that frame and of others, is the SVG a new canvas
draws for it, byte for byte."""

from __future__ import annotations

import re
from dataclasses import replace

from builder.site import plots
from builder.site.models import Figure
from builder.site.runs import paper_figures
from builder.site.runs.paper_figures import svg

LEVELS = [level / 10 for level in range(11)]
TOPICS = [f"topic-{k}" for k in range(12)]


def _sized(figure: Figure, width: int = 330) -> Figure:
    return replace(figure, layout={**figure.layout, "width": width, "height": 240})


def _figures(run: int) -> list[Figure]:
    """One run's figures of three frames, their values the run's own."""
    shift = run / 50
    curve = [max(0.0, 0.9 - level * 0.8 - shift) for level in LEVELS]
    difference = [(-1) ** k * (k / 20 + shift) for k in range(len(TOPICS))]
    return [
        _sized(plots.recall_precision(f"run-{run}", LEVELS, curve, [0.4] * 11, [0.95] * 11,
                                      (LEVELS, curve))),
        _sized(plots.difference_from_median(f"run-{run}", TOPICS, difference, "AP",
                                            worst=[-0.9] * 12, best=[0.8 - shift] * 12)),
        _sized(plots.values_at_cutoffs("figure-gP", f"run-{run}", [1, 5, 10, 25, 50],
                                       [0.5 - shift] * 5, [0.3] * 5, [0.7] * 5, "gP"), 214),
        _uncoloured(_sized(plots.values_at_cutoffs("figure-P", f"run-{run}", [5, 10, 20],
                                                   [0.6 - shift] * 3, [0.4] * 3, [0.8] * 3,
                                                   "P"), 250)),
    ]


def _uncoloured(figure: Figure) -> Figure:
    """``figure`` with its traces' colours taken out: they take matplotlib's colour cycle,
    which a kept frame starts again."""
    data = [{k: v for k, v in trace.items() if k not in ("line", "marker")}
            for trace in figure.data]
    return replace(figure, data=data)


def _fresh(figure: Figure) -> str:
    paper_figures._frames.clear()
    return svg(figure, "p-")


def test_a_kept_frame_draws_what_a_new_canvas_draws() -> None:
    runs = 3
    paper_figures._frames.clear()
    kept = [svg(figure, "p-") for run in range(runs) for figure in _figures(run)]
    fresh = [_fresh(figure) for run in range(runs) for figure in _figures(run)]
    assert len(set(fresh)) == len(fresh)  # each run's figures differ from the others'
    assert kept == fresh
    assert len(paper_figures._frames) == 1  # _fresh left one frame, the last figure's


def test_a_frame_is_kept_per_layout_and_legend() -> None:
    paper_figures._frames.clear()
    for run in range(2):
        for figure in _figures(run):
            svg(figure, "p-")
    assert len(paper_figures._frames) == 4
    wider = _sized(_figures(0)[0], 680)
    svg(wider, "p-")
    assert len(paper_figures._frames) == 5
    assert 'width="510pt"' in svg(wider, "p-")  # 680 px at 96 px to the inch


def test_the_best_and_worst_marks_are_strokes_in_their_colours() -> None:
    # plotly draws a "markers" trace of line-ew symbols as a short stroke per topic, in the
    # marker's colour; no line joins them, and the bars have their legend entry.
    drawn = _fresh(_figures(0)[1])
    for colour in (plots.BEST_COLOUR, plots.WORST_COLOUR):
        stroke = re.search(rf'<path id="(p-m\w+)" d="M [\d.]+ 0 \nL -[\d.]+ -?0 \n" '
                           rf'style="stroke: {colour}', drawn)
        assert stroke, colour
        assert drawn.count(f'xlink:href="#{stroke.group(1)}"') == len(TOPICS) + 1  # and legend
        joined = re.findall(rf'<path d="M [^"]*"[^>]*style="fill: none; stroke: {colour}',
                            drawn)
        assert not [path for path in joined if path.count("L ") > 1]
    assert "this run minus median" in drawn
