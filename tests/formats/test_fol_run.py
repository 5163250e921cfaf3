"""FOL run reader: columns, line numbers, file order and unreadable lines."""

from __future__ import annotations

import io

from builder.formats.inex.fol_run import COLUMNS, UNKNOWN_OFFSET, read_fol_run


def read(text: str):
    return read_fol_run(io.StringIO(text), name="r", label="r.run")


def test_columns_order_and_line_numbers():
    table, findings = read(
        "1 Q0 a 1 9.5 tag 0 5\r\n"
        "2 Q0 b 1 3 tag 10 4  \r\n"
        "1 Q0 c 7 8 tag 20 6\r\n"
    )
    assert findings == []
    assert list(table.columns) == COLUMNS
    assert table["line"].tolist() == [1, 2, 3]
    assert table["order"].tolist() == [1, 1, 2]
    assert table["offset"].tolist() == [0, 10, 20]
    assert table["length"].tolist() == [5, 4, 6]
    assert table["file"].tolist() == ["a", "b", "c"]
    assert table["topic"].tolist() == ["1", "2", "1"]
    assert str(table["offset"].dtype) == "int64"


def test_unknown_passage_marker():
    table, findings = read("1 Q0 a 1 1 t X X\n1 Q0 a 2 1 t -1 30\n")
    assert findings == []
    assert table["offset"].tolist() == [UNKNOWN_OFFSET, UNKNOWN_OFFSET]


def test_field_counts_are_errors_with_lines():
    table, findings = read("1 Q0 a 1 1 t 0 5\n1 Q0 a 1 1 t 0\n\n")
    assert table is None
    assert [(f.line, f.severity) for f in findings] == [(2, "error"), (3, "error")]
    assert "fields missing" in findings[0].message
    table, findings = read("1 Q0 a 1 1 t 0 5\n1 Q0 a 1 1 t 0 5 x\n")
    assert table is None and findings[0].line == 2 and "too many" in findings[0].message


def test_non_integer_offset():
    table, findings = read("1 Q0 a 1 1 t 0 5\n1 Q0 a 1 1 t 2.5 5\n")
    assert table is None
    assert (findings[0].line, findings[0].message) == (2, "offset is not an integer (a sign and digits, as inex_eval reads it)")


def test_a_score_that_is_not_a_finite_number_is_an_error_with_its_line():
    # The TREC run reader's rule; inex_eval 3.1 never reads the score (nor the rank).
    table, findings = read(
        "1 Q0 a 1 nan tag 0 5\n1 Q0 a 2 abc tag 5 5\n1 Q0 a 3 1e999 tag 10 5\n"
        "1 Q0 a 4 -Infinity tag 15 5\n1 Q0 a 5 2.5 tag 20 5\n1 Q0 a 6 -1e-3 tag 25 5\n"
    )
    assert table is None
    assert [(f.line, f.severity, f.message) for f in findings] == [
        (1, "error", "score nan is not a finite number"),
        (2, "error", "score is not a number"),
        (3, "error", "score 1e999 is not a finite number (beyond the largest double)"),
        (4, "error", "score -Infinity is not a finite number"),
    ]


def test_line_ends_spaces_and_tabs_as_the_lines_read():
    # \n, \r\n and a lone \r end a line; runs of spaces and tabs separate fields, and leading
    # or trailing ones are no field; a last line without its end counts.
    table, findings = read("1 Q0 a 1 1 t 0 5\r2\tQ0\t b 1 1 t 0 5\r\n \t3 Q0  c 1 1 t 0 5 \t\n"
                           "4 Q0 d 1 1 t 0 5")
    assert findings == []
    assert table["topic"].tolist() == ["1", "2", "3", "4"]
    assert table["file"].tolist() == ["a", "b", "c", "d"]
    assert table["line"].tolist() == [1, 2, 3, 4]


def test_a_blank_line_between_results_is_a_line_without_fields():
    table, findings = read("1 Q0 a 1 1 t 0 5\n \t \n1 Q0 b 2 1 t 0 5\n")
    assert table is None
    assert [(f.line, f.message) for f in findings] == [(2, "fields missing (inex_eval needs 8)")]


def test_every_line_of_ten_fields_or_more_is_told():
    # pandas' parser stopped at the first line of ten fields or more and took the next ones,
    # of eight, for lines missing one; every long line is told, and only those.
    table, findings = read("1 Q0 a 1 1 t 0 5 x y\n1 Q0 a 2 1 t 5 5\n1 Q0 a 3 1 t 10 5 x y z\n")
    assert table is None
    assert [(f.line, f.message) for f in findings] == [(1, "too many fields (inex_eval needs 8)"),
                                                      (3, "too many fields (inex_eval needs 8)")]


def test_every_line_of_nine_fields_is_told():
    table, findings = read("1 Q0 a 1 1 t 0 5 x\n1 Q0 a 2 1 t 5 5\n1 Q0 a 3 1 t 10 5 y\n")
    assert table is None
    assert [f.line for f in findings] == [1, 3]


def test_plain_and_careful_number_readings_agree():
    # Every rank a plain number: Arrow's cast; one that is not: pandas' reading, NaN if none.
    table, _ = read("1 Q0 a 1 0.25 t 0 5\n1 Q0 a 2.5e1 -1e-3 t 5 5\n")
    assert table["rank"].tolist() == [1.0, 25.0]
    assert table["score"].tolist() == [0.25, -0.001]
    table, _ = read("1 Q0 a one 0.25 t 0 5\n1 Q0 a 2 1 t 5 5\n")
    assert table["rank"].isna().tolist() == [True, False]
    assert table["order"].tolist() == [1, 2]
