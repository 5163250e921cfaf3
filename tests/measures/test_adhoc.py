"""Ad hoc measures: the worked examples of seed 004 and trec_eval's ranking semantics."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from builder.measures.registry import measures_of
from builder.tasks.adhoc import KIND, AdhocOptions


def ranking(relevance: str, R: int, topic: str = "1", run: str = "r"):
    """A run whose documents come in the order of ``relevance`` (R/N), and qrels with R relevant."""
    flags = relevance.replace(" ", "")
    docs = [f"d{i:03d}" for i in range(len(flags))]
    runs = pd.DataFrame(
        {"run": run, "topic": topic, "doc": docs, "score": [100.0 - i for i in range(len(flags))]}
    )
    relevant = [d for d, f in zip(docs, flags) if f == "R"]
    judged = relevant + [f"unretrieved{i}" for i in range(R - len(relevant))]
    judged += [d for d, f in zip(docs, flags) if f == "N"]
    rels = [1] * R + [0] * (len(judged) - R)
    return pd.DataFrame({"topic": topic, "doc": judged, "rel": rels}), runs


def scores(qrels, runs, **options) -> dict[tuple[str, str], float]:
    table = KIND.evaluate(qrels, runs, AdhocOptions(**options)).scores
    return {(m, t): v for m, t, v in zip(table["measure"], table["topic"], table["value"])}


def test_seed_004_average_precision_of_RNNRR_NNRNR_with_R_20():
    got = scores(*ranking("RNNRR NNRNR", R=20))
    assert got[("map", "1")] == pytest.approx((1 / 1 + 2 / 4 + 3 / 5 + 4 / 8 + 5 / 10) / 20)


def test_seed_004_R_precision_is_5_of_11():
    got = scores(*ranking("RNNRR NNRNR NNNRN RNNNN", R=11))
    assert got[("Rprec", "1")] == pytest.approx(5 / 11)


def test_seed_004_uninterpolated_points_and_interpolated_table():
    qrels, runs = ranking("RNNRR NNRNR", R=20)
    evaluation = KIND.evaluate(qrels, runs, AdhocOptions())
    points = evaluation.extras["pr_points"]
    assert points["precision"].round(2).tolist() == [
        1,
        0.5,
        0.33,
        0.5,
        0.6,
        0.5,
        0.43,
        0.5,
        0.44,
        0.5,
    ]
    assert points["recall"].tolist() == pytest.approx(
        [0.05, 0.05, 0.05, 0.1, 0.15, 0.15, 0.15, 0.2, 0.2, 0.25]
    )
    got = scores(qrels, runs)
    # "Precision at 0% recall is 1", at 10% the best at or after the 2nd relevant is 0.6,
    # at 20% (4th relevant, rank 8) 0.5; beyond 25% recall nothing is retrieved.
    assert got[("iprec_at_recall_0.00", "1")] == 1.0
    assert got[("iprec_at_recall_0.10", "1")] == 0.6
    assert got[("iprec_at_recall_0.20", "1")] == 0.5
    assert got[("iprec_at_recall_0.30", "1")] == 0.0


def test_ties_are_broken_by_docno_descending_not_by_the_rank_column():
    qrels = pd.DataFrame({"topic": ["1"], "doc": ["b"], "rel": [1]})
    runs = pd.DataFrame(
        {"run": "r", "topic": "1", "doc": ["a", "b", "c"], "score": [1.0, 1.0, 1.0]}
    )
    got = scores(qrels, runs)
    assert got[("recip_rank", "1")] == 0.5  # order c, b, a


def test_depth_cut_applies_after_sorting():
    qrels = pd.DataFrame({"topic": ["1"], "doc": ["best"], "rel": [1]})
    runs = pd.DataFrame(
        {"run": "r", "topic": "1", "doc": ["x", "y", "best"], "score": [1.0, 2.0, 3.0]}
    )
    got = scores(qrels, runs, depth=1)
    assert (got[("num_ret", "1")], got[("num_rel_ret", "1")]) == (1, 1)


def test_complete_averages_over_qrels_topics_and_ignores_unjudged_topics():
    qrels = pd.DataFrame({"topic": ["1", "2"], "doc": ["a", "a"], "rel": [1, 1]})
    runs = pd.DataFrame({"run": "r", "topic": ["1", "9"], "doc": ["a", "a"], "score": [1.0, 1.0]})
    complete = scores(qrels, runs)
    assert complete[("num_q", "all")] == 2
    assert complete[("map", "all")] == 0.5
    assert complete[("map", "2")] == 0.0
    assert complete[("gm_map", "all")] == pytest.approx(math.sqrt(1 * 0.00001))
    assert ("map", "9") not in complete
    partial = scores(qrels, runs, complete=False)
    assert (partial[("num_q", "all")], partial[("map", "all")]) == (1, 1.0)
    assert ("map", "2") not in partial


def test_negative_relevance_is_neither_relevant_nor_judged_nonrelevant():
    qrels = pd.DataFrame({"topic": "1", "doc": ["u", "n", "r"], "rel": [-1, 0, 1]})
    runs = pd.DataFrame(
        {"run": "r", "topic": "1", "doc": ["u", "n", "r"], "score": [3.0, 2.0, 1.0]}
    )
    got = scores(qrels, runs)
    assert got[("num_rel", "1")] == 1
    # bpref: one judged non-relevant above the relevant document, min(R, N) = 1.
    assert got[("bpref", "1")] == 0.0
    # infAP at rank 3: 1/3 + 2/3 * (0+1+1)/2 * (0+e)/(0+1+2e)
    e = 0.00001
    assert got[("infAP", "1")] == pytest.approx(1 / 3 + 2 / 3 * 1.0 * e / (1 + 2 * e))


def test_relevance_level_sets_what_counts_as_relevant_but_not_ndcg_gains():
    qrels = pd.DataFrame({"topic": "1", "doc": ["a", "b"], "rel": [1, 2]})
    runs = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a", "b"], "score": [2.0, 1.0]})
    got = scores(qrels, runs, rel_level=2)
    assert (got[("num_rel", "1")], got[("P_5", "1")], got[("recip_rank", "1")]) == (1, 0.2, 0.5)
    ideal = 2 + 1 / math.log2(3)
    assert got[("ndcg", "1")] == pytest.approx((1 + 2 / math.log2(3)) / ideal)


def test_set_measures_and_success():
    got = scores(*ranking("NNRN", R=2))
    assert got[("set_P", "1")] == 0.25
    assert got[("set_recall", "1")] == 0.5
    assert got[("set_F", "1")] == pytest.approx(2 * 0.25 * 0.5 / 0.75)
    assert (got[("success_1", "1")], got[("success_5", "1")]) == (0.0, 1.0)


def test_every_declared_measure_is_scored_with_a_source_and_description():
    got = scores(*ranking("RN", R=1))
    declared = measures_of("adhoc")
    assert {m.name for m in declared} == {m for m, _ in got}
    assert all(m.description and m.source for m in declared)


def test_topic_judged_only_negatively_has_no_relevant_documents():
    # trec_eval itself allocates no relevance levels here and reads past them.
    qrels = pd.DataFrame({"topic": ["1", "2"], "doc": ["a", "a"], "rel": [-1, 1]})
    runs = pd.DataFrame({"run": "r", "topic": ["1", "2"], "doc": ["a", "a"], "score": [1.0, 1.0]})
    got = scores(qrels, runs)
    assert (got[("num_rel", "1")], got[("map", "1")], got[("ndcg", "1")]) == (0, 0.0, 0.0)
    assert got[("map", "all")] == 0.5


def test_run_without_any_judged_topic_scores_zero_everywhere():
    qrels = pd.DataFrame({"topic": ["1"], "doc": ["a"], "rel": [1]})
    runs = pd.DataFrame({"run": "r", "topic": ["9"], "doc": ["a"], "score": [1.0]})
    evaluation = KIND.evaluate(qrels, runs, AdhocOptions())
    assert evaluation.extras["pr_points"].empty
    got = {
        (m, t): v
        for m, t, v in evaluation.scores[["measure", "topic", "value"]].itertuples(index=False)
    }
    assert (got[("num_q", "all")], got[("num_ret", "all")], got[("map", "all")]) == (1, 0, 0.0)


def graded_example():
    """Ranking a(1) n(0) b(2) x(unpooled); c(2) missed. Ideal gains 2, 2, 1: P = 3, R = 3."""
    qrels = pd.DataFrame({"topic": "1", "doc": ["a", "n", "b", "c"], "rel": [1, 0, 2, 2]})
    runs = pd.DataFrame(
        {"run": "r", "topic": "1", "doc": ["a", "n", "b", "x"], "score": [4.0, 3.0, 2.0, 1.0]}
    )
    return scores(qrels, runs)


def test_utility_is_relevant_minus_nonrelevant_retrieved_averaged_over_topics():
    qrels_1, runs_1 = ranking("RNNRR", R=4, topic="1")
    qrels_2, runs_2 = ranking("NNNN", R=1, topic="2")
    got = scores(pd.concat([qrels_1, qrels_2]), pd.concat([runs_1, runs_2]))
    assert (got[("utility", "1")], got[("utility", "2")]) == (1.0, -4.0)
    assert got[("utility", "all")] == -1.5  # m_utility.c: averaged, not summed


def test_binG_discounts_each_relevant_by_the_documents_above_it_not_relevant():
    # m_binG.c: sum of 1 / log2(3 + i - rel_so_far) over relevant rows i (0-based), / R.
    got = graded_example()
    assert got[("binG", "1")] == pytest.approx((1 / math.log2(2) + 1 / math.log2(3)) / 3)


def test_binG_uses_the_relevance_level_G_does_not():
    qrels = pd.DataFrame({"topic": "1", "doc": ["a", "b"], "rel": [1, 2]})
    runs = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a", "b"], "score": [2.0, 1.0]})
    got = scores(qrels, runs, rel_level=2)
    assert got[("binG", "1")] == pytest.approx(1 / math.log2(3))  # b after one "non-relevant"
    # G: a at rank 1: 1 / log2(2 + 2 - 1); b at rank 2: 2 / log2(2 + 3 - 3); / (2 + 1).
    assert got[("G", "1")] == pytest.approx((1 / math.log2(3) + 2 / math.log2(2)) / 3)


def test_G_of_the_graded_example():
    # m_G.c: rank 1 gains 1, cost 2 (ideal 2): 1 / log2(2 + 2 - 1); rank 3 gains 2 (total 3),
    # cost 2 + 2 + 1 = 5: 2 / log2(2 + 5 - 3); divided by the ideal total 5.
    got = graded_example()
    assert got[("G", "1")] == pytest.approx((1 / math.log2(3) + 2 / math.log2(4)) / 5)


def test_G_costs_one_per_rank_beyond_the_ideal_ranking():
    # P = 1; the relevant document at rank 3: cost 1 + 1 + 1 (min_cost), gained 1: 1 / log2(4).
    qrels = pd.DataFrame({"topic": "1", "doc": ["r"], "rel": [1]})
    runs = pd.DataFrame({"run": "r", "topic": "1", "doc": ["x", "y", "r"], "score": [3.0, 2, 1]})
    assert scores(qrels, runs)[("G", "1")] == pytest.approx(1 / math.log2(4))


def test_ndcg_rel_averages_ndcg_at_each_document_of_positive_gain():
    # m_ndcg_rel.c: DCG(1) / IDCG(1) at a, DCG(3) / IDCG(3) at b, DCG(N) / IDCG(P) for c
    # (missed); DCG(1) = 1, DCG(3) = 1 + 2 / log2(4) = 2; IDCG = 2, 2 + 2 / log2(3), + 1 / 2.
    got = graded_example()
    idcg_3 = 2 + 2 / math.log2(3) + 1 / 2
    assert got[("ndcg_rel", "1")] == pytest.approx((1 / 2 + 2 / idcg_3 + 2 / idcg_3) / 3)


def test_Rndcg_averages_ndcg_where_the_ideal_gain_drops():
    # m_Rndcg.c: ideal 2, 2, 1 drops after 2 and after 3 (= P); N = 4 = P + 1: no final point.
    got = graded_example()
    idcg_2 = 2 + 2 / math.log2(3)
    assert got[("Rndcg", "1")] == pytest.approx((1 / idcg_2 + 2 / (idcg_2 + 1 / 2)) / 2)


@pytest.mark.parametrize(
    ("docs", "expected"),
    [
        (["x", "r"], 0.0),  # N = P + 1: only nDCG@1 = 0 (trec_eval's loop skips the last point)
        (["x", "r", "y"], (0 + 1 / math.log2(3)) / 2),  # N > P + 1: + DCG(N) / IDCG(P)
    ],
)
def test_Rndcg_final_point_at_N_only_beyond_P_plus_one(docs, expected):
    qrels = pd.DataFrame({"topic": "1", "doc": ["r"], "rel": [1]})
    score = [3.0, 2.0, 1.0][: len(docs)]
    runs = pd.DataFrame({"run": "r", "topic": "1", "doc": docs, "score": score})
    got = scores(qrels, runs)
    assert got[("Rndcg", "1")] == pytest.approx(expected)
    assert got[("ndcg_rel", "1")] == pytest.approx(1 / math.log2(3))  # DCG(2) / IDCG(1)


def test_gain_measures_are_zero_without_positive_judgments():
    qrels = pd.DataFrame({"topic": "1", "doc": ["n", "u"], "rel": [0, -1]})
    runs = pd.DataFrame({"run": "r", "topic": "1", "doc": ["n", "u"], "score": [2.0, 1.0]})
    got = scores(qrels, runs)
    assert [got[(m, "1")] for m in ("binG", "G", "ndcg_rel", "Rndcg")] == [0.0] * 4
    assert got[("utility", "1")] == -2.0  # b = retrieved - relevant retrieved: u counts
