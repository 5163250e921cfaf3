"""The ad hoc evaluation in parts on threads (groups of runs, ranges of topics) gives the
one-shot evaluation's score table and extra tables, bit for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from builder.tasks.adhoc import KIND, AdhocOptions
from builder.tasks.adhoc import parallel as adhoc_parallel


@pytest.fixture(scope="module")
def robust03(robust03_folder: Path):
    qrels = KIND.read_qrels(robust03_folder / "robust03_qrels.txt")
    paths = sorted((robust03_folder / "runs").iterdir())[:5]
    reads = KIND.read_runs(paths, qrels, AdhocOptions())
    return qrels, pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)


def evaluate(qrels, runs, options, parts: int, monkeypatch, only=None):
    """The evaluation cut into ``parts`` (1: the one-shot path, no thread)."""
    monkeypatch.setattr(adhoc_parallel, "EVALUATE_THREADS", parts)
    monkeypatch.setattr(adhoc_parallel, "LINES_PER_PART", 1 if parts > 1 else 10**12)
    return KIND.evaluate(qrels, runs, options, only=only)


def assert_same_bits(one_shot, parted) -> None:
    left, right = one_shot.scores, parted.scores
    assert list(left.columns) == list(right.columns)
    for column in ["run", "topic", "measure"]:
        assert left[column].tolist() == right[column].tolist()
    assert (left["value"].to_numpy().view(np.int64) == right["value"].to_numpy().view(np.int64)
            ).all()
    assert list(one_shot.extras) == list(parted.extras)
    for name in one_shot.extras:
        pd.testing.assert_frame_equal(one_shot.extras[name], parted.extras[name],
                                      check_exact=True)


OPTIONS = [
    {"profile": "10.0"},
    {"profile": "9.0.8-float", "complete": False},
    {"judged_only": True, "rel_level": 2, "depth": 100},
    {"parameters": {"rbp": "p=0.95", "ndcg": "1=3,2=9"}, "interpolation": "lround"},
]


@pytest.mark.parametrize("given", OPTIONS)
@pytest.mark.parametrize("parts", [2, 3])
def test_groups_of_runs_equal_one_shot(robust03, monkeypatch, given, parts):
    qrels, runs = robust03
    options = AdhocOptions(**given)
    one_shot = evaluate(qrels, runs, options, 1, monkeypatch)
    assert one_shot.scores["run"].nunique() == 5
    assert_same_bits(one_shot, evaluate(qrels, runs, options, parts, monkeypatch))


@pytest.mark.parametrize("given", OPTIONS)
@pytest.mark.parametrize("parts", [2, 3])
def test_topic_ranges_of_one_run_equal_one_shot(robust03, monkeypatch, given, parts):
    """One run (fewer runs than threads) is cut by topic ranges; the summary rows (means,
    gm_map, num_rel under -c) are computed on the joined grid as in one shot."""
    qrels, runs = robust03
    first = runs[runs["run"] == runs["run"].iloc[0]]
    options = AdhocOptions(**given)
    one_shot = evaluate(qrels, first, options, 1, monkeypatch)
    parted = evaluate(qrels, first, options, parts, monkeypatch)
    assert_same_bits(one_shot, parted)
    assert (parted.scores["topic"] == "all").sum() > 100


def test_topic_ranges_with_lines_out_of_order(robust03, monkeypatch):
    """Topics not in one stretch of lines are cut as well (rows taken, not sliced)."""
    qrels, runs = robust03
    first = runs[runs["run"] == runs["run"].iloc[0]]
    shuffled = first.sample(frac=1.0, random_state=7).reset_index(drop=True)
    options = AdhocOptions(profile="10.0")
    assert_same_bits(evaluate(qrels, first, options, 1, monkeypatch),
                     evaluate(qrels, shuffled, options, 2, monkeypatch))


def test_only_some_measures(robust03, monkeypatch):
    qrels, runs = robust03
    only = frozenset(["map", "P_10", "num_ret", "err@20"])
    options = AdhocOptions()
    one_shot = evaluate(qrels, runs, options, 1, monkeypatch, only)
    assert_same_bits(one_shot, evaluate(qrels, runs, options, 2, monkeypatch, only))
    assert set(one_shot.scores["measure"]) == {"num_q", *only}


def test_topic_ranges_hold_about_equal_lines(robust03):
    qrels, runs = robust03
    ranges = adhoc_parallel.topic_ranges(qrels, runs, 2)
    assert sorted(t for r in ranges for t in r) == sorted(pd.unique(qrels["topic"]))
    lines = [runs["topic"].isin(r).sum() for r in ranges]
    assert len(ranges) == 2 and max(lines) < 0.6 * sum(lines)


def test_join_refuses_parts_that_do_not_tile(robust03):
    qrels, runs = robust03
    options = AdhocOptions()
    part = adhoc_parallel.score_cells(qrels, runs, options)
    with pytest.raises(ValueError, match="must not share a topic"):
        adhoc_parallel.join_cells([part, part], by="topics")
