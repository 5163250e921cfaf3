"""Tables as plain data: what a page shows, what its CSV holds, rendered by one Jinja macro.

Cells are formatted once here (trec_eval's 4 decimals for measures, integers for counts), so
the template only loops over strings and the table's CSV holds exactly what the page shows.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

COUNT_MEASURES = frozenset({"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"})
NUMERIC_FROM_CLASSES = 8
"""The shared stylesheet right-aligns the columns from the k-th on of a table of class
``num-from-k``, for k from 1 to this (``templates/assets/appendix.css``)."""


class Cell(NamedTuple):
    """One table cell: its text, an optional relative link and whether it is a number.

    A named tuple: a large site makes a few hundred thousand cells, each made in half the
    time of a frozen dataclass's."""

    text: str
    href: str | None = None
    numeric: bool = False


@dataclass(frozen=True)
class TableControls:
    """What ``assets/tables.js`` adds to a table on the page: sorting by any column (numbers
    as numbers), a filter box over ``filter_columns``, a "best per group" view (the first row
    of each value of ``group_column``: the table comes best first), a group's rows highlighted
    and the row named in the URL (``#run=NAME``, matched against the row headers) highlighted;
    the sort, filter, group view and highlighted group are kept in the URL's fragment. The
    header row and the row-header columns stay in view while the table scrolls.

    Without JavaScript the table is a plain table; the controls are made by the script.
    """

    noun: str = "rows"
    """What rows are, for the filter's label and its count ("12 of 143 runs shown")."""
    noun_one: str = "row"
    """What one row is ("1 of 1 run shown")."""
    filter_columns: tuple[int, ...] = ()
    filter_label: str = "Filter"
    group_column: int | None = None
    group_label: str = ""
    highlight_label: str = ""
    """When given (with ``group_column``), a choice of a group whose rows stand out (a team's
    runs on the leaderboard), labelled so."""
    sticky_columns: int = 1
    """How many leading columns stay in view when the table scrolls sideways (1 or 2)."""


@dataclass
class Table:
    """A captioned table; the cell at ``row_header`` in each row heads its row (None: no header).

    ``csv`` is the table's CSV file, relative to the site root, written next to the page.
    ``official``: per column, the official program's name of the measure it shows ("" for
    other columns; empty: none): the column's header in the CSV and its tooltip on the page,
    where the header shows the measure's display name.
    """

    id: str
    caption: str
    columns: list[str]
    rows: list[list[Cell]]
    csv: str | None = None
    row_header: int | None = 0
    note: str = ""
    controls: TableControls | None = None
    official: list[str] = field(default_factory=list)

    @property
    def headers(self) -> list[tuple[str, str]]:
        """(header, tooltip) per column: the tooltip the official name of a measure's column,
        else empty."""
        return list(zip(self.columns, self.official or [""] * len(self.columns)))

    @cached_property
    def numeric_from(self) -> int | None:
        """The first column (0-based) of the table's trailing columns whose every cell is a
        number, None when the last column is not (or the rows differ in width).

        The page marks the table once (``class="num-from-{k+1}"``, right-aligned and sorted as
        numbers by the stylesheet and ``assets/tables.js``) instead of each of those cells
        (``class="num"``): on a run page of TREC-COVID round 1 the per-cell class was a
        quarter of the page. Made once the rows are complete (when the page is rendered)."""
        widths = {len(row) for row in self.rows}
        if len(widths) != 1:
            return None
        start = width = widths.pop()
        while start > 0 and all(row[start - 1].numeric for row in self.rows):
            start -= 1
        return start if start < width and start < NUMERIC_FROM_CLASSES else None

    @property
    def has_rows(self) -> bool:
        """Whether there is anything to show or download (an empty table is neither shown nor
        written: the page says so instead)."""
        return bool(self.rows)

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([official or header for header, official in self.headers])
        writer.writerows([cell.text for cell in row] for row in self.rows)
        return out.getvalue()


def number(value: Any, measure: str = "") -> Cell:
    """A measure value as trec_eval prints it: counts as integers, the rest to 4 decimals."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return Cell("", numeric=True)
    if measure in COUNT_MEASURES or isinstance(value, int):
        return Cell(str(round(float(value))), numeric=True)
    return Cell(f"{float(value):.4f}", numeric=True)


def signed(value: Any) -> Cell:
    """A difference, with its sign always shown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return Cell("", numeric=True)
    return Cell(f"{float(value):+.4f}", numeric=True)


def _floats(values: Any) -> np.ndarray:
    """``values`` as float64, missing values (None, NA) as NaN."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiub":
        return values.astype(float, copy=False)
    return pd.Series(values, dtype=object).to_numpy(dtype=float, na_value=np.nan)


def numbers(values: Any, measure: str = "") -> list[Cell]:
    """``number`` over a whole column at once (the same text for float and numpy values)."""
    array = _floats(values)
    # Positional cells and one branch per loop: a run page's tables format a few thousand
    # numbers, so the per-value overhead counts.
    if measure in COUNT_MEASURES:
        return [Cell("" if math.isnan(v) else str(round(v)), None, True) for v in array.tolist()]
    return [Cell("" if math.isnan(v) else f"{v:.4f}", None, True) for v in array.tolist()]


def signed_numbers(values: Any) -> list[Cell]:
    """``signed`` over a whole column at once."""
    array = _floats(values)
    return [Cell("" if math.isnan(v) else f"{v:+.4f}", None, True) for v in array.tolist()]


def number_texts(values: Any, spec: str = ".4f") -> list[str]:
    """The texts of ``numbers`` (``spec`` ".4f") or ``signed_numbers`` ("+.4f") without their
    cells, for a caller that makes its own (the run pages' significance comparisons)."""
    return ["" if math.isnan(v) else format(v, spec) for v in _floats(values).tolist()]


def text(value: Any, href: str | None = None) -> Cell:
    return Cell("" if value is None else str(value), href=href)


def key_value_table(table_id: str, caption: str, pairs: Iterable[tuple[str, Cell]],
                    columns: Sequence[str] = ("Statistic", "Value")) -> Table:
    """A two-column table of labelled values (the appendix's summary blocks)."""
    rows = [[Cell(label), cell] for label, cell in pairs]
    return Table(table_id, caption, list(columns), rows)
