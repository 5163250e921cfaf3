"""Property: on random small runs with ties, every measure equals pytrec_eval (trec_eval 9)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.measures.registry import measures_of
from builder.tasks.adhoc import KIND, AdhocOptions

pytrec_eval = pytest.importorskip("pytrec_eval")

DOCS = [f"d{i}" for i in range(12)]
# Summary-only or count measures are checked through the per-topic ones they add up.
# pytrec_eval is trec_eval 9: the measures new in 10.0 are checked against 10.0 itself, those
# beyond trec_eval (err@20, judged@10) against gdeval and ir_measures.
PER_TOPIC = [
    m.name
    for m in measures_of("adhoc")
    if m.aggregation.per_topic and "trec_eval 10.0" not in m.source and "@" not in m.name
]


@st.composite
def campaigns(draw):
    topics = draw(st.lists(st.sampled_from(["1", "2", "10"]), min_size=1, max_size=3, unique=True))
    qrels, runs = [], []
    for topic in topics:
        judged = draw(st.lists(st.sampled_from(DOCS), max_size=10, unique=True))
        rels = [draw(st.integers(-1, 3)) for _ in judged]
        if rels and max(rels) < 0:
            # A topic judged only negatively makes trec_eval allocate no relevance levels and
            # write past them (pytrec_eval crashes or hangs); we score it with R = 0.
            rels[0] = 0
        qrels += [(topic, d, rel) for d, rel in zip(judged, rels)]
        retrieved = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
        # Few distinct scores, so ties are frequent.
        runs += [(topic, d, float(draw(st.integers(0, 3)))) for d in retrieved]
    if not qrels:
        qrels = [(topics[0], DOCS[0], 1)]
    depth = draw(st.sampled_from([1000, 5, 3]))
    level = draw(st.sampled_from([1, 2]))
    return qrels, runs, depth, level


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(campaigns())
def test_every_per_topic_value_equals_pytrec_eval(campaign):
    qrels, runs, depth, level = campaign
    qrels_table = pd.DataFrame(qrels, columns=["topic", "doc", "rel"])
    run_table = pd.DataFrame(runs, columns=["topic", "doc", "score"]).assign(run="r")
    options = AdhocOptions(
        depth=depth, rel_level=level, complete=False, interpolation="trec_eval_9"
    )
    ours = KIND.evaluate(qrels_table, run_table, options).scores
    ours = ours[ours["topic"] != "all"].set_index(["topic", "measure"])["value"]

    truncated = (
        run_table.sort_values(["score", "doc"], ascending=False).groupby("topic").head(depth)
    )
    qrels_dict: dict[str, dict[str, int]] = {}
    for topic, doc, rel in qrels:
        qrels_dict.setdefault(topic, {})[doc] = rel
    run_dict: dict[str, dict[str, float]] = {}
    for topic, doc, score in truncated[["topic", "doc", "score"]].itertuples(index=False):
        run_dict.setdefault(topic, {})[doc] = score
    families = {name.rsplit("_", 1)[0] if name[-1].isdigit() else name for name in PER_TOPIC}
    families = {f for f in families if f in pytrec_eval.supported_measures} | {
        "P",
        "recall",
        "ndcg_cut",
        "success",
        "iprec_at_recall",
    }
    theirs = pytrec_eval.RelevanceEvaluator(qrels_dict, families, relevance_level=level).evaluate(
        run_dict
    )
    assert set(theirs) == {t for t, _ in ours.index}
    for topic, values in theirs.items():
        for measure in PER_TOPIC:
            assert ours[(topic, measure)] == pytest.approx(values[measure], abs=1e-12), (
                topic,
                measure,
            )
