"""Topic ranges follow the order of a run's lines, not the topics' string order: a run written
a topic at a time (topics 1, 2, ..., 12, whose string order is 1, 10, 11, 12, 2, ...) gives
each range one stretch of lines, and the scores are the one-shot evaluation's."""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.tasks.adhoc import KIND, AdhocOptions
from builder.tasks.adhoc import parallel as adhoc_parallel
from tests.tasks.test_adhoc_parallel import assert_same_bits, evaluate


def _campaign(tmp_path):
    rng = np.random.default_rng(3)
    qrels_lines, run_lines = [], []
    for topic in range(1, 13):
        qrels_lines += [f"{topic} 0 d{d} {rng.integers(0, 3)}" for d in range(0, 40, 3)]
        run_lines += [f"{topic} Q0 d{d} {r} {50 - r * 0.5} run"
                      for r, d in enumerate(rng.permutation(40)[:25], 1)]
    qrels_lines.append("99 0 d1 1")  # a judged topic the run does not have
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    qrels = KIND.read_qrels(tmp_path / "qrels")
    reads = KIND.read_runs([tmp_path / "run"], qrels, AdhocOptions())
    return qrels, pd.concat([r.table for r in reads], ignore_index=True)


def test_ranges_are_stretches_of_lines(tmp_path):
    qrels, runs = _campaign(tmp_path)
    ranges = adhoc_parallel.topic_ranges(qrels, runs, 3)
    assert [t for r in ranges for t in r] == [*map(str, range(1, 13)), "99"]
    for topics in ranges:
        rows = np.flatnonzero(runs["topic"].isin(topics).to_numpy())
        assert rows[-1] - rows[0] + 1 == len(rows)  # one stretch: sliced, not copied


def test_scores_equal_one_shot(tmp_path, monkeypatch):
    qrels, runs = _campaign(tmp_path)
    options = AdhocOptions(profile="10.0")
    assert_same_bits(evaluate(qrels, runs, options, 1, monkeypatch),
                     evaluate(qrels, runs, options, 3, monkeypatch))
