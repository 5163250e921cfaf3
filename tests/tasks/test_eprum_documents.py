"""The ``eprum-documents`` task: graded TREC qrels read as graded idealism (Piwowarski and
Dupret, SIGIR 2006, sections 3.1 and 8), against satisfaction levels worked by hand and, with
binary qrels, trec_eval's map as ``appendix evaluate`` prints it."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from builder.cli import main


def evaluate(tmp_path, qrels: str, run: str, *options: str) -> dict[tuple[str, str], float]:
    (tmp_path / "qrels.txt").write_text(qrels)
    (tmp_path / "run.txt").write_text(run)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["evaluate", str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"),
                     "--task", "eprum-documents", *options, "--format", "tsv"]) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    return {(topic, measure): float(value) for _, measure, topic, value in rows}


def test_grades_are_the_share_of_users_who_regard_a_document_ideal(tmp_path):
    # A grade 2 (idealism 1), B grade 1 (idealism 0.5); the run ranks B then A.
    # Users with s in (0.5, 1]: only A ideal, found at rank 2: avgP 1/2.
    # Users with s in (0, 0.5]: A and B ideal, ranks 1 and 2: avgP 1.
    scores = evaluate(tmp_path, "1 0 A 2\n1 0 B 1\n1 0 C 0\n",
                      "1 Q0 B 1 3.0 r\n1 Q0 A 2 2.0 r\n1 Q0 C 3 1.0 r\n")
    assert scores[("1", "avgP")] == pytest.approx(0.5 * 0.5 + 0.5 * 1.0, abs=1e-15)
    # P@5: (0.5 x 1/5 + 0.5 x 2/5) over the users
    assert scores[("1", "P@5")] == pytest.approx(0.5 * 1 / 5 + 0.5 * 2 / 5, abs=1e-15)
    # the grades option: grade 1 ideal for nobody, so only A counts, found at rank 2
    only_a = evaluate(tmp_path, "1 0 A 2\n1 0 B 1\n1 0 C 0\n",
                      "1 Q0 B 1 3.0 r\n1 Q0 A 2 2.0 r\n1 Q0 C 3 1.0 r\n",
                      "-o", 'grades={"1": 0, "2": 1}')
    assert only_a[("1", "avgP")] == 0.5


def test_binary_qrels_give_trec_eval_s_map(tmp_path):
    qrels = "1 0 A 1\n1 0 B 0\n1 0 C 1\n2 0 D 1\n"
    run = "1 Q0 B 1 3 r\n1 Q0 C 2 2 r\n1 Q0 A 3 1 r\n2 Q0 X 1 2 r\n2 Q0 D 2 1 r\n"
    eprum = evaluate(tmp_path, qrels, run)
    out = io.StringIO()
    with redirect_stdout(out):
        main(["evaluate", str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), "-m", "map",
              "--format", "tsv"])
    maps = {line.split("\t")[2]: float(line.split("\t")[3]) for line in out.getvalue().splitlines()}
    for topic in ("1", "2", "all"):
        assert eprum[(topic, "avgP")] == pytest.approx(maps[topic], abs=1e-15)


def test_a_qrels_topic_without_results_is_said_to_score_0_as_it_does(tmp_path, capsys):
    # EPRUM averages over every topic with an ideal document: topic 2, unanswered, is 0 in
    # the mean, and the warning naming it must say so (not "left out of the means").
    scores = evaluate(tmp_path, "1 0 A 1\n2 0 D 1\n", "1 Q0 A 1 3.0 r\n")
    assert scores[("2", "avgP")] == 0.0
    assert scores[("all", "avgP")] == pytest.approx((1.0 + 0.0) / 2, abs=1e-15)
    warning = capsys.readouterr().err
    assert "qrels topics without results, scored 0: 2" in warning


def test_a_qrels_topic_without_an_ideal_document_is_said_to_be_left_out_as_it_is(
        tmp_path, capsys):
    # Topic 3 has only grade-0 documents: no user regards any of them ideal, so EPRUM leaves
    # it out of every run's means; unanswered, its warning must say so, not "scored 0".
    qrels = "1 0 A 1\n2 0 D 1\n3 0 E 0\n3 0 F 0\n"
    scores = evaluate(tmp_path, qrels, "1 Q0 A 1 3.0 r\n")
    assert ("3", "avgP") not in scores and scores[("2", "avgP")] == 0.0
    assert scores[("all", "avgP")] == pytest.approx((1.0 + 0.0) / 2, abs=1e-15)
    warning = capsys.readouterr().err
    assert "1 qrels topics without results, scored 0: 2\n" in warning
    assert ("1 qrels topics without results, left out of the means, as every run is (no "
            "document judged ideal): 3") in warning
    # The same with -l 0, which judges topic 3's documents, when the grades option makes
    # grade 0 ideal for nobody.
    scores = evaluate(tmp_path, qrels, "1 Q0 A 1 3.0 r\n", "-l", "0", "-o",
                      'grades={"0": 0, "1": 1}')
    assert [t for t, m in scores if m == "avgP"] == ["1", "2", "all"]
    assert "left out of the means, as every run is (no document judged ideal): 3" in (
        capsys.readouterr().err)


def test_the_trec_flags_reach_the_kind_that_reads_trec_runs(tmp_path):
    # -M and -l are trec_eval's, and this kind's depth and rel_level: declared once with the
    # ad hoc kind's, they set them here too. A grade 2, B grade 1; the run ranks B then A.
    qrels, run = "1 0 A 2\n1 0 B 1\n", "1 Q0 B 1 3.0 r\n1 Q0 A 2 2.0 r\n"
    # -l 2: only A is ideal, found at rank 2.
    assert evaluate(tmp_path, qrels, run, "-l", "2")[("1", "avgP")] == 0.5
    # -M 1: only B is kept; users for whom A alone is ideal (s > 0.5) find nothing, the
    # others find one of two ideal documents at rank 1.
    assert evaluate(tmp_path, qrels, run, "-M", "1")[("1", "avgP")] == pytest.approx(
        0.5 * 0.0 + 0.5 * (1.0 / 2), abs=1e-15)
