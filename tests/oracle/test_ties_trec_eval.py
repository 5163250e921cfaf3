"""Oracle: tie bounds equal trec_eval's scores on runs rewritten to break ties by grade.

On robust03 and TREC-COVID round 1, every run's scores are rewritten so that inside each group
of tied documents the highest grades sort first (or last); trec_eval then ranks exactly that
order. The best (worst) bound of ``tie_table`` must equal the score of the rewritten run: by our
engine (equal to trec_eval 9.0.8, see test_trec_eval_campaigns) on every run, exactly; and by
trec_eval 9.0.8 itself, built from ../shared/tools in a temporary folder, to its 4 printed
decimals, on the runs whose bounds differ most.
"""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from builder.stats.reliability.adhoc_rejudge import judge_once
from builder.stats.reliability.ties import UNLIMITED, tie_table
from builder.tasks.adhoc import KIND
from tests.stats.tie_broken_runs import tie_broken_scores

CAMPAIGNS = {"robust03": "robust03_qrels.txt", "trec_covid_round1": "qrels.covid-round1.txt"}
MEASURES = ["map", "P_10", "ndcg_cut_10"]
TREC_EVAL_NAMES = {"map": "map", "P_10": "P_10", "ndcg_cut_10": "ndcg_cut_10"}
PRINTED = 0.00005 + 1e-9
ORACLE_RUNS = 3


@pytest.fixture(scope="module", params=sorted(CAMPAIGNS))
def campaign(request, shared_data):
    folder = shared_data / request.param
    qrels_path = folder / CAMPAIGNS[request.param]
    qrels = KIND.read_qrels(qrels_path)
    options = KIND.options_model()
    reads = KIND.read_runs(sorted((folder / "runs").iterdir()), qrels, options)
    runs = pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)
    table = tie_table(runs, qrels, options, MEASURES)
    judgements = judge_once(runs, qrels, options, depth=UNLIMITED, keep_rows=True)
    scores = runs["score"].to_numpy(np.float64)
    rewritten = {
        column: runs.assign(score=tie_broken_scores(judgements, scores, highest_first))
        for column, highest_first in (("best", True), ("worst", False))
    }
    return qrels_path, qrels, options, table, rewritten


@pytest.fixture(scope="module")
def trec_eval(trec_eval_binary) -> Path:
    return trec_eval_binary("9.0.8")


def summary(scores: pd.DataFrame) -> pd.Series:
    rows = scores[(scores["topic"] == "all") & scores["measure"].isin(MEASURES)]
    return rows.set_index(["run", "measure"])["value"]


@pytest.mark.slow
@pytest.mark.parametrize("column", ["best", "worst"])
def test_bounds_equal_our_engine_on_rewritten_runs(campaign, column):
    _, qrels, options, table, rewritten = campaign
    evaluated = summary(KIND.evaluate(qrels, rewritten[column], options).scores)
    bounds = table.set_index(["run", "measure"])[column]
    assert np.array_equal(evaluated.reindex(bounds.index).to_numpy(), bounds.to_numpy())
    assert (table["worst"] <= table["official"]).all() and (table["official"] <= table["best"]).all()
    assert (table["best"] > table["worst"]).any()  # the campaign has ties that matter


def write_run(table: pd.DataFrame, path: Path) -> None:
    ranked = table.sort_values(["topic", "score"], ascending=[True, False])
    with path.open("w") as out:
        for topic, doc, score, run in zip(ranked["topic"], ranked["doc"], ranked["score"],
                                          ranked["run"]):
            out.write(f"{topic} Q0 {doc} 0 {score!r} {run}\n")


def test_bounds_equal_trec_eval_on_rewritten_runs(campaign, trec_eval, tmp_path):
    qrels_path, _, _, table, rewritten = campaign
    spread = table.assign(gap=table["best"] - table["worst"]).groupby("run")["gap"].max()
    chosen = spread.sort_values(ascending=False).index[:ORACLE_RUNS]
    qrels_file = tmp_path / "qrels"
    opener = gzip.open if qrels_path.suffix == ".gz" else open
    with opener(qrels_path, "rb") as source:
        qrels_file.write_bytes(source.read())
    bounds = table.set_index(["run", "measure"])
    for column in ("best", "worst"):
        for run in chosen:
            path = tmp_path / f"{column}.run"
            frame = rewritten[column]
            write_run(frame[frame["run"] == run], path)
            flags = [f for m in ("map", "P.10", "ndcg_cut.10") for f in ("-m", m)]
            out = subprocess.run([str(trec_eval), "-c", "-M1000", *flags, str(qrels_file),
                                  str(path)], check=True, capture_output=True, text=True).stdout
            printed = {line.split()[0]: float(line.split()[2]) for line in out.splitlines()}
            for measure in MEASURES:
                ours = bounds.loc[(run, measure), column]
                assert abs(printed[TREC_EVAL_NAMES[measure]] - ours) <= PRINTED, (run, measure)
