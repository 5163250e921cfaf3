"""One task, three commands: ``compare``, ``evaluate`` and ``build`` read, validate and
evaluate it by the same stages (``builder.pipeline.stages``), so given the same task options they
test and print the same per-topic values."""

from __future__ import annotations

import io
import shutil

import pandas as pd
import pytest

from builder.cli import main
from builder.config.significance import SignificanceSettings
from builder.stats.significance.tables import format_significance, significance_report
from tests.conftest import ROOT

DEMO = ROOT / "data" / "adhoc"
RUNS = ("irisQL", "nbuBM25", "tamBase", "kestrelDense")
MEASURES = ("map", "P_10")
TASK_OPTIONS = ("-M", "100", "-o", "rel_level=2")
TESTS = ("--test", "t-test", "--correction", "none")


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    """Four demo runs (150 documents a topic, relevance 0-2) and a config of one task with
    ``depth: 100`` and ``rel_level: 2``."""
    folder = tmp_path_factory.mktemp("task")
    (folder / "runs").mkdir()
    for name in RUNS:
        shutil.copy(DEMO / "runs" / f"{name}.txt", folder / "runs")
    (folder / "site_config.yml").write_text(
        "campaign: {title: Depth 100, year: 2024}\n"
        "significance: {test: t-test, correction: none, measures: [P_10]}\n"
        "tasks:\n"
        f"  - {{id: adhoc, title: Ad hoc, kind: adhoc, qrels: {DEMO / 'qrels.txt'}, runs: runs,\n"
        "     official_measure: map, options: {depth: 100, rel_level: 2}}\n"
    )
    return folder


def cli(capsys, *args: str) -> str:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def run_paths(task) -> list[str]:
    return [str(task / "runs" / f"{name}.txt") for name in RUNS]


def compare(capsys, task, *options: str) -> str:
    measures = [arg for m in MEASURES for arg in ("--measure", m)]
    return cli(capsys, "compare", DEMO / "qrels.txt", *run_paths(task), *options, *TESTS, *measures,
               "--format", "csv")


def pairs_tested(text: str) -> dict[tuple[frozenset[str], str], tuple[float, float]]:
    """Per pair of runs (either order) and measure: the p-value and the size of the mean
    difference, which any change of a per-topic value changes."""
    table = pd.read_csv(io.StringIO(text))
    return {(frozenset((a, b)), m): (p, abs(d)) for a, b, m, p, d in zip(
        table["run_a"], table["run_b"], table["measure"], table["p_value"], table["mean_diff"])}


def test_compare_evaluate_and_the_site_use_the_same_per_topic_values(task, capsys):
    compared = pairs_tested(compare(capsys, task, *TASK_OPTIONS))
    assert len(compared) == len(RUNS) * (len(RUNS) - 1) // 2 * len(MEASURES)
    assert compared != pairs_tested(compare(capsys, task)), "the options change the per-topic values"

    measures = [arg for m in MEASURES for arg in ("-m", m)]
    printed = cli(capsys, "evaluate", DEMO / "qrels.txt", *run_paths(task), *TASK_OPTIONS,
                  "--format", "tsv", *measures)
    scores = pd.read_csv(io.StringIO(printed), sep="\t", names=["run", "measure", "topic", "value"],
                         dtype={"topic": str})
    settings = SignificanceSettings(test="t-test", correction="none")
    report = significance_report(scores[scores["topic"] != "all"], MEASURES, settings,
                                 runs=list(RUNS))
    assert compared == pairs_tested(format_significance(report.table))

    site = task / "site"
    cli(capsys, "build", "--config", task / "site_config.yml", "--out", site, "--quiet")
    built = (site / "adhoc" / "downloads" / "significance.csv").read_text(encoding="utf-8")
    assert pairs_tested(built) == compared
    per_topic = pd.read_csv(site / "adhoc" / "downloads" / "scores.csv", dtype={"topic": str})
    merged = per_topic.merge(scores, on=["run", "topic", "measure"], suffixes=("_site", ""))
    topics = len(set((DEMO / "qrels.txt").read_text().split()[::4]))
    assert len(merged) == len(RUNS) * topics * len(MEASURES)
    assert (merged["value_site"] == merged["value"]).all()
