"""Measure names in ir_measures' spelling: read as ir_measures reads them, evaluated by us to
ir_measures' own values (``calc_aggregate`` and ``iter_calc``) on TREC-COVID round 1 runs, and
printed back (``--names ir_measures``) as names that read to the same measure."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import ir_measures
import pandas as pd
import pytest

import builder
from builder.measures.names import ir_measures_name, parse_expression, parse_name

NAMES = [
    "AP", "AP@100", "AP(rel=2)", "P@5", "P@10", "P(rel=2)@5", "P@7", "R@100", "R@1000",
    "nDCG", "nDCG@10", "nDCG@20", "nDCG(gains={0:0,1:1,2:3})@10", "RR", "RR(rel=2)",
    "Rprec", "Rprec(rel=2)", "Bpref", "infAP", "SetF", "SetP", "SetR",
    "SetAP", "Success@10", "IPrec@0.2", "NumQ", "NumRet", "NumRet(rel=1)", "NumRel",
    "Judged@10", "ERR@20",
]
RUNS = ["BBGhelani1", "10x10.prf.unipd.it", "sab20.1.meta.docs", "UIowaS_Run1"]


@pytest.fixture(scope="module")
def covid(shared_data: Path) -> tuple[Path, list[Path]]:
    folder = shared_data / "trec_covid_round1"
    runs = [folder / "runs" / f"{name}.gz" for name in RUNS]
    return folder / "qrels.covid-round1.txt", [run for run in runs if run.exists()]


def test_our_grammar_reads_every_name_as_ir_measures_does() -> None:
    for name in [*NAMES, "RBP(p=0.8)", "RBP", "nDCG(dcg='log2',judged_only=True)@5"]:
        measure = ir_measures.parse_measure(name)
        assert parse_expression(name) == (measure.NAME, measure.params), name


def test_at_least_twenty_names_equal_ir_measures_values(covid) -> None:
    qrels, runs = covid
    assert len(runs) >= 3 and len(NAMES) >= 20
    ours = builder.evaluate(qrels, runs, NAMES)
    judged = list(ir_measures.read_trec_qrels(str(qrels)))
    measures = [ir_measures.parse_measure(name) for name in NAMES]
    for run_file in runs:
        run = list(ir_measures.read_trec_run(str(_unzipped(run_file))))
        name = builder.read_run(run_file)["run"].iloc[0]
        mine = ours[ours["run"] == name]
        summary = mine[mine["topic"] == "all"].set_index("measure")["value"]
        theirs = ir_measures.calc_aggregate(measures, judged, run)
        for spelled, measure in zip(NAMES, measures):
            assert summary[spelled] == pytest.approx(theirs[measure], abs=5e-5), (name, spelled)
        per_topic = mine[mine["topic"] != "all"].set_index(["measure", "topic"])["value"]
        for value in ir_measures.iter_calc(measures, judged, run):
            spelled = NAMES[measures.index(value.measure)]
            if spelled == "NumQ":  # a count of topics: trec_eval prints it for the summary only
                continue
            assert per_topic[spelled, value.query_id] == pytest.approx(value.value, abs=5e-5), (
                name, spelled, value.query_id)


_CACHE: dict[Path, Path] = {}


def _unzipped(path: Path) -> Path:
    import gzip
    import tempfile

    if path not in _CACHE:
        target = Path(tempfile.mkdtemp()) / path.stem
        target.write_bytes(gzip.decompress(path.read_bytes()))
        _CACHE[path] = target
    return _CACHE[path]


def test_each_name_round_trips_through_names_ir_measures(covid) -> None:
    """``appendix evaluate -m NAME --names ir_measures`` prints a name that ir_measures reads
    as the same measure (its own spelling, or ours of the same parameters), and that we read
    back to the same measure; ``--names trec`` prints trec_eval's name."""
    qrels, runs = covid
    args = [arg for name in NAMES for arg in ("-m", name)]
    printed = {}
    for spelling in ("ir_measures", "trec"):
        done = subprocess.run(
            [sys.executable, "-m", "builder", "evaluate", "--format", "tsv", "--names", spelling,
             *args, str(qrels), str(runs[0])], capture_output=True, text=True, check=False)
        if spelling == "trec":  # P@5 and P(rel=2)@5 are both P_5 in trec_eval's spelling
            assert done.returncode == 2 and "both printed P_5" in done.stderr
            continue
        assert done.returncode == 0, done.stderr
        table = pd.read_csv(io.StringIO(done.stdout), sep="\t", header=None, dtype=str)
        printed = list(dict.fromkeys(table[1]))
    assert len(printed) == len(NAMES)
    by_measure = {parse_name(name).request + repr(parse_name(name).key()): name
                  for name in NAMES}
    for spelled in printed:
        ours = parse_name(spelled)
        given = by_measure[ours.request + repr(ours.key())]
        assert _same(ir_measures.parse_measure(spelled), ir_measures.parse_measure(given)), (
            spelled, given)
        assert ir_measures_name(ours.name, ours.rel_level or 1, ours.judged_only,
                                ours.gains) == spelled


