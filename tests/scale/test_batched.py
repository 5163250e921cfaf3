"""Evaluation in batches under a small memory budget gives what the one-shot evaluation gives:
``appendix evaluate`` output bytes on robust03, and the demo site file by file."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from builder.cli import main
from builder.config.sizes import parse_size
from builder.contract import RunRead
from builder.pipeline.execution.budget import file_batches
from builder.pipeline.execution.distributed import even_batches
from builder.pipeline.execution.topic_files import split_by_topics
from tests.scale.site_compare import compare_sites
from tests.site.test_build import build_demo


def robust03_args(folder: Path) -> list[str]:
    """The qrels and the 17 runs of robust03 (``folder``), as ``appendix evaluate`` takes them."""
    runs = sorted(str(p) for p in (folder / "runs").iterdir())
    return [str(folder / "robust03_qrels.txt"), *runs]


def evaluate_output(capsys, folder: Path, *options: str) -> str:
    """``appendix evaluate -q -c --format tsv OPTIONS`` of robust03 (``folder``)."""
    assert main(["evaluate", "-q", "-c", "--format", "tsv", *options,
                 *robust03_args(folder)]) == 0
    return capsys.readouterr().out


def recorded(calls: list, function):
    """``function``, each of its results appended to ``calls``."""
    def wrapper(*args):
        calls.append(function(*args))
        return calls[-1]
    return wrapper


BUDGET = "8M"
"""Every run in a batch of its own (the first batch has two), and the 13 runs whose evaluation
is estimated above 8 MB read and evaluated a few topics at a time (``builder.pipeline.execution.topic_ranges``);
1 byte (a part per topic, 1,700 evaluations) took 20 times as long and checks no more."""


@pytest.mark.slow
def test_batched_evaluate_equals_one_shot_on_robust03(capsys, monkeypatch, robust03_folder,
                                                      robust03_one_shot):
    one_shot = robust03_one_shot
    split = []
    monkeypatch.setattr("builder.pipeline.execution.topic_ranges.split_by_topics", recorded(split, split_by_topics))
    assert evaluate_output(capsys, robust03_folder, "--memory-budget", BUDGET) == one_shot
    assert one_shot.count("\n") > 40_000
    assert len(split) == 13 and all(len(parts) >= 3 for parts in split), split


@pytest.mark.slow
def test_batched_running_sums_equal_one_shot(capsys, robust03_folder):
    """gdeval's ERR terms sum within each ranking only: a run's values are the same bits
    whichever runs share its batch."""
    measures = ["-m", "err@20", "-m", "nerr@20", "-m", "ndcg@20"]
    one_shot = evaluate_output(capsys, robust03_folder, *measures)
    assert (evaluate_output(capsys, robust03_folder, *measures, "--memory-budget", BUDGET)
            == one_shot)
    assert one_shot.count("\terr@20\t") > 1000


@pytest.mark.parametrize("options", [["-q", "-c"], ["-q", "-c", "--profile", "9.0.8"],
                                     ["--format", "csv"], ["--format", "json", "-m", "map"]])
def test_batched_formats_equal_one_shot(capsys, monkeypatch, robust03_folder, options):
    """Every format, the per-topic topics trec_eval 9.0.8 leaves out included: the batched
    scores (kept as categorical codes) print as the one-shot ones. 100 KB: the first two runs
    in one batch, the third evaluated in topic parts (1 byte, a part per topic, took 10 times
    as long)."""
    args = ["evaluate", *options, *robust03_args(robust03_folder)[:4]]
    assert main(args) == 0
    one_shot = capsys.readouterr().out
    split = []
    monkeypatch.setattr("builder.pipeline.execution.topic_ranges.split_by_topics", recorded(split, split_by_topics))
    assert main([*args[:1], "--memory-budget", "100K", *args[1:]]) == 0
    assert capsys.readouterr().out == one_shot
    assert [len(parts) >= 3 for parts in split] == [True], split


def test_batched_demo_site_equals_one_shot(tmp_path, stamped_demo_site, monkeypatch):
    """A budget the demo's runs fit in together but not their evaluation: the runs are read
    and evaluated in several batches, kept for the analyses, and every file is the same."""
    made = []

    def recorded(paths, budget):
        made.append(file_batches(paths, budget))
        return made[-1]

    monkeypatch.setattr("builder.pipeline.execution.reading.file_batches", recorded)
    assert build_demo(tmp_path / "batched", "--memory-budget", "8M") == 0
    assert max(len(groups) for groups in made) >= 3
    assert compare_sites(stamped_demo_site, tmp_path / "batched") == []


# What reads the rankings again: the reliability pages and tables, the judgements pages and
# tables (an ad hoc task's judged depths and unjudged shares), the tie ranges and unjudged
# shares on the leaderboard and its CSV, the reliability line and judgements row of each run
# page.
RANKING_ANALYSES = re.compile(r"(.*/reliability\..*|.*/judgements\..*|(adhoc/)?index\.html|"
                              r"(adhoc/)?index\.leaderboard-.*\.csv|"
                              r"adhoc/runs/[^/]*\.html|\.appendix-written)")


def test_runs_not_kept_leave_out_only_the_analyses_of_rankings(tmp_path, stamped_demo_site):
    """A budget of one byte: every run in a batch of its own, dropped once evaluated. The
    scores, downloads and pages are the same; the analyses that score the rankings again are
    left out, and the reliability pages say so."""
    assert build_demo(tmp_path / "dropped", "--memory-budget", "1") == 0
    differ = compare_sites(stamped_demo_site, tmp_path / "dropped")
    # SHA256SUMS lists every file's hash: it differs as the files it lists do.
    assert differ and [name for name in differ if not RANKING_ANALYSES.fullmatch(name)
                       and name != "SHA256SUMS"] == []
    page = (tmp_path / "dropped" / "adhoc" / "reliability.html").read_text(encoding="utf-8")
    assert "evaluated in batches under a memory budget and were not kept" in page
    assert not (tmp_path / "dropped" / "adhoc" / "reliability.ties.csv").exists()
    same = "adhoc/reliability.error-rate.csv"  # it reads the scores only
    assert (stamped_demo_site / same).read_bytes() == (tmp_path / "dropped" / same).read_bytes()


def test_batches_follow_the_budget(tmp_path):
    paths = [tmp_path / f"r{i}" for i in range(5)]
    for path in paths:
        path.write_bytes(b"d" * 1000)
    size = 1000  # a table's bytes per byte of text: 1
    assert [len(b) for b in file_batches(paths, 2**40)] == [5]
    assert [len(b) for b in file_batches(paths, 1)] == [2, 1, 1, 1]
    assert [len(b) for b in file_batches(paths, size * 6 * 3)] == [3, 2]


def test_even_batches_one_per_worker_at_least():
    import pandas as pd

    reads = [RunRead(f"r{i}", f"r{i}", pd.DataFrame({"doc": ["d"] * (100 * (i + 1))}))
             for i in range(6)]
    for workers in (1, 2, 3, 5):
        groups = even_batches(reads, workers)
        assert len(groups) >= workers and [r for g in groups for r in g] == reads
    assert len(even_batches(reads, 6)) == 5  # two runs in the first, which ``merge`` reads
    assert even_batches(reads[:1], 4) == [reads[:1]]


def test_parse_size():
    assert parse_size("2G") == 2 * 2**30
    assert parse_size("512m") == 512 * 2**20
    assert parse_size("1000") == 1000
    with pytest.raises(ValueError, match="memory budget"):
        parse_size("lots")


def test_bad_budget_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "qrels").write_text("1 0 d1 1\n", encoding="utf-8")
    (tmp_path / "run").write_text("1 Q0 d1 1 1 r\n", encoding="utf-8")
    assert main(["evaluate", "--memory-budget", "lots", str(tmp_path / "qrels"),
                 str(tmp_path / "run")]) == 2
    assert "memory budget 'lots'" in capsys.readouterr().err
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_streamed_findings_equal_one_shot(tmp_path, capsys):
    """Run files read batch by batch: a run name an earlier batch took, a rejected run in the
    first batch and an unreadable file give the one-shot path's findings, exit status and
    scores."""
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n", encoding="utf-8")
    texts = {"bad": "1 Q0 d1 1 x.5 bad\n", "a": "1 Q0 d1 1 2.0 a\n2 Q0 d3 1 1.0 a\n",
             "b": "1 Q0 d2 1 2.0 b\n1 Q0 d1 2 1.0 b\n", "a-again": "2 Q0 d3 1 1.0 a\n",
             "c": "2 Q0 d9 1 1.0 c\n1 Q0 d1 1 0.5 c\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    args = ["evaluate", "-q", "--format", "tsv", str(qrels),
            *(str(tmp_path / n) for n in [*texts, "missing"])]
    status = main(args)
    one_shot = capsys.readouterr()
    assert status == 2 and "run name a already used by a" in one_shot.err  # 2: missing
    assert main([*args[:4], "--memory-budget", "1", *args[4:]]) == status
    assert capsys.readouterr() == one_shot


CAMPAIGN = """
campaign: {title: Test campaign, year: 2024, organisers: [A]}
output: ../out
memory_budget: BUDGET
tasks:
  - {id: ad, title: Ad hoc, kind: adhoc, qrels: ../data/qrels.txt, runs: ../data/runs}
