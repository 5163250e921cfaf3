from __future__ import annotations

import numpy as np
import pandas as pd
from markupsafe import escape

from builder.site.pages.significance import _flip
from builder.site.table_html import run_list, table_rows
from builder.site.tables import (
    Cell,
    Table,
    number,
    number_texts,
    numbers,
    signed,
    signed_numbers,
)


def test_column_formatting_matches_the_cell_by_cell_formatting():
    values = np.array([0.12345, np.nan, 3.0, 2.5, -0.00004, 1e-9])
    for measure in ("map", "num_rel"):
        assert [c.text for c in numbers(values, measure)] == [number(v, measure).text
                                                               for v in values]
    assert [c.text for c in signed_numbers(values)] == [signed(v).text for v in values]
    assert number_texts(values) == [number(v).text for v in values]
    assert number_texts(values, "+.4f") == [signed(v).text for v in values]
    arrow = pd.Series([0.5, None], dtype="double[pyarrow]").to_numpy()
    assert [c.text for c in numbers(arrow)] == ["0.5000", ""]


def test_rows_are_escaped_linked_and_headed():
    table = Table("t", "caption", ["Run", "Score"],
                  [[Cell("<b>&", href="runs/a&b.html"), Cell("0.5000", numeric=True)]])
    assert table_rows(table, "../") == (
        '<tr><th scope="row"><a href="../runs/a&amp;b.html">&lt;b&gt;&amp;</a></th>'
        '<td>0.5000</td></tr>\n')
    assert table.numeric_from == 1  # the table, not the cell, marks the column as numbers


def test_numbers_outside_the_trailing_numeric_columns_keep_their_own_mark():
    # The second column is a number in one row only, the last in every row: the table marks
    # the last column, the lone number keeps class="num".
    table = Table("t", "caption", ["Run", "Value", "Score"],
                  [[Cell("a"), Cell("3", numeric=True), Cell("0.5000", numeric=True)],
                   [Cell("b"), Cell("n/a"), Cell("", numeric=True)]])
    assert table.numeric_from == 2
    assert table_rows(table, "") == ('<tr><th scope="row">a</th><td class="num">3</td>'
                                     '<td>0.5000</td></tr>\n'
                                     '<tr><th scope="row">b</th><td>n/a</td><td></td></tr>\n')
    ragged = Table("t", "caption", ["A", "B"], [[Cell("1", numeric=True)],
                                                [Cell("x"), Cell("2", numeric=True)]])
    assert ragged.numeric_from is None
    assert '<td class="num">2</td>' in table_rows(ragged, "")


def test_links_relative_to_the_page_are_written_as_they_are():
    table = Table("t", "caption", ["Run", "Topic"],
                  [[Cell("a", href="./a.html"), Cell("1", href="../topics/1.html")],
                   [Cell("b", href="covid/runs/b.html"), Cell("w", href="https://x.org/")]])
    rows = table_rows(table, "../../")
    assert '<a href="./a.html">' in rows and '<a href="../topics/1.html">' in rows
    assert '<a href="../../covid/runs/b.html">' in rows and '<a href="https://x.org/">' in rows
    assert run_list([(Cell("a", href="./a.html"), "0.5")], "../../") == (
        '<a href="./a.html">a</a> (adjusted p 0.5)')


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
