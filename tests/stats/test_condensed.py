"""Condensed lists: every run's score with its unjudged documents taken out equals ``appendix
evaluate -J`` (itself checked against trec_eval -J in tests/oracle), the agreement equals
scipy's Kendall tau, and the places moved are the two orders' difference."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from builder.cli import main
from builder.stats.reliability.adhoc_rejudge import judge_once
from builder.stats.reliability.condensed import condensed_lists, condensed_scores
from builder.tasks.adhoc.reading import read_qrels, read_run_files
from builder.tasks.options.adhoc import AdhocOptions

ROOT = Path(__file__).resolve().parents[2]
ADHOC = ROOT / "data" / "adhoc"


def evaluate_j(qrels: Path, runs: list[Path], measure: str, *flags: str) -> dict[str, float]:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["evaluate", "-J", *flags, "-m", measure, "--format", "tsv", str(qrels),
                     *map(str, runs)]) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    return {run: float(value) for run, _, topic, value in rows if topic == "all"}


def judgements_of(qrels: Path, runs: list[Path], options: AdhocOptions):
    table = read_qrels(qrels)
    reads = read_run_files(runs, table, options)
    return judge_once(pd.concat([r.table for r in reads], ignore_index=True), table, options)


DEMO_RUNS = sorted(p for p in (ADHOC / "runs").glob("*.txt")
                   if "Broken" not in p.name and "Dup" not in p.name)


@pytest.mark.parametrize(("measure", "flags"), [
    ("map", ()), ("ndcg_cut_10", ()), ("P_10", ("--no-complete",)), ("bpref", ("-M", "50")),
    ("recip_rank", ("-l", "2")),
])
def test_condensed_scores_equal_evaluate_j_on_the_demo(measure: str, flags: tuple[str, ...]):
    options = AdhocOptions(complete="--no-complete" not in flags,
                           depth=int(flags[1]) if "-M" in flags else 1000,
                           rel_level=int(flags[1]) if "-l" in flags else 1)
    judgements = judgements_of(ADHOC / "qrels.txt", DEMO_RUNS, options)
    _, condensed = condensed_scores(judgements, measure)
    expected = evaluate_j(ADHOC / "qrels.txt", DEMO_RUNS, measure, *flags)
    assert dict(zip(judgements.runs, condensed)) == pytest.approx(expected, abs=5e-5)
    assert len(expected) == len(DEMO_RUNS)


def test_condensed_scores_equal_evaluate_j_on_trec_covid(shared_data: Path) -> None:
    folder = shared_data / "trec_covid_round1"
    runs = sorted((folder / "runs").glob("*.gz"))[::12]  # 12 runs of the 143
    judgements = judgements_of(folder / "qrels.covid-round1.txt", runs, AdhocOptions())
    official, condensed = condensed_scores(judgements, "ndcg_cut_10")
    expected = evaluate_j(folder / "qrels.covid-round1.txt", runs, "ndcg_cut.10")
    assert dict(zip(judgements.runs, condensed)) == pytest.approx(expected, abs=5e-5)
    assert (condensed > official).sum() >= 6  # the pool was shallow: most runs climb

    table, agreement = condensed_lists(judgements, "ndcg_cut_10")
    assert agreement["tau"] == pytest.approx(kendalltau(official, condensed).statistic)
    by_run = table.set_index("run")
    order = sorted(judgements.runs, key=lambda run: (-expected[run], run))
    for place, run in enumerate(order, 1):
        assert by_run.at[run, "condensed_rank"] == place
        assert by_run.at[run, "moved"] == by_run.at[run, "rank"] - place
    assert list(table["rank"]) == list(range(1, len(runs) + 1))
    assert np.abs(table["moved"]).max() > 0  # the condensed lists reorder some runs
