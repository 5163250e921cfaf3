from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from builder.stats.significance.score_matrix import pair_differences, score_matrix

SCORES = """run topic measure value
r1 1 map 0.5
r1 2 map 0.25
r1 10 map 0.75
r1 all map 0.5
r1 1 P_10 0.9
r2 1 map 0.25
r2 10 map 0.25
r2 all map 0.1667
r3 1 map 0.5
r3 2 map 0.25
r3 10 map 0.75
"""


def table(text: str = SCORES) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), sep=" ", dtype={"topic": str})


def test_aligns_topics_excludes_summary_and_fills_missing_with_zero() -> None:
    matrix = score_matrix(table(), "map")
    assert matrix.topics == ("1", "2", "10")
    assert matrix.runs == ("r1", "r3", "r2")  # best first, ties by name
    np.testing.assert_array_equal(
        matrix.values, [[0.5, 0.25, 0.75], [0.5, 0.25, 0.75], [0.25, 0.0, 0.25]]
    )


def test_task_runs_and_topics_given() -> None:
    matrix = score_matrix(table(), "map", runs=["r2", "r4"], topics=["10", "1", "7"])
    assert matrix.runs == ("r2", "r4")
    assert matrix.topics == ("1", "7", "10")
    np.testing.assert_array_equal(matrix.values, [[0.25, 0.0, 0.25], [0.0, 0.0, 0.0]])


def test_lower_is_better_orders_ascending() -> None:
    assert score_matrix(table(), "map", higher_is_better=False).runs == ("r2", "r1", "r3")


def test_pair_differences_are_row_minus_later_row() -> None:
    matrix = score_matrix(table(), "map")
    i, j, d = pair_differences(matrix)
    assert list(zip(i, j)) == [(0, 1), (0, 2), (1, 2)]
    np.testing.assert_allclose(d[1], [0.25, 0.25, 0.5])


def test_duplicate_values_are_an_error() -> None:
    with pytest.raises(ValueError, match="run 'r1', topic '1'"):
        score_matrix(table(SCORES + "r1 1 map 0.1\n"), "map")


def test_unknown_measure_is_an_error() -> None:
    with pytest.raises(ValueError, match="ndcg"):
        score_matrix(table(), "ndcg")