"""


def test_config_memory_budget(tmp_path, monkeypatch):
    """``memory_budget:`` in the config reads the runs in batches, as the option does; a bad
    size is a config problem naming the key."""
    from builder.building import Progress, build
    from builder.config.loading import ConfigError
    from builder.pipeline.stages import load_config
    from tests.site.test_config import write_campaign

    config = write_campaign(tmp_path, CAMPAIGN.replace("BUDGET", "1"))
    (tmp_path / "data" / "runs" / "a.txt").write_text("401 Q0 d2 1 2.0 r2\n")
    made = []

    def recorded(paths, budget):
        made.append((budget, file_batches(paths, budget)))
        return made[-1][1]

    monkeypatch.setattr("builder.pipeline.execution.reading.file_batches", recorded)
    summary = build(config, progress=Progress(quiet=True))
    assert summary.evaluated == 2 and made == [(1, [[tmp_path / "data/runs/a.txt",
                                                     tmp_path / "data/runs/b.txt"]])]
    config.write_text(CAMPAIGN.replace("BUDGET", "lots"))
    with pytest.raises(ConfigError, match="memory_budget.*memory budget 'lots'"):
        load_config(config)


def test_batches_keep_only_the_tables_pages_read(robust03_folder):
    """Under a budget a batch makes the extras the pages read and never the points at every
    rank (a row per line): the kept ones equal the one-shot tables."""
    import pandas as pd

    from builder.pipeline.model import Scale
    from builder.pipeline.stages import command_task, evaluate_task, read_task, validate_task
    from builder.tasks.adhoc import KIND

    options = KIND.options_model()
    qrels = KIND.read_qrels(robust03_folder / "robust03_qrels.txt", options)
    runs = sorted((robust03_folder / "runs").iterdir())[:3]
    reads = KIND.validate_runs(KIND.read_run_files(runs, qrels, options), qrels, options)
    one_shot = KIND.evaluate(qrels, pd.concat([r.table for r in reads], ignore_index=True),
                             options)
    scale = Scale(budget=1)
    inputs = read_task(command_task(KIND, robust03_folder / "robust03_qrels.txt", runs, options),
                       scale)
    validate_task(inputs)
    batched = evaluate_task(inputs, scale).evaluation
    # The steps (a row per line, the answered topics, relstring's text) are made on demand
    # by the one-shot evaluation only.
    steps = {"pr_points", "relevant_points", "answered", "relstring"}
    assert one_shot.extras.steps == steps
    assert set(batched.extras) == set(one_shot.extras) - steps
    assert set(one_shot.extras) > set(batched.extras)
    for name in batched.extras:
        pd.testing.assert_frame_equal(batched.extras[name], one_shot.extras[name])