def _same(a: ir_measures.Measure, b: ir_measures.Measure) -> bool:
    """Equal measures, defaults written or not (``SetP`` is ``SetP(relative=False)``)."""
    def full(m: ir_measures.Measure) -> dict:
        return {k: m[k] if k in m.params else v.default for k, v in m.SUPPORTED_PARAMS.items()}

    return a.NAME == b.NAME and full(a) == full(b)


@pytest.mark.parametrize(("name", "nearest"), [
    ("alpha_nDCG@10", "nDCG@10"), ("RR@10", "RR"), ("nDCG(dcg='exp-log2')@10", "nDCG"),
    ("RBP(rel=1)", "RBP"), ("P", "P@10"), ("nDGC@10", "nDCG@10"),
    ("SetF(beta=0.5)", "SetF")])
def test_a_name_we_cannot_compute_exactly_is_refused_with_the_nearest(name, nearest) -> None:
    with pytest.raises(ValueError, match="nearest we have: .*" + nearest.replace("@", "@")):
        parse_name(name)


def test_trec_names_print_in_ir_measures_spelling() -> None:
    assert [ir_measures_name(n) for n in ("ndcg_cut_10", "map", "P_5", "recip_rank",
                                          "iprec_at_recall_0.20", "set_relative_P",
                                          "err@20", "gm_map")] == [
        "nDCG@10", "AP", "P@5", "RR", "IPrec@0.2", "SetP(relative=True)", "ERR@20", None]
    assert ir_measures_name("P_5", rel_level=2) == "P(rel=2)@5"


def test_the_config_takes_ir_measures_names_its_task_computes(tmp_path: Path) -> None:
    from builder.config.loading import ConfigError
    from builder.pipeline.stages import load_config

    done = subprocess.run([sys.executable, "-m", "builder", "demo", str(tmp_path / "demo")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    config = tmp_path / "demo" / "site_config.yml"
    text = config.read_text(encoding="utf-8")
    given = "official_measure: map\n    measures: [map, P_10, Rprec]"
    assert given in text
    config.write_text(text.replace(given, "official_measure: AP\n    measures: [AP, P@10, "
                                   "nDCG@10, Rprec]"), encoding="utf-8")
    task = load_config(config).tasks[0]
    assert (task.official_measure, task.measures) == ("map", ("map", "P_10", "ndcg_cut_10",
                                                              "Rprec"))
    config.write_text(text.replace(given, "official_measure: AP\n    measures: ['P(rel=2)@10', "
                                   "alpha_nDCG@10]"), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(config)
    assert "'P(rel=2)@10' is P_10 in a task with rel_level: 2" in str(refused.value)
    assert "nearest we have: nDCG@10" in str(refused.value)
