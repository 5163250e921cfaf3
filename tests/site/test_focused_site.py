"""The focused task on the demo site and on the ipcs example: leaderboard, run page,
rejected run, INEX topic text."""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

import pandas as pd
import pytest

from builder.cli import main
from builder.contract import SUMMARY_TOPIC
from builder.demo.inex.runs import runs_of
from builder.demo.inex.topics import FIRST_TOPIC, TOPICS
from builder.tasks import get_kind
from tests.site.site_checks import broken_references

ROOT = Path(__file__).resolve().parents[2]
FOCUSED = ROOT / "data" / "inex" / "focused"
OVERLAPPING_RUN = "kestrelFocFusion"
RUN_FILES = {run.tag: FOCUSED / run.file_name for run in runs_of("focused")}
"""The demo's focused runs: run tag (the run's name) -> its file."""


def _table_rows(page: str, table_id: str) -> list[list[str]]:
    """The cell texts of the table ``table_id`` of ``page``, body rows only."""
    body = page.split(f'<table id="{table_id}"', 1)[1].split("</table>", 1)[0]
    body = body.split("<tbody>", 1)[1]
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in
             re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)]


@pytest.fixture(scope="module")
def evaluator_order() -> list[str]:
    """The valid demo runs by iP[0.01], best first, as the focused engine scores them."""
    kind = get_kind("focused")
    qrels = kind.read_qrels(ROOT / "data" / "inex" / "qrels.txt")
    reads = kind.read_runs(sorted(FOCUSED.iterdir()), qrels, kind.options_model())
    runs = pd.concat([read.table for read in reads if not read.rejected])
    scores = kind.evaluate(qrels, runs, kind.options_model()).scores
    official = scores[(scores["topic"] == SUMMARY_TOPIC) & (scores["measure"] == "iP[0.01]")]
    return official.sort_values(["value", "run"], ascending=[False, True])["run"].tolist()


def test_leaderboard_follows_the_evaluators_official_order(demo_site: Path, evaluator_order):
    home = (demo_site / "focused" / "index.html").read_text()
    rows = _table_rows(home, "leaderboard-focused")
    assert [row[1] for row in rows] == evaluator_order
    header = home.split('<table id="leaderboard-focused"', 1)[1].split("</thead>", 1)[0]
    for measure in ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "MAiP"):
        assert f"<th scope=\"col\" title=\"{measure}\">{measure}</th>" in header


def test_overlapping_run_is_listed_with_its_lines(demo_site: Path):
    home = (demo_site / "focused" / "index.html").read_text()
    rejected = _table_rows(home, "rejected-focused")
    assert [row[0] for row in rejected] == [OVERLAPPING_RUN]
    assert re.match(r"line \d+: passage overlaps the passage of line \d+", rejected[0][1])
    validation = (demo_site / "focused" / "validation" / f"{OVERLAPPING_RUN}.html").read_text()
    errors = [row for row in _table_rows(validation, "findings") if row[1] == "error"]
    assert len(errors) >= 2
    lines = RUN_FILES[OVERLAPPING_RUN].read_text().splitlines()
    for line, _, message in errors:
        earlier = int(re.search(r"line (\d+)", message).group(1))
        a, b = lines[earlier - 1].split(), lines[int(line) - 1].split()
        assert (a[0], a[2]) == (b[0], b[2])
        assert int(a[6]) < int(b[6]) + int(b[7]) and int(b[6]) < int(a[6]) + int(a[7])
    assert not (demo_site / "focused" / "runs" / f"{OVERLAPPING_RUN}.html").exists()


