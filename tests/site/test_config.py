"""site_config.yml: typed, paths relative to the config file, every problem at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.config.loading import ConfigError
from builder.pipeline.stages import load_config

QRELS = "401 0 d1 1\n401 0 d2 0\n"
RUN = "401 Q0 d1 1 2.0 r1\n"


def write_campaign(root: Path, config: str) -> Path:
    (root / "data" / "runs").mkdir(parents=True)
    (root / "data" / "qrels.txt").write_text(QRELS)
    (root / "data" / "runs" / "b.txt").write_text(RUN)
    (root / "data" / "runs" / "a.txt").write_text(RUN)
    (root / "data" / "runs" / ".hidden").write_text(RUN)
    path = root / "conf" / "site.yml"
    path.parent.mkdir()
    path.write_text(config)
    return path


VALID = """
campaign: {title: Test campaign, year: 2024, organisers: [A, B]}
output: ../out
tasks:
  - id: focus
    title: Focused task
    kind: focused
    qrels: ../data/qrels.txt
    runs: ../data/runs
    official_measure: MAiP
    options: {max_results: 10}
"""


def test_valid_config_resolves_paths_relative_to_the_config_file(tmp_path):
    site = load_config(write_campaign(tmp_path, VALID))
    task = site.tasks[0]
    assert site.output == tmp_path / "out"
    assert task.qrels == tmp_path / "data" / "qrels.txt"
    assert [p.name for p in task.run_files] == ["a.txt", "b.txt"]
    assert task.official_measure == "MAiP"
    assert task.measures == task.kind.leaderboard_measures
    assert task.options.max_results == 10
    assert site.campaign.organisers == ["A", "B"]
    assert site.relative(task.qrels) == "qrels.txt"  # outside the config folder: its name


def test_runs_may_be_a_glob(tmp_path):
    site = load_config(write_campaign(tmp_path, VALID.replace("../data/runs", "../data/runs/b*")))
    assert [p.name for p in site.tasks[0].run_files] == ["b.txt"]


def test_every_problem_is_reported_at_once_with_its_key_path(tmp_path):
    config = """
campaign: {title: T, colour: blue}
tasks:
  - id: focus
    title: Focused
    kind: focused
    qrels: ../data/qrels.txt
    runs: ../data/runs
  - id: Bad Id
    title: Second
    kind: focused
    qrels: ../data/missing.txt
    runs: ../data/nothing/*.txt
    topics: ../data/topics.txt
    official_measure: nDCG
    options: {max_results: many, colour: red}
  - id: focus
    kind: nonsense
    qrels: ../data/qrels.txt
    runs: ../data/runs
"""
    with pytest.raises(ConfigError) as caught:
        load_config(write_campaign(tmp_path, config))
    problems = caught.value.problems
    expected = [
        "campaign.colour: unknown key",
        "tasks[1].id: String should match pattern",
        "tasks[1].qrels: file not found: ../data/missing.txt",
        "tasks[1].topics: file not found: ../data/topics.txt",
        "tasks[1].runs: no run files in ../data/nothing/*.txt",
        "tasks[1].official_measure: unknown focused measure 'nDCG'",
        "tasks[1].options.max_results: Input should be a valid integer",
        "tasks[1].options.colour: unknown key",
        "tasks[2].title: required key is missing",
        "tasks[2].kind: unknown task kind 'nonsense'",
        "tasks: task id 'focus' is used twice",
    ]
    for start in expected:
        assert any(p.startswith(start) for p in problems), (start, problems)
    assert len(problems) == len(expected)


def test_missing_config_and_bad_yaml_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "absent.yml")
    bad = tmp_path / "bad.yml"
    bad.write_text("campaign: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)


def test_a_config_without_tasks_is_rejected(tmp_path):
    path = tmp_path / "site.yml"
    path.write_text("campaign: {title: T}\ntasks: []\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    [problem] = caught.value.problems
    assert problem.startswith("tasks: List should have at least 1 item")


def test_the_repository_demo_config_is_valid():
    root = Path(__file__).resolve().parents[2]
    site = load_config(root / "site_config.yml")
    assert site.output == root / "site"
    assert site.tasks[0].id == "adhoc"
    assert len(site.tasks[0].run_files) >= 12


def test_significance_defaults_to_randomization_holm_on_every_shown_measure(tmp_path):
    task = load_config(write_campaign(tmp_path, VALID)).tasks[0]
    settings = task.significance
    assert (settings.test, settings.correction, settings.alpha, settings.resamples) == (
        "randomization", "holm", 0.05, 10_000)
    # the official measure first, then the task's shown measures with per-topic values
    assert task.significance_measures[0] == task.official_measure == "MAiP"
    assert set(task.significance_measures) == {task.official_measure, *task.measures}


def test_a_task_overrides_the_campaign_significance_key_by_key(tmp_path):
    config = VALID.replace("output: ../out", "output: ../out\nsignificance: {test: t-test, "
                           "alpha: 0.01, seed: 7}")
    config += "    significance: {alpha: 0.1, measures: ['iP[0.01]']}\n"
    task = load_config(write_campaign(tmp_path, config)).tasks[0]
    assert (task.significance.test, task.significance.alpha, task.significance.seed) == (
        "t-test", 0.1, 7)
    assert task.significance_measures == ("MAiP", "iP[0.01]")


def test_significance_can_be_disabled(tmp_path):
    config = VALID + "    significance: {enabled: false}\n"
    assert load_config(write_campaign(tmp_path, config)).tasks[0].significance is None


def test_significance_problems_are_reported_with_their_key_paths(tmp_path):
    config = VALID.replace("output: ../out", "output: ../out\nsignificance: {tests: sign}")
    config += "    significance: {correction: holms, B: 0, measures: [nDCG]}\n"
    with pytest.raises(ConfigError) as error:
        load_config(write_campaign(tmp_path, config))
    problems = "\n".join(error.value.problems)
    assert "significance.tests: unknown key" in problems
    assert "tasks[0].significance.correction:" in problems
    assert "tasks[0].significance.B:" in problems


def test_an_unknown_significance_measure_is_an_error(tmp_path):
    config = VALID + "    significance: {measures: [nDCG]}\n"
    with pytest.raises(ConfigError) as error:
        load_config(write_campaign(tmp_path, config))
    assert error.value.problems == [
        "tasks[0].significance.measures[0]: unknown focused measure 'nDCG'"]
