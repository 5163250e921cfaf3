"""Reliability on the demo site: the page per task, its tie table equal to ``appendix ties``,
the leaderboard's ranks under ties, the run pages' line, and the config section."""

from __future__ import annotations

import html
import io
from contextlib import redirect_stdout
from pathlib import Path

import pandas as pd
import pytest

from builder.cli import main
from builder.config.loading import ConfigError
from builder.measures.registry import display_name
from builder.pipeline.stages import load_config, read_task, validate_task
from tests.site.conftest import DEMO_CONFIG
from tests.site.test_config import VALID, write_campaign


def _text(page: Path) -> str:
    return html.unescape(page.read_text(encoding="utf-8"))


def test_every_task_has_a_reliability_page_linked_from_the_home_page(demo_site):
    home = _text(demo_site / "index.html")
    for task in load_config(DEMO_CONFIG).tasks:
        page = demo_site / task.id / "reliability.html"
        assert page.is_file()
        assert f'href="{task.id}/reliability.html"' in home
        assert "Kendall's tau" in _text(page)
    assert "Pool bias" not in _text(demo_site / "adhoc" / "reliability.html")  # no pool depth


def test_the_tie_table_equals_appendix_ties(demo_site):
    task = load_config(DEMO_CONFIG).tasks[0]
    inputs = read_task(task)
    validate_task(inputs)
    out = io.StringIO()
    with redirect_stdout(out):
        main(["ties", str(task.qrels), *[str(r.path) for r in inputs.accepted],
              "-m", task.official_measure])
    cli = pd.read_csv(io.StringIO(out.getvalue()), sep="\t").set_index("run")
    site = pd.read_csv(demo_site / "adhoc" / "reliability.ties.csv").set_index("Run")
    assert sorted(site.index) == sorted(cli.index)
    for column in ("official", "worst", "best", "expected"):
        assert (site[column.capitalize()] - cli.loc[site.index, column]).abs().max() < 0.00005 + 1e-12


def test_leaderboard_ranks_under_ties_and_run_page_line(demo_site):
    board = pd.read_csv(demo_site / "adhoc" / "index.leaderboard-adhoc.csv", keep_default_na=False)
    ties = pd.read_csv(demo_site / "adhoc" / "reliability.ties.csv").set_index("Run")
    assert "Ranks under ties" in board.columns
    for run, cell in zip(board["Run"], board["Ranks under ties"]):
        possible = ties.loc[run, "Possible ranks"]
        assert cell == ("" if possible.split("–")[0] == possible.split("–")[1] else possible)
    page = _text(demo_site / "adhoc" / "runs" / f"{board['Run'][0]}.html")
    assert "Reliability:" in page and "of its top 10 documents unjudged" in page
    assert 'href="../../adhoc/reliability.html"' in page


def test_the_reliability_section_is_checked_and_can_be_disabled(tmp_path):
    off = VALID.replace("options: {max_results: 10}",
                        "options: {max_results: 10}\n    reliability: {enabled: false}")
    assert load_config(write_campaign(tmp_path / "a", off)).tasks[0].reliability is None
    bad = VALID.replace("options: {max_results: 10}",
                        "options: {max_results: 10}\n    reliability: {measures: [nope], "
                        "iterations: 0}")
    with pytest.raises(ConfigError) as error:
        load_config(write_campaign(tmp_path / "b", bad))
    assert any("reliability.iterations" in p for p in error.value.problems)
    unknown = VALID.replace("options: {max_results: 10}",
                            "options: {max_results: 10}\n    reliability: {measures: [nope]}")
    with pytest.raises(ConfigError) as error:
        load_config(write_campaign(tmp_path / "c", unknown))
    assert any("reliability.measures[0]: unknown focused measure 'nope'" in p
               for p in error.value.problems)


def test_the_measure_agreement_table_equals_appendix_correlate(demo_site):
    task = next(t for t in load_config(DEMO_CONFIG).tasks if t.id == "adhoc")
    inputs = read_task(task)
    validate_task(inputs)
    out = io.StringIO()
    with redirect_stdout(out):
        main(["correlate", str(task.qrels), *[str(r.path) for r in inputs.accepted],
              *[flag for m in task.measures for flag in ("-m", m)], "--format", "csv"])
    cli = pd.read_csv(io.StringIO(out.getvalue()))
    site = pd.read_csv(demo_site / "adhoc" / "reliability.measure-agreement.csv")
    pairs = len(task.measures) * (len(task.measures) - 1) // 2
    assert len(site) == len(cli) == 2 * pairs
    # the page names measures by their display names (MAP), appendix correlate by trec_eval's
    assert list(site["Measure A"]) == [display_name(task.kind.family, m) for m in cli["measure_a"]]
    for site_column, column in (("Kendall's tau", "kendall_tau"), ("Pearson", "pearson"),
                                ("Spearman", "spearman"), ("tau_ap (A as reference)", "tau_ap")):
        assert (site[site_column] - cli[column]).abs().max() < 0.00005 + 1e-12
