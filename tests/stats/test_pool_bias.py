"""Leave one team out (Zobel 1998) and the unjudged share of the top 10, on a tiny campaign."""

from __future__ import annotations

import pandas as pd
import pytest

from builder.stats.reliability.adhoc_rejudge import judge_once
from builder.stats.reliability.pool_bias import pool_bias, unjudged_at
from builder.tasks import get_kind

KIND = get_kind("adhoc")
QRELS = "1 0 shared 1\n1 0 only_a 1\n1 0 deep 1\n1 0 junk 0\n"
RUNS = {
    # team A alone brings only_a into a depth-2 pool; deep is ranked 3rd, below the pool
    "a1": "1 Q0 only_a 1 3 a1\n1 Q0 shared 2 2 a1\n1 Q0 deep 3 1 a1\n",
    "a2": "1 Q0 x 1 3 a2\n1 Q0 only_a 2 2 a2\n",
    "b1": "1 Q0 shared 1 3 b1\n1 Q0 junk 2 2 b1\n1 Q0 only_a 3 1 b1\n1 Q0 y 4 0 b1\n",
}


@pytest.fixture
def judgements(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    qrels = KIND.read_qrels(tmp_path / "qrels")
    paths = []
    for name, text in RUNS.items():
        paths.append(tmp_path / name)
        paths[-1].write_text(text)
    options = KIND.options_model()
    reads = KIND.read_runs(paths, qrels, options)
    runs = pd.concat([r.table for r in reads], ignore_index=True)
    return judge_once(runs, qrels, options)


def test_leaving_a_team_out_unjudges_what_only_it_found(judgements):
    teams = {"a1": "A", "a2": "A", "b1": "B"}
    table = pool_bias(judgements, teams, {"a1", "a2", "b1"}, 2, ["P_5", "map"])
    table = table.set_index(["run", "measure"])
    assert table.loc[("a1", "P_5"), "unique_relevant"] == 1  # only_a
    assert table.loc[("b1", "P_5"), "unique_relevant"] == 0
    # without only_a, a1 finds 2 relevant of 2 in the top 5 (was 3)
    assert table.loc[("a1", "P_5"), "official"] == pytest.approx(3 / 5)
    assert table.loc[("a1", "P_5"), "left_out"] == pytest.approx(2 / 5)
    assert table.loc[("a2", "P_5"), "left_out"] == 0
    assert table.loc[("b1", "P_5"), "change"] == 0
    # leaving A out removes only_a from the qrels: a1's AP is over R = 2, not 3
    assert table.loc[("a1", "map"), "left_out"] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_unpooled_runs_contribute_nothing(judgements):
    table = pool_bias(judgements, {"a1": "A", "a2": "A", "b1": "B"}, {"b1"}, 3, ["P_5"])
    assert set(table["team"]) == {"B"}
    # b1 found only_a at rank 3, alone in the pool: left out, it loses it
    assert table["unique_relevant"].tolist() == [2]


def test_unjudged_share_of_the_top_10(judgements):
    share = unjudged_at(judgements, 10)
    assert share["a1"] == 0 and share["a2"] == pytest.approx(1 / 2)
    assert share["b1"] == pytest.approx(1 / 4)


def test_a_run_without_a_team_is_its_own_team_in_every_reliability_analysis(tmp_path):
    """The pool bias read a missing team as a team named "nan" shared by every run without
    one; the best runs per team read the metadata their own way. Both now read ``teams_of``."""
    from builder.config.reliability import ReliabilityConfig
    from builder.stats.pools.selection import teams_of
    from builder.stats.reliability.report import chosen_runs, reliability_report

    (tmp_path / "qrels").write_text(QRELS)
    qrels = KIND.read_qrels(tmp_path / "qrels")
    for name, text in RUNS.items():
        (tmp_path / name).write_text(text)
    options = KIND.options_model()
    reads = KIND.read_runs([tmp_path / name for name in RUNS], qrels, options)
    runs = pd.concat([r.table for r in reads], ignore_index=True)
    metadata = pd.DataFrame({"run": ["a1", "a2", "b1"], "team": ["A", None, " "]})
    assert teams_of(metadata) == {"a1": "A"}
    settings = ReliabilityConfig(measures=["P_5"], pool_sampling=False, topic_sampling=False,
                                 error_rate=False, ties=False, agreement=False, pool_depth=2)
    report = reliability_report(KIND, qrels, runs, options, settings, "P_5", metadata)
    assert sorted(report.pool_bias["team"].unique()) == ["A", "a2", "b1"]
    scores = pd.DataFrame({"run": ["a1", "a2", "b1"], "topic": "all", "measure": "P_5",
                           "value": [0.6, 0.4, 0.2]})
    assert chosen_runs(ReliabilityConfig(runs=1), scores, "P_5", metadata) == ["a1", "a2", "b1"]
