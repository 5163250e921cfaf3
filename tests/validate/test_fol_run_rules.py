"""Focused run rules: overlaps with both lines, cut at max results, rank/score disagreement."""

from __future__ import annotations

import io

from builder.formats.inex.fol_run import read_fol_run
from builder.validate.fol_run import validate_fol_run


def check(text: str, max_results: int = 1500, topics=("1", "2")):
    table, findings = read_fol_run(io.StringIO(text), name="r", label="r.run")
    assert findings == []
    return validate_fol_run(table, "r.run", list(topics), max_results)


def errors(findings):
    return [(f.line, f.message) for f in findings if f.severity == "error"]


def test_partial_overlap_names_both_lines():
    _, findings = check("1 Q0 a 1 1 t 0 10\n1 Q0 b 2 1 t 0 10\n1 Q0 a 3 1 t 5 10\n")
    assert errors(findings) == [(3, "passage overlaps the passage of line 1 (topic 1, article a)")]


def test_nested_passage_is_caught():
    # inex_eval 3.1 misses [2,4) strictly inside [0,10)
    _, findings = check("1 Q0 a 1 1 t 0 10\n1 Q0 a 2 1 t 2 2\n")
    assert errors(findings) == [(2, "passage overlaps the passage of line 1 (topic 1, article a)")]


def test_adjacent_and_other_topic_do_not_overlap():
    _, findings = check("1 Q0 a 1 1 t 0 10\n1 Q0 a 2 1 t 10 5\n2 Q0 a 1 1 t 0 10\n")
    assert errors(findings) == []


def test_negative_or_zero_length():
    _, findings = check("1 Q0 a 1 1 t 10 -5\n1 Q0 b 2 1 t 10 0\n")
    assert errors(findings) == [(1, "passage length -5 is not positive"),
                                (2, "passage length 0 is not positive")]


def test_negative_offset_other_than_unknown():
    _, findings = check("1 Q0 a 1 1 t -2 5\n1 Q0 b 2 1 t -1 5\n1 Q0 c 3 1 t X 5\n")
    assert errors(findings) == [(1, ("negative offset -2: offsets count characters from 0 (-1 or "
                                    "X marks an unknown passage)"))]


def test_cut_at_max_results():
    table, findings = check("1 Q0 a 1 3 t 0 1\n1 Q0 a 2 2 t 1 1\n1 Q0 a 3 1 t 2 1\n2 Q0 a 1 1 t 0 1\n", max_results=2)
    assert table["line"].tolist() == [1, 2, 4]
    warning = [f for f in findings if f.severity == "warning"]
    assert len(warning) == 1 and warning[0].line == 3 and "more than 2 results" in warning[0].message


def test_rank_and_score_against_line_order():
    _, findings = check("1 Q0 a 2 1 t 0 1\n1 Q0 a 1 2 t 1 1\n")
    infos = sorted((f.line, f.message.split()[0]) for f in findings if f.severity == "info")
    assert infos == [(2, "rank"), (2, "score")]


def test_topic_in_two_blocks_and_unjudged_topic():
    _, findings = check("1 Q0 a 1 1 t 0 1\n2 Q0 a 1 1 t 0 1\n1 Q0 a 2 1 t 0 1\n3 Q0 a 1 1 t 0 1\n")
    warnings = [(f.line, f.message) for f in findings if f.severity == "warning"]
    assert warnings[0][0] == 3 and "starts again" in warnings[0][1]
    assert "not in the qrels" in warnings[1][1]
    assert errors(findings) == []  # the second block is checked apart, as inex_eval does


def test_more_than_1500_results_are_all_evaluated_as_inex_eval_does():
    lines = "".join(f"1 Q0 a{i} {i + 1} {-i} t 0 1\n" for i in range(1501))
    table, findings = check(lines, max_results=None)
    assert len(table) == 1501
    [warning] = [f for f in findings if "1500" in f.message]
    assert warning.severity == "warning" and warning.line == 1501
    assert "every line is evaluated" in warning.message
    table, _ = check(lines, max_results=1500)
    assert len(table) == 1500


def test_overlaps_in_a_topic_absent_from_the_qrels_are_not_errors():
    # inex_eval skips the lines of topics it has no qrels for: such a run is evaluated.
    text = "1 Q0 a 1 3 t 0 10\n2 Q0 a 1 2 t 0 10\n2 Q0 a 2 1 t 5 10\n"
    _, findings = check(text, topics=("1",))
    assert not [f for f in findings if f.severity == "error"]
    _, findings = check(text, topics=("1", "2"))
    assert [f.line for f in findings if f.severity == "error"] == [3]