def test_run_page_has_the_curve_and_the_ip_table(demo_site: Path, evaluator_order):
    best = evaluator_order[0]
    page = (demo_site / "focused" / "runs" / f"{best}.html").read_text()
    official = _table_rows(page, "measures")
    assert [row[0] for row in official] == ["iP[0.01] (official)", "iP[0.00]", "iP[0.05]",
                                           "iP[0.10]", "MAiP"]
    assert official[0][1] == official[0][3]  # the best run by iP[0.01] is the task best
    curve = _table_rows(page, "ip-curve")
    assert [row[0] for row in curve] == [f"iP[{i / 100:.2f}]" for i in range(101)]
    assert 'id="figure-recall-precision"' in page
    assert 'id="figure-difference-from-median"' in page
    summary = dict(row[:2] for row in _table_rows(page, "summary"))
    passages = sum(1 for line in RUN_FILES[best].read_text().splitlines())
    assert summary["Passages retrieved"] == str(passages)
    assert int(summary["Relevant characters retrieved"]) <= int(summary["Characters retrieved"])
    assert len(_table_rows(page, "per-topic")) == len(TOPICS)


def test_topic_pages_show_the_inex_topic_text(demo_site: Path):
    for offset in (0, 5):
        title, castitle, description, narrative = TOPICS[offset]
        page = (demo_site / "focused" / "topics" / f"{FIRST_TOPIC + offset}.html").read_text()
        for text in (title, castitle, description, narrative):
            assert html.escape(text, quote=False) in page


@pytest.fixture(scope="module")
def ipcs_site(shared_data, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ipcs-focused") / "site"
    config = ROOT / "examples" / "inex_ipcs_focused.yml"
    assert main(["build", "--config", str(config), "--out", str(out), "--quiet"]) == 0
    return out


def test_ipcs_focused_example_builds_with_inex_evals_numbers(ipcs_site: Path, shared_data):
    assert broken_references(ipcs_site) == []
    with open(ipcs_site / "focused" / "downloads" / "summary.csv", newline="") as stream:
        summary = {row["run"]: row for row in csv.DictReader(stream)}
    # Both files carry the run tag TREC2INEX: the example names its runs by file name, less
    # the .run that only says they are runs.
    assert sorted(summary) == ["bert_inex_converted", "bert_inex_converted_1"]
    for run in summary:
        text = (shared_data / "inex_ipcs" / "oracle_inex_eval_3.1"
                / f"inex_eval_-f_-q.{run}.txt").read_text()
        expected = dict(re.findall(r"^(iP\[0\.01\]|MAiP)\s+all\s+(\S+)$", text, re.MULTILINE))
        assert abs(float(summary[run]["iP[0.01]"]) - float(expected["iP[0.01]"])) < 1e-9
        assert abs(float(summary[run]["MAiP"]) - float(expected["MAiP"])) < 1e-9
    assert '<table id="rejected-focused"' not in (ipcs_site / "index.html").read_text()
    topic = (ipcs_site / "focused" / "topics" / "2009001.html").read_text()
    assert "nobel prize" in topic


def test_ipcs_run_page_shows_eprum_when_the_task_enables_it(ipcs_site: Path, shared_data, capsys):
    """``eprum_model: tree`` in the example: the run page's EPRUM table holds the means that
    ``appendix evaluate --task eprum --model tree`` prints for the run."""
    # The example names its runs by file name (both carry one tag).
    page = (ipcs_site / "focused" / "runs" / "bert_inex_converted.html").read_text()
    assert 'id="eprum-heading"' in page
    assert 'id="figure-eprum"' in page
    rows = {row[0]: row[1] for row in _table_rows(page, "eprum")}
    assert list(rows) == [f"P[{i / 10:.2f}]" for i in range(11)] + ["avgP"]
    folder = shared_data / "inex_ipcs"
    capsys.readouterr()
    assert main(["evaluate", "--task", "eprum", "--model", "tree", "--format", "tsv",
                 str(folder / "INEX_Qrels.txt"), str(folder / "runs" / "bert_inex_converted.run")]) == 0
    printed = {measure: float(value) for _, measure, topic, value in
               (line.split("\t") for line in capsys.readouterr().out.splitlines())
               if topic == SUMMARY_TOPIC}
    for measure, shown in rows.items():
        assert abs(float(shown) - printed[measure]) < 0.00005 + 1e-12


def test_demo_run_pages_have_no_eprum_block_by_default(demo_site: Path):
    page = next((demo_site / "focused" / "runs").glob("*.html")).read_text()
    assert "eprum" not in page
