"""Summary measures are tested on the per-topic values they are the mean of."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from builder.measures.registry import Measure
from builder.stats.significance.per_topic import per_topic_source, scores_for_testing
from tests.conftest import ROOT

DECLARED = {
    "MAiP": Measure("MAiP", "focused", "", "", per_topic="AiP"),
    "MAgP": Measure("MAgP", "in-context", "", "", per_topic="AgP"),
    "Mystery": Measure("Mystery", "in-context", "", ""),
}


def test_the_source_is_the_measure_itself_or_its_declared_per_topic():
    available = {"map", "AiP", "AgP", "ystery"}
    assert per_topic_source("map", DECLARED, available) == "map"
    assert per_topic_source("MAiP", DECLARED, available) == "AiP"
    assert per_topic_source("MAgP", DECLARED, available) == "AgP"
    assert per_topic_source("gm_map", DECLARED, available) is None
    assert per_topic_source("Mystery", DECLARED, available) is None  # no letter is stripped


def test_every_summary_measure_declares_its_per_topic_measure():
    from builder.measures.registry import get

    assert get("focused", "MAiP").per_topic == "AiP"
    assert get("thorough", "MAiP").per_topic == "AiP"
    assert get("in-context", "MAgP").per_topic == "AgP"


def test_a_summary_measure_takes_its_source_values_and_summary_rows_are_dropped():
    scores = pd.DataFrame({
        "run": ["a", "a", "a", "b"],
        "topic": ["1", "2", "all", "1"],
        "measure": ["AgP", "AgP", "MAgP", "AgP"],
        "value": [0.5, 0.25, 0.375, 0.1],
    })
    tested, measures, missing = scores_for_testing(scores, ["MAgP", "gP[99]"], DECLARED)
    assert measures == ["MAgP"] and missing == ["gP[99]"]
    assert set(tested["topic"]) == {"1", "2"}
    assert tested["measure"].tolist() == ["MAgP", "MAgP", "MAgP"]
    assert tested["value"].tolist() == [0.5, 0.25, 0.1]


def test_a_summary_measure_and_its_own_per_topic_measure_are_tested_together():
    """Asked at once, MAiP and AiP each keep the per-topic values (the source's rows were
    renamed, so AiP had none left and was not tested)."""
    from builder.config.significance import SignificanceSettings
    from builder.stats.significance.per_topic import significance_of

    values = {"a": [0.9, 0.8, 0.7, 0.95], "b": [0.1, 0.3, 0.2, 0.15]}
    scores = pd.DataFrame([(run, str(topic), "AiP", value)
                           for run, row in values.items() for topic, value in enumerate(row)]
                          + [(run, "all", "MAiP", sum(row) / 4) for run, row in values.items()],
                          columns=["run", "topic", "measure", "value"])
    tested, measures, missing = scores_for_testing(scores, ["MAiP", "AiP"], DECLARED)
    assert (measures, missing) == (["MAiP", "AiP"], [])
    assert tested.groupby("measure")["value"].sum().to_dict() == pytest.approx(
        {"MAiP": sum(map(sum, values.values())), "AiP": sum(map(sum, values.values()))})
    report, missing = significance_of(scores, "focused", ["MAiP", "AiP"],
                                      SignificanceSettings(test="t-test"), runs=["a", "b"])
    assert missing == [] and report is not None
    rows = report.table.set_index("measure")
    assert sorted(rows.index) == ["AiP", "MAiP"]
    assert rows.loc["MAiP", "p_value"] == rows.loc["AiP", "p_value"] < 0.05


def test_compare_tests_an_in_context_task_on_its_official_magp():
    folder = ROOT / "data" / "inex" / "relevant-in-context"
    runs = sorted(p for p in folder.glob("*.txt"))
    done = subprocess.run(
        [sys.executable, "-m", "builder", "compare", "--task", "relevant-in-context",
         "--test", "t-test", "--format", "csv", str(ROOT / "data" / "inex" / "qrels.txt"),
         *map(str, runs)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    accepted = len(runs) - 1  # one flawed run interleaves articles and is rejected
    assert len(rows) == accepted * (accepted - 1) // 2
    assert {row[2] for row in rows} == {"MAgP"}


def test_the_stability_study_rescores_a_mean_and_its_own_per_topic_measure():
    """The study's per-topic scores of MAiP and AiP, asked together: each the values of AiP
    (the renaming left AiP with none, scored 0 on every topic)."""
    from builder.stats.reliability.rescoring import scores_from_table

    scores = pd.DataFrame({"run": ["a", "a", "b", "b", "a", "b"],
                           "topic": ["1", "2", "1", "2", "all", "all"],
                           "measure": ["AiP"] * 4 + ["MAiP"] * 2,
                           "value": [0.5, 0.25, 0.75, 0.125, 0.375, 0.4375]})
    got = scores_from_table(scores, ["a", "b"], ["1", "2"], ["MAiP", "AiP"], "focused")
    np.testing.assert_array_equal(got.per_topic[0], [[0.5, 0.25], [0.75, 0.125]])
    np.testing.assert_array_equal(got.per_topic[1], got.per_topic[0])
