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
    # 100 topics: a per-topic table and chart for each of the four shown measures (the
    # official one's and, a choice away, the others'), and the per-topic curves; the
    # significance comparisons on each of the four shown measures (about 16 KB of 17 runs);
    # per topic the worst, median and best of the runs in each table and chart (the worst
    # added about 23 KB: 184 KB at most). What must not happen is a page that grows with runs
    # times topics.
    for page in (robust03_site / "robust" / "runs").glob("*.html"):
        assert page.stat().st_size < 200_000, page.name


@pytest.fixture(scope="module")
def covid_site(shared_data, tmp_path_factory) -> Path:
    """The TREC-COVID example's task (its official and shown measures, qrels and metadata) on
    four of its 143 runs: the whole campaign is built by benchmarks/bench_site.py."""
    import yaml

    config = yaml.safe_load((ROOT / "examples" / "trec_covid_round1.yml").read_text())
    folder = tmp_path_factory.mktemp("covid")
    task = config["tasks"][0]
    data = (ROOT / "examples" / task["qrels"]).resolve().parent
    for key in ("qrels", "run_metadata"):
        task[key] = str((ROOT / "examples" / task[key]).resolve())
    task["runs"] = str(data / "runs" / "[BS]*.gz")  # BBGhelani1, 2, BERT, SparseDenseSciBert
    (folder / "covid.yml").write_text(yaml.safe_dump(config))
    out = folder / "site"
    assert main(["build", "--config", str(folder / "covid.yml"), "--out", str(out), "--quiet"]) == 0
    return out


def test_covid_run_pages_show_the_official_ndcg_per_topic_and_against_the_median(covid_site,
                                                                               shared_data):
    import json
    import re

    pages = sorted((covid_site / "covid" / "runs").glob("*.html"))
    assert len(pages) >= 3
    reference = {}
    with gzip.open(shared_data / "trec_covid_round1" / "trec_eval_9.0.8.q.c.M1000.tsv.gz",
                   "rt") as stream:
        for run, measure, topic, value in csv.reader(stream, delimiter="\t"):
            if measure == "ndcg_cut_10" and topic != "all":
                reference[run, topic] = float(value)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        run = page.stem
        # The official view is the one shown: the per-topic table and the chart are nDCG@10.
        table = text.split('<table id="per-topic"', 1)[1].split("</table>", 1)[0]
        assert "<th scope=\"col\" title=\"ndcg_cut_10\">nDCG@10</th>" in table
        assert "<th scope=\"col\" title=\"Median ndcg_cut_10\">Median nDCG@10</th>" in table
        rows = re.findall(r'<tr><th scope="row"><a [^>]*>(\w+)</a></th><td>([\d.]+)<',
                          table)
        assert len(rows) == 30
        for topic, value in rows:
            assert abs(float(value) - reference[run, topic]) < 6e-5
        figure = text.split('id="figure-difference-from-median-data">', 1)[1].split("</script>")[0]
        assert json.loads(figure)["layout"]["yaxis"]["title"]["text"] == "nDCG@10 minus median"
        # The other shown measures are a choice away, bpref among them.
        assert 'id="per-topic-bpref"' in text and '<option value="0">nDCG@10 (official)' in text
        measures = text.split('<table id="measures"', 1)[1].split("</table>", 1)[0]
        assert [label for label in re.findall(r"<tr><th scope=\"row\">([^<]+)</th>", measures)] == [
            "nDCG@10 (official)", "P@5", "bpref", "MAP", "Relevant retrieved"]
    assert published_leaks(covid_site, [covid_site, ROOT, shared_data.parent]) == []
