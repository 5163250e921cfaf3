"""Property: the classical user model gives TREC precision at the natural recall points.

With P(k ~> x) = 1 when rank k retrieves x and binary idealism, EPRUM's precision at recall r is
r / (rank of the r-th relevant document), 0 when fewer than r are retrieved; its average is
trec_eval's average precision and its value at r = 1 the reciprocal rank (checked against
pytrec_eval, which runs trec_eval's own code).
"""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.measures.eprum.models import (
    UserModel,
    document_ideal,
    document_pointers,
    navigation_table,
)
from builder.measures.eprum.scores import IdealSet, score_rows, topic_results

pytrec_eval = pytest.importorskip("pytrec_eval")

DOCS = [f"d{i}" for i in range(12)]


def classical_scores(runs: pd.DataFrame, qrels: pd.DataFrame, depth: int = 1000) -> pd.DataFrame:
    """EPRUM of every run x topic with relevant documents, classical model on documents."""
    ideal = document_ideal(qrels)
    navigation = navigation_table(document_pointers(runs, depth), ideal, UserModel("classical"), ["run"])
    elements = ideal[["topic", "element"]].assign(idealism=1.0)
    results = topic_results(navigation, IdealSet(elements), sorted(runs["run"].unique()))
    return score_rows(results)


@st.composite
def campaigns(draw):
    topics = draw(st.lists(st.sampled_from(["1", "2", "10"]), min_size=1, max_size=3, unique=True))
    qrels, runs = [], []
    for topic in topics:
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        rels = [draw(st.integers(0, 2)) for _ in judged]
        rels[0] = max(rels[0], 1)
        qrels += [(topic, d, rel) for d, rel in zip(judged, rels)]
        retrieved = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
        runs += [(topic, d, float(draw(st.integers(0, 3)))) for d in retrieved]  # many ties
    return qrels, runs


@settings(max_examples=40, deadline=None)
@given(campaigns())
def test_classical_model_is_trec_precision_at_natural_recall_points(campaign):
    qrels, runs = campaign
    qrels_table = pd.DataFrame(qrels, columns=["topic", "doc", "rel"])
    run_table = pd.DataFrame(runs, columns=["topic", "doc", "score"]).assign(run="r")
    ours = classical_scores(run_table, qrels_table).set_index(["topic", "measure"])["value"]

    evaluator = pytrec_eval.RelevanceEvaluator(
        {t: {d: r for tt, d, r in qrels if tt == t} for t, _, _ in qrels}, {"map", "recip_rank"}
    )
    reference = evaluator.evaluate(
        {t: {d: s for tt, d, s in runs if tt == t} for t, _, _ in runs}
    )
    for topic in qrels_table["topic"].unique():
        values = reference.get(topic, {"map": 0.0, "recip_rank": 0.0})
        assert ours[(topic, "avgP")] == pytest.approx(values["map"], abs=1e-12)
        assert ours[(topic, "P[r=1]")] == pytest.approx(values["recip_rank"], abs=1e-12)

        # Every natural recall point: r / rank of the r-th relevant document.
        ranked = run_table[run_table["topic"] == topic].sort_values(["score", "doc"], ascending=False)
        relevant = set(qrels_table.query("topic == @topic and rel >= 1")["doc"])
        ranks = [k for k, d in enumerate(ranked["doc"], start=1) if d in relevant]
        for r in range(1, len(relevant) + 1):
            expected = r / ranks[r - 1] if r <= len(ranks) else 0.0
            assert ours[(topic, f"P[r={r}]")] == pytest.approx(expected, abs=1e-12)
            assert ours[(topic, f"ML*[r={r}]")] == r
