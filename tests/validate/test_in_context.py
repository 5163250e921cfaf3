"""In-context rules: contiguous articles, one entry point per article in best in context."""

from __future__ import annotations

import io

from builder.findings import LISTED
from builder.formats.inex.fol_run import read_fol_run
from builder.validate.in_context import validate_in_context


def table_of(text: str):
    table, findings = read_fol_run(io.StringIO(text), name="r")
    assert table is not None, findings
    return table


def test_contiguous_articles_pass():
    run = "1 Q0 a 1 9 t 0 10\n1 Q0 a 2 8 t 10 10\n1 Q0 b 3 7 t 0 10\n2 Q0 a 1 9 t 0 5\n"
    assert validate_in_context(table_of(run), "r") == []


def test_interleaved_article_is_reported_at_its_return():
    run = "1 Q0 a 1 9 t 0 10\n1 Q0 b 2 8 t 0 10\n1 Q0 a 3 7 t 10 10\n"
    (finding,) = validate_in_context(table_of(run), "r")
    assert (finding.line, finding.severity) == (3, "error")
    assert "interleaved in topic 1, article id: a (first seen on line 1)" in finding.message


def test_topics_are_checked_apart_even_when_their_lines_alternate():
    run = "1 Q0 a 1 9 t 0 10\n2 Q0 a 1 9 t 0 10\n1 Q0 a 2 8 t 10 10\n"
    assert validate_in_context(table_of(run), "r") == []


def test_unassessed_topics_are_not_checked():
    run = "9 Q0 a 1 9 t 0 10\n9 Q0 b 2 8 t 0 10\n9 Q0 a 3 7 t 10 10\n"
    assert validate_in_context(table_of(run), "r", topics={"1"}) == []
    assert len(validate_in_context(table_of(run), "r", topics={"9"})) == 1


def test_best_in_context_takes_one_entry_point_per_article():
    run = "1 Q0 a 1 9 t 0 0\n1 Q0 a 2 8 t 50 0\n1 Q0 b 3 7 t 0 0\n"
    assert validate_in_context(table_of(run), "r") == []
    (finding,) = validate_in_context(table_of(run), "r", best=True)
    assert finding.line == 2
    assert "multiple results from single article in topic 1, article id: a" in finding.message


def test_many_offences_are_capped_with_a_count():
    lines = [f"1 Q0 {doc} {i} 0 t {i} 1" for i, doc in enumerate("ab" * 30)]
    findings = validate_in_context(table_of("\n".join(lines) + "\n"), "r")
    assert len(findings) == LISTED + 1
    assert [f.line for f in findings[:3]] == [3, 4, 5]
    assert findings[-1].line is None and "38 more lines" in findings[-1].message
