"""The ad hoc measures' table: each measure declared once with the function that computes it,
in trec_eval's printing order, and ``compute`` asking each only for what is wanted."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from builder.measures.adhoc import scores
from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.ranking import judge_rankings
from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.adhoc.trec_eval.requests import FAMILY_ORDER
from builder.measures.registry import families, measures_of

QRELS = """\
1 0 a 2
1 0 b 0
1 0 c 1
1 0 d -1
1 0 z 3
2 0 a 1
2 0 e 0
3 0 f 0
"""
RUNS = """\
1 Q0 a 1 9.0 r1
1 Q0 x 2 8.0 r1
1 Q0 d 3 8.0 r1
1 Q0 b 4 7.0 r1
1 Q0 c 5 6.0 r1
2 Q0 e 1 5.0 r1
2 Q0 a 2 4.0 r1
1 Q0 z 1 3.0 r2
1 Q0 c 2 3.0 r2
2 Q0 y 1 1.0 r2
3 Q0 f 1 1.0 r2
"""


def _table(text: str, columns: list[str]) -> pd.DataFrame:
    rows = [line.split() for line in text.splitlines()]
    return pd.DataFrame(rows, columns=columns)


@pytest.fixture(scope="module")
def judged():
    qrels = _table(QRELS, ["topic", "iteration", "doc", "rel"]).astype({"rel": int})
    runs = _table(RUNS, ["topic", "q0", "doc", "rank", "score", "run"]).astype({"score": float})
    return judge_rankings(runs, qrels, depth=1000, rel_level=1)


def _compute(judged, only=None, params=scores.DEFAULT_PARAMS):
    return scores.compute(judged, rel_level=1, interpolation="exact", params=params, only=only)


def test_every_declared_measure_names_the_function_that_computes_it():
    for family in families():
        for measure in measures_of(family):
            assert callable(measure.computed_by) or measure.name == "num_q", measure


def test_each_function_gives_the_values_its_measure_declares(judged):
    grid = AdhocGrid(judged, rel_level=1, interpolation="exact", params=AdhocParams())
    for measure in scores.TREC_EVAL_TABLE:
        declared = [entry.name for entry in measure.measures]
        if measure.compute is None:  # num_q (counted by the summary), relstring (text)
            assert declared == (["num_q"] if measure.name == "num_q" else [])
            assert measure.name in ("num_q", "relstring")
            continue
        assert all(entry.computed_by is measure.compute for entry in measure.measures)
        values = measure.compute(grid)
        assert list(values) == declared
        assert all(v.shape == (judged.num_cells,) for v in values.values())


def test_the_registry_and_the_requests_follow_the_table():
    table = [entry.name for measure in scores.TREC_EVAL_TABLE for entry in measure.measures]
    assert [m.name for m in measures_of(scores.FAMILY)] == table
    assert FAMILY_ORDER == ("runid", *(measure.name for measure in scores.TREC_EVAL_TABLE))
    assert table.index("unj_5") < table.index("err@5") < table.index("judged@10")


def test_a_measure_alone_has_the_same_bits_as_among_all(judged):
    everything = _compute(judged)
    assert list(everything) == [m.name for m in measures_of(scores.FAMILY)][1:]  # not num_q
    for name, values in everything.items():
        alone = _compute(judged, only={name})
        assert list(alone) == [name]
        assert alone[name].tobytes() == values.tobytes(), name


def test_measures_not_wanted_are_not_computed(judged, monkeypatch):
    def refuse(grid):
        raise AssertionError("computed a measure nobody asked for")

    wanted = {"P", "map"}
    table = tuple(m if m.name in wanted else dataclasses.replace(m, compute=refuse)
                  for m in scores.TREC_EVAL_TABLE if m.compute is not None)
    monkeypatch.setattr(scores, "TREC_EVAL_TABLE", table)
    values = _compute(judged, only={"P_10", "map"})
    assert list(values) == ["map", "P_10"]
    assert values["P_10"].tolist() == pytest.approx([0.2, 0.1, 0, 0.2, 0, 0])


def test_parameters_name_the_values(judged):
    params = AdhocParams.of({"P": "3,1", "ndcg": "1=3,2=9", "success": "2"})
    values = _compute(judged, params=params)
    assert [n for n in values if n.startswith(("P_", "ndcg_1", "success_"))] == [
        "P_1", "P_3", "ndcg_1=3,2=9", "success_2"]
    assert values["P_1"].tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert np.array_equal(values["P_3"], np.array([1, 1, 0, 2, 0, 0]) / 3)
