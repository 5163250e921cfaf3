"""Evaluation in batches under a small memory budget gives what the one-shot evaluation gives:
``appendix evaluate`` output bytes on robust03, and the demo site file by file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from builder.batching import batches, parse_size
from builder.cli import main
from builder.scores import RunRead
from tests.scale.site_compare import compare_sites
from tests.site.test_build import build_demo

ROBUST03 = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "robust03"


def robust03_args() -> list[str]:
    runs = sorted(str(p) for p in (ROBUST03 / "runs").iterdir())
    return [str(ROBUST03 / "robust03_qrels.txt"), *runs]


def evaluate_output(capsys, *options: str) -> str:
    assert main(["evaluate", "-q", "-c", "--format", "tsv", *options, *robust03_args()]) == 0
    return capsys.readouterr().out


def test_batched_evaluate_equals_one_shot_on_robust03(capsys):
    one_shot = evaluate_output(capsys)
    # 1 byte: every run in a batch of its own (the first batch has two).
    assert evaluate_output(capsys, "--memory-budget", "1") == one_shot
    assert one_shot.count("\n") > 40_000


def test_batched_trec_format_equals_one_shot(capsys):
    args = ["evaluate", "-q", "-c", *robust03_args()[:4]]
    assert main(args) == 0
    one_shot = capsys.readouterr().out
    assert main([*args[:3], "--memory-budget", "1", *args[3:]]) == 0
    assert capsys.readouterr().out == one_shot


def test_batched_demo_site_equals_one_shot(tmp_path):
    assert build_demo(tmp_path / "one") == 0
    assert build_demo(tmp_path / "batched", "--memory-budget", "1") == 0
    assert compare_sites(tmp_path / "one", tmp_path / "batched") == []


def test_batches_follow_the_budget():
    import pandas as pd

    table = pd.DataFrame({"doc": ["d"] * 1000})
    reads = [RunRead(f"r{i}", f"r{i}", table) for i in range(5)]
    size = int(table.memory_usage(deep=True).sum())
    assert [len(b) for b in batches(reads, None)] == [5]
    assert [len(b) for b in batches(reads, 1)] == [2, 1, 1, 1]
    assert [len(b) for b in batches(reads, size * 6 * 3)] == [3, 2]


def test_parse_size():
    assert parse_size("2G") == 2 * 2**30
    assert parse_size("512m") == 512 * 2**20
    assert parse_size("1000") == 1000
    with pytest.raises(ValueError, match="memory budget"):
        parse_size("lots")


def test_bad_budget_is_a_usage_error(capsys):
    assert main(["evaluate", "--memory-budget", "lots", *robust03_args()[:2]]) == 2
    assert "memory budget 'lots'" in capsys.readouterr().err
    assert "SOURCE_DATE_EPOCH" not in os.environ
