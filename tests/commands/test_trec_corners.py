"""The corners where we differed from trec_eval, each with its repro (found by differential
testing); expected values are those trec_eval prints for the same files."""

from __future__ import annotations

import pytest

from builder.cli import main

ERRORS: list[str] = []


def evaluate(capsys, tmp_path, qrels: str, run: str, *flags: str) -> tuple[int, list[str]]:
    """Exit code and output lines; the standard error goes to ``ERRORS[-1]``."""
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    code = main(["evaluate", *flags, str(tmp_path / "qrels"), str(tmp_path / "run")])
    captured = capsys.readouterr()
    ERRORS.append(captured.err)
    return code, captured.out.splitlines()


def value(lines: list[str], measure: str, topic: str = "all") -> str:
    found = [line.split("\t")[2] for line in lines
             if line.split("\t")[0].strip() == measure and line.split("\t")[1] == topic]  # fmt: skip
    assert len(found) == 1, (measure, topic, lines)
    return found[0]


@pytest.mark.parametrize(
    ("profile", "expected"),
    [("8.1", "0.5000"), ("9.0.8-float", "0.5000"), ("9.0.8", "1.0000"), ("10.0", "1.0000")],
)
def test_single_precision_scores_tie(capsys, tmp_path, profile, expected):
    # Equal as C floats, so tied and broken by docno (B before A) in 8.1 and the 2020 9.0.8.
    qrels = "1 0 A 1\n1 0 B 0\n"
    run = "1 Q0 A 1 1.0000000002 r\n1 Q0 B 2 1.0000000001 r\n"
    code, lines = evaluate(capsys, tmp_path, qrels, run, "--profile", profile, "-m", "map")
    assert code == 0
    assert value(lines, "map") == expected


def test_complete_num_rel_summary_counts_every_positive_grade(capsys, tmp_path):
    # -c -l 2: the per-topic rows count grade >= 2, the summary every grade > 0 (m_num_rel.c).
    qrels = "1 0 A 1\n1 0 B 2\n1 0 C 0\n2 0 D 2\n2 0 E 1\n"
    run = "1 Q0 A 1 1.0 r\n1 Q0 B 2 0.5 r\n"
    _, lines = evaluate(capsys, tmp_path, qrels, run, "-q", "-c", "-l", "2", "-m", "num_rel")
    assert [value(lines, "num_rel", t) for t in ("1", "2", "all")] == ["1", "1", "4"]


def test_set_map_is_one_division(capsys, tmp_path):
    # R = 16, 50 retrieved, 9 relevant: 81 / 800 prints 0.1013 (0.18 x 0.5625 prints 0.1012).
    qrels = "".join(f"1 0 r{i} 1\n" for i in range(16))
    run = "".join(f"1 Q0 {'r' if i < 9 else 'n'}{i} {i + 1} {100 - i} x\n" for i in range(50))
    _, lines = evaluate(capsys, tmp_path, qrels, run, "-m", "set_map")
    assert value(lines, "set_map") == "0.1013"


def test_no_judged_topic_without_complete_exits_7(capsys, tmp_path):
    code, lines = evaluate(capsys, tmp_path, "1 0 A 1\n", "2 Q0 A 1 1.0 r\n", "--no-complete")
    assert (code, lines) == (7, [])


def test_every_parameter_is_kept(capsys, tmp_path):
    qrels = "1 0 A 1\n1 0 B 2\n"
    run = "".join(f"1 Q0 {d} {i} {9 - i} r\n" for i, d in enumerate("xAyBz", 1))
    flags = ["-m", "P.5,7", "-m", "ndcg_cut.10,23", "-m", "success.2,5", "-m", "recall.20,2000",
             "-m", "map_cut.10,23", "-m", "relative_P.5,7"]  # fmt: skip
    _, lines = evaluate(capsys, tmp_path, qrels, run, *flags)
    names = [line.split("\t")[0].strip() for line in lines]
    assert names == ["P_5", "P_7", "recall_20", "recall_2000", "ndcg_cut_10", "ndcg_cut_23",
                     "map_cut_10", "map_cut_23", "relative_P_5", "relative_P_7", "success_2",
                     "success_5"]  # fmt: skip
    assert value(lines, "P_7") == f"{2 / 7:.4f}"


def test_set_nickname_and_runid(capsys, tmp_path):
    _, lines = evaluate(capsys, tmp_path, "1 0 A 1\n", "1 Q0 A 1 1.0 r\n", "-m", "set")
    assert [line.split("\t")[0].strip() for line in lines] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_relative_P", "set_recall", "set_map", "set_F",
    ]  # fmt: skip
    _, lines = evaluate(capsys, tmp_path, "1 0 A 1\n", "1 Q0 A 1 1.0 r\n", "-m", "P.5")
    assert lines == ["P_5                   \tall\t0.2000"]


def test_depth_zero_evaluates_every_ranking_emptied(capsys, tmp_path):
    """-M 0 as trec_eval: each topic evaluated with no document (its output is compared
    with trec_eval's in tests/oracle/test_trec_eval_corners.py)."""
    (tmp_path / "qrels").write_text("1 0 A 1\n")
    (tmp_path / "run").write_text("1 Q0 A 1 1.0 r\n")
    code = main(["evaluate", "-M", "0", "-m", "num_ret", "-m", "num_q",
                 str(tmp_path / "qrels"), str(tmp_path / "run")])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert [line.split() for line in lines] == [["num_q", "all", "1"], ["num_ret", "all", "0"]]


