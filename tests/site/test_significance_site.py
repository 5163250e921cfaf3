"""Significance on the demo site: the download equals ``appendix compare``, the pages state the
settings, the heatmap is there and each run page agrees with the download."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from builder.cli import main
from builder.pipeline.stages import load_config, read_task, validate_task
from tests.site.conftest import DEMO_CONFIG

SETTINGS_TEXT = ["randomization test", "alpha = 0.05", "B = 10,000", "Holm correction"]


TESTED = ["map", "P_10", "Rprec"]
"""The demo's ad hoc task tests its official measure and, by default, its shown ones."""


@pytest.fixture(scope="module")
def pairs(demo_site: Path) -> pd.DataFrame:
    """The pairs tested on the official measure (map)."""
    every = pd.read_csv(demo_site / "adhoc" / "downloads" / "significance.csv",
                        keep_default_na=False)
    return every[every["measure"] == "map"]


def _text(page: Path) -> str:
    return html.unescape(page.read_text(encoding="utf-8"))


def test_the_download_equals_appendix_compare_on_the_same_runs(demo_site, capsys):
    task = load_config(DEMO_CONFIG).tasks[0]
    inputs = read_task(task)
    validate_task(inputs)
    settings = task.significance
    capsys.readouterr()
    status = main(["compare", str(task.qrels), *[str(r.path) for r in inputs.accepted],
                   "--task", "adhoc", *(f"--measure={m}" for m in TESTED),
                   "--test", settings.test,
                   "--correction", settings.correction, "--alpha", str(settings.alpha),
                   "--B", str(settings.resamples), "--seed", str(settings.seed),
                   "--format", "csv"])
    assert status == 0
    printed = capsys.readouterr().out
    download = (demo_site / "adhoc" / "downloads" / "significance.csv").read_text()
    assert printed.count("\n") == 1 + len(TESTED) * 14 * 13 // 2
    assert download == printed


def test_the_seed_and_settings_are_in_the_manifest(demo_site):
    manifest = json.loads((demo_site / "manifest.json").read_text())
    settings = load_config(DEMO_CONFIG).tasks[0].significance
    recorded = manifest["significance"]["adhoc"]
    assert recorded["seed"] == settings.seed
    assert (recorded["test"], recorded["resamples"], recorded["measures"]) == (
        "randomization", 10_000, TESTED)
    assert recorded["correction"] == "holm"


def test_every_page_with_a_result_states_the_settings(demo_site):
    pages = [demo_site / "adhoc" / "index.html", demo_site / "adhoc" / "significance.html",
             *(demo_site / "adhoc" / "runs").glob("*.html")]
    for page in pages:
        text = _text(page)
        assert all(part in text for part in SETTINGS_TEXT), page


def test_the_significance_page_has_the_heatmap_and_the_top_group(demo_site, pairs):
    text = (demo_site / "adhoc" / "significance.html").read_text()
    data = re.search(r'id="figure-significance-map-data">(.*?)</script>', text).group(1)
    heatmap = json.loads(data)["data"][0]
    leaderboard = pd.read_csv(demo_site / "adhoc" / "index.leaderboard-adhoc.csv", keep_default_na=False)
    runs = list(leaderboard["Run"])
    assert heatmap["type"] == "heatmap"
    # plotly.js reads markup in labels: names go in with &, <, > as entities, shown as text
    assert heatmap["x"] == heatmap["y"] == [html.escape(run, quote=False) for run in runs]
    cells = {(a, b): p for a, row in zip(runs, heatmap["z"]) for b, p in zip(runs, row)}
    for row in pairs.itertuples():
        assert cells[row.run_a, row.run_b] == cells[row.run_b, row.run_a] == round(
            row.p_adjusted, 4)
        assert (heatmap["text"][runs.index(row.run_a)][runs.index(row.run_b)] == "*") == bool(
            row.significant)
    top = pairs[pairs["run_a"] == runs[0]]
    group = {runs[0]} | set(top.loc[~top["significant"], "run_b"])
    marked = set(leaderboard.loc[leaderboard["Top group"] == "●", "Run"])
    assert marked == group
    assert "Discriminative power" in text


def _names(fragment: str) -> set[str]:
    return {html.unescape(name) for name in re.findall(r'\.html">([^<]*)</a>', fragment)}


def test_each_run_page_lists_better_worse_and_indistinguishable_runs_as_the_csv(demo_site, pairs):
    pages = sorted((demo_site / "adhoc" / "runs").glob("*.html"))
    assert len(pages) == 14
    significant = pairs[pairs["significant"]]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        run = html.unescape(re.search(r'<h1>Run <span class="name">(.*?)</span>', text).group(1))
        section = text.split('id="significance-heading"', 1)[1].split("</section>", 1)[0]
        better = section.split('id="better-map"', 1)[1].split("</table>", 1)[0] \
            if 'id="better-map"' in section else ""
        worse = section.split('id="worse-map"', 1)[1].split("</table>", 1)[0] \
            if 'id="worse-map"' in section else ""
        same = section.split("Not significantly different from</h4>", 1)[1].split("</p>", 1)[0]
        expected_better = set(significant.loc[significant["run_a"] == run, "run_b"])
        expected_worse = set(significant.loc[significant["run_b"] == run, "run_a"])
        others = (set(pairs["run_a"]) | set(pairs["run_b"])) - {run}
        assert _names(better) == expected_better, run
        assert _names(worse) == expected_worse, run
        assert _names(same) == others - expected_better - expected_worse, run
        assert page.stat().st_size < 100_000


def test_the_reader_chooses_the_measure_of_the_tests(demo_site: Path, visit) -> None:
    """Every shown measure is tested at build time; the significance page and the compare
    page offer each of them, under its display name."""
    page = visit(demo_site / "adhoc" / "significance.html").page
    select = page.locator("select[data-measure-switch]")
    assert select.locator("option").all_inner_texts() == ["MAP (official)", "P@10", "R-prec"]
    assert page.locator("[data-measure-view]:not([hidden]) h2").inner_text() == "MAP"
    select.select_option("1")
    shown = page.locator("[data-measure-view]:not([hidden])")
    assert shown.locator("h2").inner_text() == "P@10"
    shown.locator(".plot-area[data-drawn] .main-svg").first.wait_for()
    compare = visit(demo_site / "adhoc" / "compare.html").page
    assert compare.locator("#pair-measure option").all_inner_texts() == ["MAP", "P@10", "R-prec"]


def test_a_joint_test_is_recorded_without_the_configured_correction(tmp_path):
    """Tukey HSD compares all runs at once: the manifest records no correction for the task
    (the config keeps its own ``correction``, as written) and no page speaks of Holm."""
    from tests.archive.campaign import appendix, write_campaign

    config = write_campaign(tmp_path / "campaign", publish_inputs=False)
    config.write_text(config.read_text().replace("significance: {B: 200}",
                                                 "significance: {B: 200, test: tukey-hsd}"))
    out = tmp_path / "site"
    assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    manifest = json.loads((out / "manifest.json").read_text())
    recorded = manifest["significance"]["adhoc"]
    assert (recorded["test"], recorded["correction"]) == ("tukey-hsd", "none")
    for page in [out / "index.html", out / "adhoc" / "significance.html",
                 *(out / "adhoc" / "runs").glob("*.html")]:
        text = _text(page)
        assert "Tukey HSD" in text and "Holm" not in text, page
