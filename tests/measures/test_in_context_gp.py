"""gP[r], gR[r], AgP and MAgP over ranked article scores (seed 001 eq. 11-13), by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from builder.measures.inex.in_context.generalized_precision import generalized_scores

TOPICS = pd.DataFrame({"topic": ["1", "2"], "num_rel": [4, 2], "rel_size": [1000, 300]})


def ranked(run: str, topic: str, scores: list[float], relevant: list[bool]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "run": run,
            "topic": topic,
            "rank": range(1, len(scores) + 1),
            "score": scores,
            "relevant": relevant,
            "ret_chars": 10,
            "rel_ret_chars": [5 if r else 0 for r in relevant],
        }
    )


def values(scores: pd.DataFrame, topic: str) -> dict[str, float]:
    rows = scores[scores["topic"] == topic]
    return dict(zip(rows["measure"], rows["value"]))


def test_gp_and_agp_worked_example():
    # Scores .6, 0, .8: gP = .6, .3, .467; relevant at ranks 1 and 3, 4 relevant articles:
    # AgP = (.6 + .467) / 4 = .267 (eq. 13).
    articles = ranked("r", "1", [0.6, 0.0, 0.8], [True, False, True])
    got = values(generalized_scores(articles, TOPICS, ranks=(1, 2, 3)), "1")
    assert got["gP[1]"] == pytest.approx(0.6)
    assert got["gP[2]"] == pytest.approx(0.3)
    assert got["gP[3]"] == pytest.approx(1.4 / 3)
    assert got["gR[3]"] == pytest.approx(0.5)
    assert got["AgP"] == pytest.approx((0.6 + 1.4 / 3) / 4)
    assert round(got["AgP"], 3) == 0.267
    assert (got["num_ret"], got["num_rel"], got["num_rel_ret"]) == (3, 4, 2)


def test_short_runs_inex_eval_keeps_last_rank_and_paper_divides_by_r():
    articles = ranked("r", "1", [0.6, 0.0, 0.8], [True, False, True])
    inex = values(generalized_scores(articles, TOPICS, ranks=(5,)), "1")
    paper = values(generalized_scores(articles, TOPICS, ranks=(5,), short_runs="paper"), "1")
    assert inex["gP[5]"] == pytest.approx(1.4 / 3)
    assert paper["gP[5]"] == pytest.approx(1.4 / 5)
    assert inex["gR[5]"] == paper["gR[5]"] == pytest.approx(0.5)


def test_means_skip_topics_without_results_unless_complete():
    articles = ranked("r", "1", [1.0], [True])
    # Topic 1: AgP = 1/4. Topic 2 has no results.
    partial = values(generalized_scores(articles, TOPICS, ranks=(1,)), "all")
    complete = values(generalized_scores(articles, TOPICS, ranks=(1,), complete=True), "all")
    assert (partial["num_q"], partial["MAgP"]) == (1, pytest.approx(0.25))
    assert (complete["num_q"], complete["MAgP"]) == (2, pytest.approx(0.125))
    # The qrels' totals count every assessed topic either way, as inex_eval's do.
    assert partial["num_rel"] == complete["num_rel"] == 6
    assert partial["rel_size"] == 1300
    completed = generalized_scores(articles, TOPICS, ranks=(1,), complete=True)
    assert values(completed, "2")["gP[1]"] == 0.0


def test_recall_precision_curve_is_interpolated_from_the_right():
    # Topic 2 (2 relevant): gR = .5 at rank 1 with gP = .2, gR = 1 at rank 2 with gP = .5.
    articles = ranked("r", "2", [0.2, 0.8], [True, True])
    got = values(generalized_scores(articles, TOPICS), "all")
    assert [got[f"ircl_prn.{x / 10:.2f}"] for x in range(11)] == pytest.approx([0.5] * 11)
    articles = ranked("r", "2", [0.8, 0.0], [True, True])
    got = values(generalized_scores(articles, TOPICS), "all")
    assert got["ircl_prn.0.50"] == pytest.approx(0.8)
    assert got["ircl_prn.1.00"] == pytest.approx(0.4)


def test_runs_are_scored_apart():
    articles = pd.concat(
        [ranked("a", "1", [1.0, 1.0], [True, True]), ranked("b", "1", [0.0, 1.0], [False, True])]
    )
    scores = generalized_scores(articles, TOPICS, ranks=(1, 2))
    mean = scores[(scores["topic"] == "all") & (scores["measure"] == "MAgP")]
    assert dict(zip(mean["run"], mean["value"])) == pytest.approx({"a": 0.5, "b": 0.125})