def test_odd_relevance_is_an_error(capsys, tmp_path):
    code, _ = evaluate(capsys, tmp_path, "1 0 A abc\n", "1 Q0 A 1 1 r\n", "-m", "map")
    assert code == 2
    assert "qrels:1: error: relevance is not an integer" in ERRORS[-1]


# trec_eval's reading, as an option: every value below is what trec_eval 10.0 prints for the
# same files (tests/oracle/test_differential_trec_eval.py checks random ones against it).
ODD_RUN = "1 Q0 A 1 . r\n1 Q0 B 2 0x1A r\n1 Q0 C 3 1.5abc r\n"


def test_odd_scores_read_as_atof_with_a_warning_each(capsys, tmp_path):
    # atof: . is 0, 0x1A is 26 (hexadecimal: a number in every reading, no warning), 1.5abc
    # is 1.5; so B (not relevant), C, A.
    code, lines = evaluate(capsys, tmp_path, "1 0 A 1\n1 0 B 0\n1 0 C 1\n", ODD_RUN,
                           "--reading", "atof", "-m", "map", "-m", "recip_rank")
    assert code == 0
    assert (value(lines, "map"), value(lines, "recip_rank")) == ("0.5833", "0.5000")
    assert [line.removeprefix(f"{tmp_path}/") for line in ERRORS[-1].splitlines()] == [
        "run:1: warning: score . read as 0.0, as trec_eval reads it (C's atof)",
        "run:3: warning: score 1.5abc read as 1.5, as trec_eval reads it (C's atof)",
    ]


def test_odd_exponents_read_as_atof(capsys, tmp_path):
    # -0x.8p1 is -1, 1e is 1 (an exponent without digits is not read): B first.
    code, lines = evaluate(capsys, tmp_path, "1 0 A abc\n1 0 B 1\n",
                           "1 Q0 A 1 -0x.8p1 r\n1 Q0 B 2 1e r\n", "--reading", "atof", "-m", "map")
    assert code == 0 and value(lines, "map") == "1.0000"


def test_odd_relevance_read_as_atol_with_a_warning(capsys, tmp_path):
    code, lines = evaluate(capsys, tmp_path, "1 0 A abc\n1 0 B 1\n",
                           "1 Q0 A 1 2.0 r\n1 Q0 B 2 1.0 r\n", "--reading", "atof",
                           "-m", "map", "-m", "num_rel", "-m", "num_nonrel_judged_ret")
    assert code == 0
    assert [value(lines, m) for m in ("map", "num_rel", "num_nonrel_judged_ret")] == [
        "0.5000", "1", "1"]
    assert "qrels:1: warning: relevance abc read as 0, as trec_eval reads it (C's atol)" \
        in ERRORS[-1]


def test_a_blank_qrels_line_is_skipped_with_a_warning_under_atof(capsys, tmp_path):
    # trec_eval quits on it ("Malformed line"); both readings skip it, atof says so.
    qrels = "1 0 A 1\n\n1 0 B 0\n"
    code, lines = evaluate(capsys, tmp_path, qrels, "1 Q0 A 1 1 r\n", "-m", "map")
    assert (code, value(lines, "map"), ERRORS[-1]) == (0, "1.0000", "")
    code, lines = evaluate(capsys, tmp_path, qrels, "1 Q0 A 1 1 r\n", "--reading", "atof",
                           "-m", "map")
    assert (code, value(lines, "map")) == (0, "1.0000")
    assert ERRORS[-1] == (f"{tmp_path}/qrels:2: warning: blank line skipped (trec_eval quits "
                          "on it: Malformed line)\n")


@pytest.mark.parametrize("score", ["nan", "-inf", "infinity", "1e999", "0x1p99999", "NaN(1)x"])
def test_scores_that_are_not_finite_stay_errors_under_atof(capsys, tmp_path, score):
    # A run cannot be ranked by NaN or infinity (trec_eval sorts them as its qsort falls).
    code, lines = evaluate(capsys, tmp_path, "1 0 A 1\n", f"1 Q0 A 1 {score} r\n",
                           "--reading", "atof", "-m", "map")
    assert code == 1 and lines == []
    assert f"run:1: error: score {score} is not a finite number" in ERRORS[-1]


def test_the_atof_reading_is_an_ad_hoc_option(capsys, tmp_path):
    (tmp_path / "qrels").write_text("1 Q0 10 100 1000 50 0:100\n")
    (tmp_path / "run").write_text("1 Q0 10 1 -1 r 0 50\n")
    code = main(["evaluate", "--task", "focused", "--reading", "atof",
                 str(tmp_path / "qrels"), str(tmp_path / "run")])  # fmt: skip
    assert code == 2 and "option --reading does not apply" in capsys.readouterr().err


def test_a_run_from_standard_input(capsys, tmp_path, monkeypatch):
    import io

    (tmp_path / "qrels").write_text("1 0 A 1\n")
    stdin = io.TextIOWrapper(io.BytesIO(b"1 Q0 A 1 1.0 r\n"))
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["evaluate", "-m", "map", str(tmp_path / "qrels"), "-"]) == 0
    assert capsys.readouterr().out == "map                   \tall\t1.0000\n"


def test_options_a_task_kind_lacks_are_errors(capsys, tmp_path):
    (tmp_path / "qrels").write_text("1 Q0 10 100 1000 50 0:100\n")
    (tmp_path / "run").write_text("1 Q0 10 1 -1 r 0 50\n")
    for flag in (["-l", "2"], ["--interpolation", "lround"], ["-M", "5"]):
        code = main(["evaluate", "--task", "focused", *flag,
                     str(tmp_path / "qrels"), str(tmp_path / "run")])  # fmt: skip
        assert code == 2
        assert "does not apply to this task kind" in capsys.readouterr().err
