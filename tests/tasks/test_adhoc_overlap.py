"""Ad hoc run files read, validated and scored overlapped give the reads and the evaluation of
the three stages one after the other: the same tables, names, findings and scores, bit for bit,
with runs rejected on reading, on validation and on their name among them."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from builder.cli import main
from builder.pipeline import execution
from builder.tasks.adhoc import KIND, AdhocOptions
from builder.tasks.adhoc import overlap as adhoc_overlap
from builder.tasks.adhoc import parallel as adhoc_parallel


@pytest.fixture(scope="module")
def qrels_path(robust03_folder: Path) -> Path:
    return robust03_folder / "robust03_qrels.txt"


@pytest.fixture(scope="module")
def run_files(robust03_folder: Path, tmp_path_factory) -> list[Path]:
    """Four robust03 runs, then a run with a docno twice (rejected by validation), a copy of
    the first under another file name (same tag: rejected by its name), a file that is not a
    run (rejected on reading), and a fifth robust03 run."""
    folder = tmp_path_factory.mktemp("runs")
    real = sorted((robust03_folder / "runs").iterdir())
    paths = [folder / f"{i}-{p.name}" for i, p in enumerate(real[:4])]
    for source, target in zip(real, paths):
        shutil.copy(source, target)
    with gzip.open(real[4], "rt") as stream:
        lines = stream.read().splitlines(keepends=True)
    (folder / "twice.txt").write_text("".join([*lines[:2000], lines[10]]))
    shutil.copy(real[0], folder / "copy.gz")
    (folder / "binary.gz").write_bytes(b"\x1f\x8b not really gzip")
    shutil.copy(real[5], folder / "last.gz")
    return [*paths, folder / "twice.txt", folder / "copy.gz", folder / "binary.gz",
            folder / "last.gz"]


def stages(qrels_path, paths, options):
    qrels = KIND.read_qrels(qrels_path)
    reads = KIND.read_runs(paths, qrels, options)
    accepted = [r.table for r in reads if not r.rejected]
    return reads, KIND.evaluate(qrels, pd.concat(accepted, ignore_index=True), options)


def assert_same(expected, got) -> None:
    (reads, evaluation), (reads_got, evaluation_got) = expected, got
    assert [(r.path, r.name, r.findings) for r in reads] == \
        [(r.path, r.name, r.findings) for r in reads_got]
    for read, read_got in zip(reads, reads_got):
        if read.table is None:
            assert read_got.table is None
        else:
            pd.testing.assert_frame_equal(read.table, read_got.table, check_exact=True)
    left, right = evaluation.scores, evaluation_got.scores
    assert left[["run", "topic", "measure"]].equals(right[["run", "topic", "measure"]])
    assert (left["value"].to_numpy().view(np.int64)
            == right["value"].to_numpy().view(np.int64)).all()
    for name in evaluation.extras:
        pd.testing.assert_frame_equal(evaluation.extras[name], evaluation_got.extras[name],
                                      check_exact=True)


@pytest.mark.parametrize("groups", [1, 3, 50])
def test_overlapped_equals_stages(qrels_path, run_files, monkeypatch, groups):
    monkeypatch.setattr(adhoc_overlap, "GROUPS", groups)
    monkeypatch.setattr(adhoc_parallel, "LINES_PER_PART", 1000)  # the last group on threads
    options = AdhocOptions(profile="10.0")
    expected = stages(qrels_path, run_files, options)
    rejected = [r.path for r in expected[0] if r.rejected]
    assert [Path(p).name for p in rejected] == ["twice.txt", "copy.gz", "binary.gz"]
    qrels = KIND.read_qrels(qrels_path)
    assert_same(expected, KIND.read_and_evaluate(run_files, qrels, options))


def test_overlapped_without_name_rejection(qrels_path, run_files, monkeypatch):
    """No run rejected by its name: the groups' scores are joined, not scored again."""
    monkeypatch.setattr(adhoc_overlap, "GROUPS", 4)
    paths = [p for p in run_files if p.name != "copy.gz"]
    scored = []
    real = adhoc_overlap.score_cells_parallel
    monkeypatch.setattr(adhoc_overlap, "score_cells_parallel",
                        lambda *a, **k: scored.append(len(a[1])) or real(*a, **k))
    options = AdhocOptions(judged_only=True, rel_level=2)
    expected = stages(qrels_path, paths, options)
    assert_same(expected, KIND.read_and_evaluate(paths, KIND.read_qrels(qrels_path), options))
    assert len(scored) == 1 and scored[0] < sum(len(r.table) for r in expected[0]
                                                if not r.rejected)


def test_evaluate_command_prints_what_the_stages_give(qrels_path, run_files, capsys,
                                                      monkeypatch):
    args = ["evaluate", "-q", "-c", "--format", "tsv", "-m", "all_trec", str(qrels_path),
            *map(str, run_files)]
    chosen = []
    choose = execution.choose
    monkeypatch.setattr(execution, "choose",
                        lambda kind, scale: chosen.append(choose(kind, scale)) or chosen[-1])
    assert main(args) == 2  # a run file unreadable
    overlapped = capsys.readouterr()
    assert chosen and set(chosen) == {execution.overlapped}
    monkeypatch.setattr(execution, "choose", lambda kind, scale: execution.at_once)
    assert main(args) == 2
    staged = capsys.readouterr()
    assert overlapped.out == staged.out and overlapped.err == staged.err
    assert overlapped.out.count("\n") > 40_000
