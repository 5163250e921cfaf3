"""Article scores of the in-context tasks, worked by hand (seed 001 eq. 4-10)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels
from builder.measures.inex.in_context.best_entry import best_entry_scores
from builder.measures.inex.in_context.scores import InContextSettings, evaluate_in_context, f_beta

# Topic 1: article a (length 1000) has 400 relevant characters [100, 500), BEP 100;
# article b (length 500) has 100 relevant characters [0, 100), BEP 0; article c is judged
# non-relevant.
QRELS = """\
1 Q0 a 400 1000 100 100:400
1 Q0 b 100 500 0 0:100
1 Q0 c 0 800
"""


def run_of(text: str, name: str = "r"):
    table, findings = read_fol_run(io.StringIO(text), name=name)
    assert table is not None, findings
    return table


def article_scores(text: str, kind: str, **settings) -> dict[str, float]:
    result = evaluate_in_context(
        run_of(text), parse_inex_qrels(QRELS), kind, InContextSettings(**settings)
    )
    scores = result.article_scores
    return dict(zip(scores["file"], scores["score"]))


def test_f_score_of_precision_075_recall_05():
    # rsize 3, size 4, Trel 6: P = .75, R = .5.
    rel_ret, ret, rel = np.array([3.0]), np.array([4.0]), np.array([6.0])
    assert f_beta(rel_ret, ret, rel, 1.0)[0] == pytest.approx(0.6)
    # (1 + 1/16) .75 .5 / (.75 / 16 + .5) = .3984375 / .546875
    assert f_beta(rel_ret, ret, rel, 0.25)[0] == pytest.approx(0.7285714, abs=1e-7)


def test_no_relevant_text_retrieved_scores_zero():
    assert f_beta(np.array([0.0]), np.array([10.0]), np.array([5.0]), 0.25)[0] == 0.0


def test_relevant_in_context_sums_the_passages_of_an_article():
    # Article a: [0, 200) holds 100 relevant, [200, 500) holds 300: P = 400/500, R = 1.
    # Article b: [50, 250) holds 50: P = .25, R = .5; c is not relevant.
    scores = article_scores(
        "1 Q0 a 1 9 t 0 200\n1 Q0 a 2 8 t 200 300\n1 Q0 b 3 7 t 50 200\n1 Q0 c 4 6 t 0 100\n",
        "relevant", beta=1.0,
    )
    assert scores["a"] == pytest.approx(2 * 0.8 / 1.8)
    assert scores["b"] == pytest.approx(2 * 0.25 * 0.5 / 0.75)
    assert scores["c"] == 0.0


def test_restricted_stops_after_the_tolerated_irrelevance():
    # Reading [0, 1000) of a: 100 irrelevant, 400 relevant, then 200 more irrelevant reach
    # the tolerance of 300 at 700: read 700, relevant 400.
    assert article_scores("1 Q0 a 1 9 t 0 1000\n", "restricted")["a"] == pytest.approx(400 / 700)
    # With a tolerance of 50 the reader gives up in the first 100 irrelevant characters.
    assert article_scores("1 Q0 a 1 9 t 0 1000\n", "restricted", tolerance=50)["a"] == 0.0


def test_restricted_reads_on_past_the_retrieved_text():
    # Retrieved [100, 300): all relevant; the reader goes on after the retrieved text in
    # document order: [0, 100) irrelevant (100), [300, 500) relevant, [500, 700) irrelevant
    # up to the tolerance. Read 200 + 100 + 200 + 200 = 700 characters, 400 relevant.
    assert article_scores("1 Q0 a 1 9 t 100 200\n", "restricted")["a"] == pytest.approx(400 / 700)
    # Article b ends at 500: 100 relevant then 400 irrelevant, of which 300 are read.
    assert article_scores("1 Q0 b 1 9 t 0 50\n", "restricted")["b"] == pytest.approx(100 / 400)


def test_restricted_reaching_the_end_of_the_article_reads_everything():
    # b: 100 relevant in 500 characters; with a tolerance of 1000 the whole article is read.
    scores = article_scores("1 Q0 b 1 9 t 0 500\n", "restricted", tolerance=1000)
    assert scores["b"] == pytest.approx(100 / 500)


def test_best_in_context_distance_200_gives_06_with_n_500():
    score = best_entry_scores(np.array([300]), np.array([100]), np.array([1000]), np.array([True]))
    assert score[0] == pytest.approx(0.6)


def test_best_in_context_formulas():
    entry, bep, length = np.array([300, 700, 100]), np.array([100, 100, 100]), np.array([1000] * 3)
    relevant = np.array([True, True, True])
    assert best_entry_scores(entry, bep, length, relevant).tolist() == pytest.approx([0.6, 0.0, 1.0])
    # eq. 9 with n = 1000: (1000 - 200) / 1000, (1000 - 600) / 1000.
    assert best_entry_scores(entry, bep, length, relevant, "paper_eq9").tolist() == pytest.approx(
        [0.8, 0.4, 1.0]
    )
    # eq. 8 with A = .1, L = 1000: 100 / (100 + d).
    assert best_entry_scores(entry, bep, length, relevant, "paper_eq8").tolist() == pytest.approx(
        [100 / 300, 100 / 700, 1.0]
    )


def test_best_in_context_needs_a_relevant_article_with_a_bep():
    scores = article_scores("1 Q0 a 1 9 t 200 0\n1 Q0 c 2 8 t 0 0\n1 Q0 z 3 7 t 0 0\n", "best")
    assert scores == {"a": pytest.approx(0.8), "c": 0.0, "z": 0.0}


def test_unknown_entry_point_scores_zero():
    assert article_scores("1 Q0 a 1 9 t X 0\n", "best")["a"] == 0.0
