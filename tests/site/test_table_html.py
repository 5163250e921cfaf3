from __future__ import annotations

import numpy as np
import pandas as pd
from markupsafe import escape

from builder.site.pages.significance import _flip
from builder.site.table_html import run_list, table_rows
from builder.site.tables import Cell, Table, number, numbers, signed, signed_numbers


def test_column_formatting_matches_the_cell_by_cell_formatting():
    values = np.array([0.12345, np.nan, 3.0, 2.5, -0.00004, 1e-9])
    for measure in ("map", "num_rel"):
        assert [c.text for c in numbers(values, measure)] == [number(v, measure).text
                                                               for v in values]
    assert [c.text for c in signed_numbers(values)] == [signed(v).text for v in values]
    arrow = pd.Series([0.5, None], dtype="double[pyarrow]").to_numpy()
    assert [c.text for c in numbers(arrow)] == ["0.5000", ""]


def test_rows_are_escaped_linked_and_headed():
    table = Table("t", "caption", ["Run", "Score"],
                  [[Cell("<b>&", href="runs/a&b.html"), Cell("0.5000", numeric=True)]])
    assert table_rows(table, "../") == (
        '<tr><th scope="row"><a href="../runs/a&amp;b.html">&lt;b&gt;&amp;</a></th>'
        '<td class="num">0.5000</td></tr>\n')


def test_run_list_is_escaped_linked_and_comma_separated():
    same = [(Cell("<b>&", href="runs/a&b.html"), "0.5000"), (Cell("r2", href="runs/r2.html"), "1.0000")]
    assert run_list(same, "../") == (
        '<a href="../runs/a&amp;b.html">&lt;b&gt;&amp;</a> (adjusted p 0.5000), '
        '<a href="../runs/r2.html">r2</a> (adjusted p 1.0000)')
    assert run_list([], "../") == ""


def test_flipped_signed_texts_are_the_negated_values_formatted():
    values = np.array([0.12345, -0.00004, 0.00004, 0.0, 2.5, -1.23455, np.inf, np.nan])
    assert [_flip(c.text) for c in signed_numbers(values)] == [c.text for c in signed_numbers(-values)]


def test_cells_are_escaped_as_markupsafe_escapes_them():
    texts = ["it's \"quoted\"", "a<b>&c", "0.1234", "", "plain run"]
    table = Table("t", "caption", ["Text"], [[Cell(t)] for t in texts], row_header=None)
    assert table_rows(table, "") == "".join(f"<tr><td>{escape(t)}</td></tr>\n" for t in texts)
