"""The stability study of Pal, Mitra and Chakraborty (EVIA 2008) by configuration, on the INEX
demo campaign: pool sampling over the topics with at least ``min_relevant`` highlighted
passages, on the runs ``reliability.runs`` chooses; ``appendix stability``'s taus and error
rates equal to what ``appendix evaluate`` gives on the dumped qrels, and to the site's report."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from builder.cli import main
from builder.config.reliability import ReliabilityConfig
from builder.stats.reliability.error_rate import error_rates
from builder.stats.reliability.rank_correlation import tau_ap
from builder.stats.reliability.report import chosen_runs, reliability_report
from builder.stats.reliability.stability import Scores, streams
from builder.tasks import get_kind

INEX = Path(__file__).resolve().parents[2] / "data" / "inex"
QRELS = INEX / "qrels.txt"
CHOSEN = ["irisFocManual", "kestrelFocBM25", "kestrelFocDense", "nbuFocSection"]
MEASURES = ["MAiP", "iP[0.01]"]
SEED = 11
FLAGS = ["--task", "focused", "-m", "MAiP", "-m", "iP[0.01]"]


def cli(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) in (0, 1)
    return out.getvalue()


def evaluated(qrels: Path, runs: list[str]) -> pd.DataFrame:
    """``appendix evaluate``'s rows: run, measure, topic, value (AiP per topic, for MAiP's)."""
    out = cli("evaluate", str(qrels), *runs, *FLAGS, "-m", "AiP", "--format", "tsv")
    table = pd.DataFrame([line.split("\t") for line in out.splitlines()],
                         columns=["run", "measure", "topic", "value"])
    return table.assign(value=table["value"].astype(float))


def means(table: pd.DataFrame, runs: list[str]) -> np.ndarray:
    """measure x run of the ``all`` rows."""
    summary = table[table["topic"] == "all"].pivot(index="measure", columns="run", values="value")
    return summary.loc[MEASURES, runs].to_numpy()


def site_report(runs_setting, min_relevant: int, **settings):
    kind = get_kind("focused")
    options = kind.options_model()
    qrels = kind.read_qrels(QRELS)
    reads = kind.read_runs(sorted((INEX / "focused").iterdir()), qrels, options)
    table = pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)
    scores = kind.evaluate(qrels, table, options).scores
    config = ReliabilityConfig(measures=MEASURES, runs=runs_setting, min_relevant=min_relevant,
                               seed=SEED, pool_sampling=True, ties=False, **settings)
    return reliability_report(kind, qrels, table, options, config, "iP[0.01]",
                              pd.read_csv(INEX / "focused.csv"), scores), scores


def test_topics_with_fewer_relevant_passages_are_left_out_and_the_dumps_say_it(tmp_path):
    runs = [str(INEX / "focused" / f"{name}.txt") for name in CHOSEN]
    dump = tmp_path / "dump"
    out = cli("stability", str(QRELS), *runs, *FLAGS, "--sample", "pool", "--levels", "0.6",
              "--iterations", "3", "--min-relevant", "10", "--seed", str(SEED), "--dump", str(dump))
    printed = pd.read_csv(io.StringIO(out), sep="\t")
    full_qrels = dump / "pool-full.qrels"
    studied = {line.split()[0] for line in full_qrels.read_text().splitlines()}
    passages: dict[str, int] = {}
    for line in QRELS.read_text().splitlines():
        fields = line.split()
        passages[fields[0]] = passages.get(fields[0], 0) + max(len(fields) - 6, 0)
    assert studied == {t for t, n in passages.items() if n >= 10}
    assert len(studied) < len(passages)  # the demo has topics below 10: the rule bites
    reference = means(evaluated(full_qrels, runs), CHOSEN)
    for iteration in (1, 2, 3):
        sample = dump / f"pool-0.6-{iteration}.qrels"
        assert {line.split()[0] for line in sample.read_text().splitlines()} <= studied
        again = means(evaluated(sample, runs), CHOSEN)
        for m, measure in enumerate(MEASURES):
            row = printed[(printed["iteration"] == iteration) & (printed["measure"] == measure)]
            assert row["tau"].item() == pytest.approx(kendalltau(reference[m], again[m])[0],
                                                      abs=1e-12)
            assert row["tau_ap"].item() == pytest.approx(tau_ap(reference[m], again[m])[0],
                                                         abs=1e-12)


def test_error_rates_from_the_command_equal_evaluate_s_per_topic_scores_and_the_site():
    runs = [str(INEX / "focused" / f"{name}.txt") for name in CHOSEN]
    out = cli("stability", str(QRELS), *runs, *FLAGS, "--error-rates", "--levels", "0.6,0.4",
              "--iterations", "4", "--seed", str(SEED))
    printed = pd.read_csv(io.StringIO(out), sep="\t")
    table = evaluated(QRELS, runs)
    topics = sorted({line.split()[0] for line in QRELS.read_text().splitlines()})
    per_topic = np.zeros((len(MEASURES), len(CHOSEN), len(topics)))
    done = np.zeros((len(CHOSEN), len(topics)), bool)
    rows = table[table["topic"] != "all"].replace({"measure": {"AiP": "MAiP"}})
    for row in rows[rows["measure"].isin(MEASURES)].itertuples():
        r, t = CHOSEN.index(row.run), topics.index(row.topic)
        per_topic[MEASURES.index(row.measure), r, t] = row.value
        done[r, t] = True
    scores = Scores(per_topic, done, means(table, CHOSEN))
    order = list(printed["measure"].drop_duplicates())  # the registry's order, as the command's
    scores = Scores(scores.per_topic[[MEASURES.index(m) for m in order]], done,
                    scores.summary[[MEASURES.index(m) for m in order]])
    expected = error_rates(order, scores, [0.6, 0.4], 4, 0.05, streams(SEED)["errors"])
    assert list(printed["measure"]) == list(expected["measure"])
    for column in ("error_lower", "error_upper", "swap_rate"):
        assert np.allclose(printed[column], expected[column], rtol=0, atol=1e-15, equal_nan=True)
    assert list(printed["topics"]) == list(expected["topics"])
    report, _ = site_report(CHOSEN, 10, levels=[0.6, 0.4], iterations=4)
    columns = ["error_lower", "error_upper", "swap_rate"]
    site = report.error_rates.set_index(["measure", "level"])[columns]
    assert np.allclose(site.loc[list(zip(printed["measure"], printed["level"]))],
                       printed[columns], atol=0, equal_nan=True)


def test_the_site_s_pool_sampling_by_configuration_equals_the_command():
    report, _ = site_report(CHOSEN, 10, levels=[0.6], iterations=3, topic_sampling=False,
                            error_rate=False)
    runs = [str(INEX / "focused" / f"{name}.txt") for name in CHOSEN]
    out = cli("stability", str(QRELS), *runs, *FLAGS, "--sample", "pool", "--levels", "0.6",
              "--iterations", "3", "--min-relevant", "10", "--seed", str(SEED))
    printed = pd.read_csv(io.StringIO(out), sep="\t")
    site = report.stability[report.stability["sample"] == "pool"]
    site = site.set_index(["measure", "iteration"])[["tau", "tau_ap"]]
    keys = list(zip(printed["measure"], printed["iteration"]))
    assert site.loc[keys].to_numpy().tolist() == printed[["tau", "tau_ap"]].to_numpy().tolist()


def test_runs_top_n_per_team_by_the_official_measure():
    _, scores = site_report(None, 10)
    best = evaluated(QRELS, [str(p) for p in sorted((INEX / "focused").iterdir())
                             if "Fusion" not in p.name])
    summary = best[(best["topic"] == "all") & (best["measure"] == "iP[0.01]")]
    teams = pd.read_csv(INEX / "focused.csv").set_index("run")["team"]
    top = summary.assign(team=summary["run"].map(teams)).sort_values(
        "value", ascending=False, kind="stable").groupby("team").head(1)
    metadata = pd.read_csv(INEX / "focused.csv")
    chosen = chosen_runs(ReliabilityConfig(runs=1), scores, "iP[0.01]", metadata)
    assert sorted(chosen) == sorted(top["run"]) and len(chosen) == 3
    assert chosen_runs(ReliabilityConfig(runs=["nbuFocArticle", "nope"]), scores, "iP[0.01]",
                       metadata) == ["nbuFocArticle"]
