"""Oracle: ERR@k and nDCG@k equal gdeval.pl's output, judged@k equals ir_measures' Judged@k.

gdeval prints 5 decimals: a value agrees when |ours - printed| <= 0.000005. gdeval prints only
topics a run answers that have a relevant document; every one of them must be ours. A few runs
per campaign (Perl reads about 150,000 lines a second), chosen for their ties and grades.
"""

from __future__ import annotations

import pandas as pd
import pytest

from builder.tasks.adhoc import KIND, AdhocOptions
from tests.oracle.gdeval import gdeval_script, run_gdeval, zero_iteration_qrels

PRINTED = 0.000005 + 1e-9
CASES = {
    # campaign: (qrels, runs checked, cutoffs)
    "robust03": ("robust03_qrels.txt", ["input.aplrob03a.gz", "input.uwmtCR0.gz"], (5, 20)),
    "trec_covid_round1": (
        "qrels.covid-round1.txt",
        ["BBGhelani1.gz", "10x20.prf.unipd.it.gz", "SinequaR1_1.gz"],
        (10, 20),
    ),
}


@pytest.mark.parametrize("campaign", sorted(CASES))
def test_err_and_ndcg_equal_gdeval(shared_data, tmp_path, campaign):
    script = gdeval_script()
    if script is None:
        pytest.fail("gdeval.pl needs the ir_measures package (a test dependency) and perl")
    qrels_name, run_names, cutoffs = CASES[campaign]
    folder = shared_data / campaign
    paths = [folder / "runs" / name for name in run_names]
    qrels = KIND.read_qrels(folder / qrels_name)
    options = AdhocOptions(parameters={"err@": "5,10,20", "ndcg@": "5,10,20"})
    reads = KIND.read_runs(paths, qrels, options)
    runs = pd.concat([r.table for r in reads], ignore_index=True)
    ours = KIND.evaluate(qrels, runs, options).scores.set_index(["run", "measure", "topic"])
    plain_qrels = zero_iteration_qrels(folder / qrels_name, tmp_path)
    theirs = pd.concat(
        [run_gdeval(script, plain_qrels, path, k, tmp_path) for path in paths for k in cutoffs]
    )
    assert len(theirs) > 100
    ours_values = ours.loc[list(zip(theirs["run"], theirs["measure"], theirs["topic"])), "value"]
    far = (ours_values.to_numpy() - theirs["value"].astype(float).to_numpy()).__abs__() > PRINTED
    assert theirs[far].to_dict("records") == []


def test_judged_equals_ir_measures(shared_data):
    ir_measures = pytest.importorskip("ir_measures")
    folder = shared_data / "trec_covid_round1"
    qrels = KIND.read_qrels(folder / "qrels.covid-round1.txt")
    paths = [folder / "runs" / name for name in CASES["trec_covid_round1"][1]]
    options = AdhocOptions(parameters={"judged@": "5,10,1000"})
    reads = KIND.read_runs(paths, qrels, options)
    runs = pd.concat([r.table for r in reads], ignore_index=True)
    ours = KIND.evaluate(qrels, runs, options).scores.set_index(["run", "measure", "topic"])
    qrels_frame = qrels.rename(columns={"topic": "query_id", "doc": "doc_id", "rel": "relevance"})
    checked = 0
    for read in reads:
        run_frame = read.table.rename(columns={"topic": "query_id", "doc": "doc_id"})
        run_frame = run_frame.astype({"query_id": str, "doc_id": str})
        measures = [ir_measures.parse_measure(f"Judged@{k}") for k in (5, 10, 1000)]
        for metric in ir_measures.iter_calc(measures, qrels_frame, run_frame):
            name = f"judged@{metric.measure['cutoff']}"
            assert ours.loc[(read.name, name, metric.query_id), "value"] == pytest.approx(
                metric.value, abs=1e-12
            ), (read.name, name, metric.query_id)
            checked += 1
    assert checked > 200
