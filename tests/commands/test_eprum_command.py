"""``appendix eprum`` and ``appendix evaluate --task eprum`` end to end through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.cli import main

# Section 4 (Fig. 3, Table 1) as topic 4; section 5's ideal-list example as topic 5.
NAVIGATION = """topic\trank\telement\tprobability
4\t1\ta\t0.4
4\t1\tb\t0.4
4\t2\ta\t0.6
4\t2\tb\t0.4
4\t3\ta\t1
5\t1\tb\t0.9
5\t1\tc\t0.9
5\tideal:1\tb\t0.9
5\tideal:1\tc\t0.9
5\tideal:2\tb\t1
5\tideal:3\tc\t1
"""


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def tsv_values(out: str) -> dict[tuple[str, str], float]:
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(row) == 3 for row in rows)
    return {(topic, measure): float(value) for topic, measure, value in rows}


def test_eprum_command_prints_the_papers_examples(tmp_path: Path, capsys):
    path = tmp_path / "navigation.tsv"
    path.write_text(NAVIGATION)
    code, out, err = run_cli(capsys, "eprum", path, "--format", "tsv")
    assert code == 0, err
    values = tsv_values(out)
    assert values[("4", "P[r=1]")] == pytest.approx(0.8056, abs=1e-12)
    assert values[("4", "P[r=2]")] == pytest.approx(0.7488, abs=1e-12)
    assert values[("4", "ML*[r=2]")] == 2.0
    assert values[("4", "P[0.50]")] == pytest.approx(0.8056, abs=1e-12)  # r = ceil(0.5 * 2) = 1
    assert values[("4", "P[0.60]")] == pytest.approx(0.7488, abs=1e-12)
    assert values[("5", "ML*[r=2]")] == pytest.approx(1.29, abs=1e-12)
    # The list (a^) reaches both b and c with 81%: E[A_2/ML_2] = 0.81, times E[ML*_2] = 1.29.
    assert values[("5", "P[r=2]")] == pytest.approx(0.81 * 1.29, abs=1e-12)
    assert [m for t, m in values if t == "4"][:4] == ["P[r=1]", "P[r=2]", "P[0.00]", "P[0.10]"]
    assert values[("all", "avgP")] == pytest.approx(
        (values[("4", "avgP")] + values[("5", "avgP")]) / 2
    )

    code, out, _ = run_cli(capsys, "eprum", path)
    assert "P[r=1]                \t4\t0.8056" in out.splitlines()


def test_eprum_command_reports_bad_rows_with_their_lines(tmp_path: Path, capsys):
    path = tmp_path / "bad.tsv"
    path.write_text("1 1 a 0.5\n1 two a 0.5\n1 2 b 1.5\n1 3 c\n")
    code, out, err = run_cli(capsys, "eprum", path)
    assert code == 2
    assert out == ""
    assert f"{path}:2: error: rank is not a positive integer" in err
    assert f"{path}:3: error: probability is not a number in [0, 1]" in err
    assert f"{path}:4: error: expected 4 fields" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("rank", ["1e25", "ideal:1e25", "99999999999999999999", "2.0", "0"])
def test_a_rank_that_is_not_a_whole_number_is_a_finding(tmp_path: Path, capsys, rank: str):
    # 1e25 was cast to a 64-bit integer with only a numpy warning, then a traceback.
    path = tmp_path / "nav.tsv"
    path.write_text(f"1 1 a 0.5\n1 {rank} b 0.5\n1 ideal:1 a 1\n")
    code, out, err = run_cli(capsys, "eprum", path)
    assert (code, out) == (2, "")
    assert err.splitlines() == [(f"{path}:2: error: rank is not a positive integer (at most 18 "
                                "digits), 'idealism', 'ideal:K' or 'from:ELEMENT'")]


def test_idealism_rows_integrate_over_satisfaction_levels(tmp_path: Path, capsys):
    path = tmp_path / "graded.tsv"
    # b is ideal for 40% of the users: 60% see one ideal element (a, found at rank 1).
    path.write_text("1 1 a 1\n1 2 b 1\n1 idealism b 0.4\n")
    code, out, _ = run_cli(capsys, "eprum", path, "--format", "tsv")
    assert code == 0
    values = tsv_values(out)
    assert values[("1", "P[r=1]")] == 1.0
    assert values[("1", "P[r=2]")] == 1.0  # only users with both ideal: found by rank 2
    assert values[("1", "avgP")] == 1.0
    assert values[("1", "P[1.00]")] == 1.0


QRELS = "1 Q0 100 200 1000 100 0:100 500:100\n2 Q0 300 50 1000 100 10:50\n"
RUN = "1 Q0 100 1 9 tree 0 200\n1 Q0 100 2 8 tree 500 50\n"


def test_evaluate_task_eprum_tree_model_on_passages(tmp_path: Path, capsys):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    code, out, err = run_cli(
        capsys, "evaluate", "--task", "eprum", "--model", "tree", "-q", "--format", "tsv",
        tmp_path / "qrels", tmp_path / "run",
    )
    assert code == 0, err
    values = {
        (topic, measure): float(value)
        for _, measure, topic, value in (line.split("\t") for line in out.splitlines())
    }
    # Rank 1 [0, 200) contains a = [0, 100): P = 100/200; rank 2 [500, 550) lies inside
    # b = [500, 600): P = 50/100. Recall 1: 0.5 at rank 1 + 0.25 at rank 2 -> 0.5 + 0.25/2.
    assert values[("1", "P[0.00]")] == pytest.approx(0.625)
    assert values[("1", "P[1.00]")] == pytest.approx(2 * 0.25 / 2)  # both by rank 2, ML* = 2
    assert values[("1", "avgP")] == pytest.approx((0.625 + 0.25) / 2)
    assert values[("2", "avgP")] == 0.0  # no result for topic 2
    assert values[("all", "avgP")] == pytest.approx((0.625 + 0.25) / 4)

    code, out, _ = run_cli(
        capsys, "evaluate", "--task", "eprum", "--model", "classical", "-m", "avgP",
        tmp_path / "qrels", tmp_path / "run",
    )
    assert "avgP                  \tall\t0.0000" in out.splitlines()  # no exact match


def test_eprum_kind_keeps_every_natural_recall_point(tmp_path: Path):
    from builder.tasks import get_kind
    from builder.tasks.eprum import EprumOptions

    kind = get_kind("eprum")
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    qrels = kind.read_qrels(tmp_path / "qrels")
    (read,) = kind.read_runs([tmp_path / "run"], qrels, EprumOptions())
    natural = kind.evaluate(qrels, read.table, EprumOptions()).extras["natural"]
    topic_1 = natural[natural["topic"] == "1"]
    assert topic_1["recall"].tolist() == [1, 2]
    assert topic_1["precision"].tolist() == pytest.approx([0.625, 0.25])
    assert topic_1["ideal_length"].tolist() == [1.0, 2.0]


ARTICLE = ("<article><name>A</name><body><section><title>One</title><p>First para.</p>"
           "<p>Second para.</p></section><section><p>Other</p></section></body></article>")


def test_evaluate_task_eprum_on_an_element_run(tmp_path: Path, capsys):
    """An element run resolved over the corpus: the section containing the highlighted
    paragraph reaches it with len(p) / len(section) under the tree model."""
    from builder.formats.xml.article import parse_article

    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "100.xml").write_text(ARTICLE, encoding="utf-8")
    text = parse_article(ARTICLE.encode(), keep_text=True).text
    paragraph = text.index("Second para.")
    section = text.index("One")
    section_length = text.index("Other") - section
    (tmp_path / "qrels").write_text(f"1 Q0 100 12 {len(text)} 100 {paragraph}:12\n")
    (tmp_path / "run").write_text("1 Q0 100 1 1.0 elements /article[1]/body[1]/section[1]\n")
    code, out, err = run_cli(
        capsys, "evaluate", "--task", "eprum", "--model", "tree", "-m", "avgP", "--format", "tsv",
        "-o", f"corpus={tmp_path / 'corpus'}", tmp_path / "qrels", tmp_path / "run",
    )
    assert code == 0, err
    (row,) = [line.split("\t") for line in out.splitlines() if "\tall\t" in line]
    assert float(row[3]) == pytest.approx(12 / section_length)
