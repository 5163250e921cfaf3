"""Reading TREC run files: layouts trec_eval accepts, line numbers, bad lines as findings."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from builder.formats.trec.run import RUN_COLUMNS, read_trec_run


def write(tmp_path: Path, text: str, name: str = "run.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_tab_separated_run_keeps_columns_and_line_numbers(tmp_path):
    run = read_trec_run(write(tmp_path, "301\tQ0\tD1\t1\t2.5\ttag\n301\tQ0\tD2\t2\t-1e-3\ttag\n"))
    assert list(run.table.columns) == RUN_COLUMNS
    assert run.table["doc"].tolist() == ["D1", "D2"]
    assert run.table["score"].tolist() == [2.5, -0.001]
    assert run.table["line"].tolist() == [1, 2]
    assert run.findings == []


def test_mixed_blanks_comments_blank_lines_and_extra_fields(tmp_path):
    text = "# a comment line\n  301 Q0  D1\t1   2.0 tag more junk\r\n\n301 Q0 D#2 2 1.0 tag\n"
    run = read_trec_run(write(tmp_path, text))
    assert run.table["doc"].tolist() == ["D1", "D#2"]
    assert run.table["tag"].tolist() == ["tag", "tag"]
    assert run.table["line"].tolist() == [2, 4]
    assert [(f.line, f.severity) for f in run.findings] == [(2, "warning")]
    assert run.findings[0].message.startswith("1 line with more than 6 fields, this one the first (8 fields)")


def test_gzip_is_read_transparently(tmp_path):
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(b"1 Q0 d 1 3 t\n"))
    assert read_trec_run(path).table["doc"].tolist() == ["d"]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("1 Q0 a 1 2 t\n1 Q0 b 2\n", 2, "4 fields, expected 6"),
        ("1 Q0 a 1 2 t\n1 Q0 b 2 high t\n", 2, "score is not a number"),
        # a doubled blank is one separator: this line lacks Q0 (the ignored fields count too)
        ("1 Q0 a 1 2 t\n1  b 2 3 t\n", 2, "5 fields, expected 6"),
        ("1\tQ0\ta\t1\t2\tt\n1\tQ0\tb\t\t3\tt\n", 2, "5 fields, expected 6"),
        # digits of other scripts are not numbers to trec_eval's atof (nor to Arrow's parser)
        ("1 Q0 a 1 2 t\n1 Q0 b 2 \u0661 t\n", 2, "score is not a number"),
    ],
)
def test_bad_lines_become_error_findings_with_their_line(tmp_path, text, line, message):
    run = read_trec_run(write(tmp_path, text))
    assert [(f.line, f.severity, f.message) for f in run.findings] == [(line, "error", message)]
    assert run.table["line"].iloc[0] == 1


def test_empty_file_reads_as_empty_table(tmp_path):
    run = read_trec_run(write(tmp_path, ""))
    assert run.table.empty
    assert list(run.table.columns) == RUN_COLUMNS


def test_topics_and_tags_are_categories_of_the_values_read(tmp_path):
    run = read_trec_run(write(tmp_path, "2 Q0 a 1 2 t\n10 Q0 b 1 2 t\n2 Q0 c 2 1 t\n"))
    assert run.table["topic"].tolist() == ["2", "10", "2"]
    assert sorted(run.table["topic"].cat.categories) == ["10", "2"]
    assert list(run.table["tag"].cat.categories) == ["t"]


CLEAN = "".join(f"{401 + i % 3} Q0 D{i} {i + 1} {10 - i * 0.5} tag\n" for i in range(12))


@pytest.mark.parametrize("variant", [
    lambda text: text.replace("\n", "\r\n"),
    lambda text: text.replace(" tag\n", " tag extra\n"),
    lambda text: text.replace("\n", "\n\n# a comment\n", 3),
    lambda text: text.replace("Q0 D3 ", "Q0  D3\t", 1).replace("Q0", " Q0", 1),
])
def test_irregular_lines_read_as_the_clean_file(tmp_path, variant):
    """CRLF, extra fields, comments and odd blanks: the same rows as the clean file, and one
    finding at most, however many lines carry the irregularity."""
    clean = read_trec_run(write(tmp_path, CLEAN))
    other = read_trec_run(write(tmp_path, variant(CLEAN)))
    columns = ["topic", "doc", "score", "tag"]
    assert other.table[columns].astype(str).values.tolist() == (
        clean.table[columns].astype(str).values.tolist())
    assert len(other.findings) <= 1
    assert all(f.severity == "warning" for f in other.findings)


def test_bad_lines_among_good_ones_are_reported_by_line(tmp_path):
    lines = CLEAN.splitlines(keepends=True)
    lines[2] = "403 Q0 D2 3 high tag\n"
    lines[5] = "403 Q0 D5 6 tag\n"
    lines[8] = "403 Q0 D8 9 -nan tag\r\n"
    run = read_trec_run(write(tmp_path, "".join(lines)))
    assert [(f.line, f.message) for f in run.findings] == [
        (3, "score is not a number"), (6, "5 fields, expected 6"),
        (9, "score -nan is not a finite number")]
    assert run.table["line"].tolist() == [1, 2, 4, 5, 7, 8, 10, 11, 12]


def test_one_rule_for_scores_whatever_else_the_file_holds(tmp_path):
    """A score beyond the largest double is an error whether or not another line's score is
    not a number (that one sends the file's scores through the text path)."""
    huge = "1 Q0 a 1 1e400 t\n1 Q0 b 2 1 t\n"
    for text in (huge, huge + "1 Q0 c 3 high t\n"):
        run = read_trec_run(write(tmp_path, text))
        assert [(f.line, f.message) for f in run.findings][:1] == [
            (1, "score 1e400 is not a finite number (beyond the largest double)")]
        assert run.table["doc"].tolist() == ["b"]
