"""The appendix sheets' static figures (``builder.site.runs.paper_figures``): a figure drawn on
a kept frame, after other runs' figures of that frame and of others, is the SVG a new canvas
draws for it, byte for byte."""

from __future__ import annotations

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
        # marks without a colour of their own (the best and worst), which take matplotlib's
        # colour cycle: a kept frame starts it again
        _sized(plots.difference_from_median(f"run-{run}", TOPICS, difference, "AP",
                                            worst=[-0.9] * 12, best=[0.8 - shift] * 12)),
        _sized(plots.values_at_cutoffs("figure-gP", f"run-{run}", [1, 5, 10, 25, 50],
                                       [0.5 - shift] * 5, [0.3] * 5, [0.7] * 5, "gP"), 214),
    ]


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
    assert len(paper_figures._frames) == 3
    wider = _sized(_figures(0)[0], 680)
    svg(wider, "p-")
    assert len(paper_figures._frames) == 4
    assert 'width="510pt"' in svg(wider, "p-")  # 680 px at 96 px to the inch
