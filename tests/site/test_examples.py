"""The example configs build sites for the real campaigns of ../shared/data, read in place.

The TREC-COVID round 1 site (143 runs) is built by benchmarks/bench_site.py, not here: it takes
longer than this suite's budget allows.
"""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest

from builder.cli import main
from tests.site.site_checks import broken_references, published_leaks

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def robust03_site(shared_data, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("robust03") / "site"
    status = main(["build", "--config", str(ROOT / "examples" / "robust03.yml"), "--out",
                   str(out), "--quiet"])
    assert status == 0
    return out


def test_robust03_site_names_inputs_outside_the_config_folder_by_file_name(robust03_site,
                                                                          shared_data):
    assert published_leaks(robust03_site, [robust03_site, ROOT, shared_data]) == []
    manifest = (robust03_site / "manifest.json").read_text()
    assert '"path": "robust03_qrels.txt"' in manifest and "shared/data" not in manifest
    findings = (robust03_site / "robust" / "downloads" / "findings.csv").read_text()
    assert "shared" not in findings


def reference_summary(shared_data: Path, measure: str) -> dict[str, float]:
    table = shared_data / "robust03" / "trec_eval_9.0.8.q.c.M1000.tsv.gz"
    with gzip.open(table, "rt") as stream:
        return {run: float(value) for run, name, topic, value in csv.reader(stream, delimiter="\t")
                if name == measure and topic == "all"}


def test_robust03_site_has_every_run_and_topic(robust03_site):
    assert len(list((robust03_site / "robust" / "runs").glob("*.html"))) == 17
    assert len(list((robust03_site / "robust" / "topics").glob("*.html"))) == 100 + 1
    assert broken_references(robust03_site) == []


def test_robust03_leaderboard_agrees_with_trec_eval(robust03_site, shared_data):
    expected = reference_summary(shared_data, "map")
    with open(robust03_site / "robust" / "downloads" / "summary.csv", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert {row["run"] for row in rows} == set(expected)
    for row in rows:
        assert abs(float(row["map"]) - expected[row["run"]]) < 5e-5, row["run"]
    maps = [float(row["map"]) for row in rows]
    assert maps == sorted(maps, reverse=True)


def test_robust03_run_pages_are_small(robust03_site):
    for page in (robust03_site / "robust" / "runs").glob("*.html"):
        assert page.stat().st_size < 100_000, page.name
