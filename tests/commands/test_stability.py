"""``appendix stability`` and ``appendix ties`` on the demo campaign (data/, in the repository)."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from builder.cli import main
from builder.cli.commands.stability import _label
from builder.stats.reliability.rescoring import rescorer_for
from builder.stats.reliability.stability import pool_sampling, streams, topic_sampling
from builder.tasks import get_kind

ROOT = Path(__file__).resolve().parents[2]
ADHOC = ROOT / "data" / "adhoc"
INEX = ROOT / "data" / "inex"
SEED = 7


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def adhoc_args() -> list[str]:
    runs = sorted(p for p in (ADHOC / "runs").iterdir() if "Broken" not in p.name and "Dup" not in p.name)
    return [str(ADHOC / "qrels.txt"), *map(str, runs)]


def focused_args() -> list[str]:
    return [str(INEX / "qrels.txt"), *map(str, sorted((INEX / "focused").iterdir()))]


def read_campaign(task: str, args: list[str], measures: list[str]):
    kind = get_kind(task)
    options = kind.options_model()
    qrels = kind.read_qrels(Path(args[0]))
    reads = kind.read_runs([Path(a) for a in args[1:]], qrels, options)
    runs = pd.concat([r.table for r in reads if not r.rejected], ignore_index=True)
    return rescorer_for(kind, qrels, runs, options, measures)


def summaries(text: str, measures: list[str]) -> pd.DataFrame:
    rows = [line.split("\t") for line in text.splitlines()]
    table = pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])
    table = table[(table["topic"] == "all") & table["measure"].isin(measures)]
    return table.assign(value=table["value"].astype(float)).pivot(
        index="measure", columns="run", values="value")


def test_level_one_gives_tau_exactly_one_and_the_header():
    status, out = cli("stability", *adhoc_args(), "-m", "map", "-m", "P_10",
                      "--levels", "1.0", "--iterations", "3", "--min-relevant", "1")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "sample\tlevel\titeration\tmeasure\ttau\ttau_ap"
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) == 2 * 2 * 3  # pool and topics x measures x iterations
    assert {(r[4], r[5]) for r in rows} == {("1.0", "1.0")}


def test_same_seed_same_output_other_seed_other_output():
    argv = ["stability", *adhoc_args(), "--levels", "0.6,0.2", "--iterations", "4",
            "--min-relevant", "5", "--format", "json"]
    first = cli(*argv, "--seed", "3")[1]
    assert first == cli(*argv, "--seed", "3")[1]
    assert first != cli(*argv, "--seed", "4")[1]


@pytest.mark.parametrize("task,args,measures", [
    ("adhoc", adhoc_args(), ["map", "P_10", "ndcg_cut_10"]),
    ("focused", focused_args(), ["MAiP", "iP[0.01]"]),
])
def test_a_dumped_pool_sample_scores_what_the_analysis_used(tmp_path, task, args, measures):
    rescorer = read_campaign(task, args, measures)
    used: dict[tuple[float, int], tuple[np.ndarray, str]] = {}

    def keep_sample(level, iteration, keep, scores):
        used[level, iteration] = scores.summary, rescorer.sampled_qrels(keep)

    levels = [0.6, 0.3]
    pool_sampling(rescorer, levels, 2, 3, streams(SEED)["pool"], on_sample=keep_sample)
    dump = tmp_path / "dump"
    measure_flags = [flag for m in measures for flag in ("-m", m)]
    cli("stability", *args, "--task", task, *measure_flags, "--sample", "pool", "--levels",
        "0.6,0.3", "--iterations", "2", "--min-relevant", "3", "--seed", str(SEED),
        "--dump", str(dump))
    for (level, iteration), (summary, qrels_text) in used.items():
        dumped = dump / f"pool-{_label(level)}-{iteration}.qrels"
        assert dumped.read_text() == qrels_text
        _, out = cli("evaluate", str(dumped), *args[1:], "--task", task, *measure_flags,
                          "--format", "tsv")
        evaluated = summaries(out, measures).loc[measures, rescorer.runs].to_numpy()
        assert np.array_equal(evaluated, summary)
    full = rescorer.score(None).summary
    assert any(not np.array_equal(summary, full) for summary, _ in used.values())


def test_a_dumped_topic_sample_scores_what_the_analysis_used(tmp_path):
    measures = ["map", "P_10"]
    args = adhoc_args()
    rescorer = read_campaign("adhoc", args, measures)
    full = rescorer.score(None)
    dump = tmp_path / "dump"
    cli("stability", *args, "-m", "map", "-m", "P_10", "--sample", "topics", "--levels",
        "0.4", "--iterations", "2", "--seed", str(SEED), "--dump", str(dump))
    chosen = {}
    topic_sampling(measures, full, [0.4], 2, streams(SEED)["topics"],
                   on_sample=lambda level, iteration, weights: chosen.update({iteration: weights}))
    from builder.stats.reliability.stability import topic_means

    qrels = (ADHOC / "qrels.txt").read_text().splitlines()
    for iteration, weights in chosen.items():
        topics = (dump / f"topics-0.4-{iteration}.txt").read_text().split()
        assert topics == [t for t, w in zip(rescorer.topics, weights) if w]
        subset = tmp_path / f"qrels-{iteration}"
        subset.write_text("".join(line + "\n" for line in qrels if line.split()[0] in topics))
        out = cli("evaluate", str(subset), *args[1:], "-m", "map", "-m", "P_10",
                  "--format", "tsv")[1]
        evaluated = summaries(out, measures).loc[measures, rescorer.runs].to_numpy()
        used = topic_means(full.per_topic, full.evaluated, weights[None])[..., 0]
        assert np.array_equal(evaluated, used)


def test_ties_prints_official_worst_best_expected():
    status, out = cli("ties", *adhoc_args(), "-m", "map", "-m", "recip_rank")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "run\tmeasure\tofficial\tworst\tbest\texpected"
    rows = [line.split("\t") for line in lines[1:]]
    for run, measure, official, worst, best, expected in rows:
        assert float(worst) <= float(official) <= float(best)
        assert (expected == "") == (measure == "recip_rank")


def test_ties_refuses_inex_tasks_and_unknown_measures(capsys):
    assert cli("ties", *focused_args(), "--task", "focused")[0] == 2
    assert cli("ties", *adhoc_args(), "-m", "nonsense")[0] == 2
    assert "nonsense" in capsys.readouterr().err


def test_kinds_without_an_incremental_rescorer_are_evaluated_in_full():
    args = [str(INEX / "qrels.txt"),
            *map(str, sorted((INEX / "relevant-in-context").iterdir()))]
    _, out = cli("stability", *args, "--task", "relevant-in-context", "--levels", "1,0.5",
                      "--iterations", "2", "--min-relevant", "1", "--sample", "pool")
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [r[:3] for r in rows] == [["pool", "1", "1"], ["pool", "1", "2"],
                                     ["pool", "0.5", "1"], ["pool", "0.5", "2"]]
    assert {(r[4], r[5]) for r in rows[:2]} == {("1.0", "1.0")}
    assert all(-1 <= float(r[4]) <= 1 for r in rows[2:])
