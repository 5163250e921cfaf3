"""The EPRUM block of a passage task's run page: precision at the 11 recall levels under the
task's user model, as a table and a curve with the task's median and best, and the average.

Drawn only when the task's options name an EPRUM user model (``eprum_model``); the numbers come
from the evaluation's ``eprum`` extra (run, measure, value: the means over topics), computed
upstream by ``builder.tasks.eprum``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pandas as pd

from builder.measures.eprum.precision_recall import STANDARD_LEVELS
from builder.measures.eprum.scores import AVERAGE, LEVEL_NAMES
from builder.site import plots
from builder.site.models import Figure, Page
from builder.site.tables import Cell, Table, number

TABLE_ID = "eprum"
FIGURE_ID = "figure-eprum"
LEVELS = [level / 100 for level in STANDARD_LEVELS]


def eprum_summary(extras: Mapping[str, pd.DataFrame]) -> pd.DataFrame | None:
    """Runs x (levels, avgP) from the ``eprum`` extra, or ``None`` when the task has none."""
    if "eprum" not in extras:
        return None
    return extras["eprum"].pivot(index="run", columns="measure", values="value")


def eprum_block(run: str, summary: pd.DataFrame, model: str) -> tuple[Table, Figure]:
    """The table and the figure of one run."""
    shown = [*LEVEL_NAMES, AVERAGE]
    row, median, best = summary.loc[run], summary[shown].median(), summary[shown].max()
    rows = [[Cell(m), number(row[m]), number(median[m]), number(best[m])] for m in shown]
    table = Table(
        TABLE_ID,
        f"EPRUM precision at the 11 recall levels and its average ({model} user model)",
        ["Measure", "This run", "Median", "Best"],
        rows,
    )
    curve = plots.recall_precision(
        run, LEVELS, row[list(LEVEL_NAMES)].to_numpy(), median[list(LEVEL_NAMES)].to_numpy(),
        best[list(LEVEL_NAMES)].to_numpy(), None,
    )
    label = (
        f"EPRUM recall-precision curve of run {run} ({model} user model), with the task's "
        "median and best at each recall level; the values are in the table above."
    )
    return table, replace(curve, id=FIGURE_ID, label=label)


def add_eprum_block(page: Page, run: str, summary: pd.DataFrame | None, options: object) -> None:
    """Append the EPRUM table and curve of ``run`` to its page when the task computed them."""
    if summary is None or run not in summary.index:
        return
    table, figure = eprum_block(run, summary, getattr(options, "eprum_model", ""))
    page.tables.append(table)
    page.figures.append(figure)
