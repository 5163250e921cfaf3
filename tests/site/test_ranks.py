"""Shared ranks and duplicate runs: runs with exactly equal official scores share a rank,
competition style (1, 2, 2, 4), on the leaderboard (page and CSV), in its LaTeX and Markdown
and on the reliability page; a copy of a run (another tag, its scores written otherwise, its
lines shuffled) is marked as a duplicate of its original on the leaderboard, its CSV, its run
page and the build's console. On TREC-COVID round 1, ranks follow the full-precision summary."""

from __future__ import annotations

import csv
import html
import io
import json
import random
import shutil
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

from tests.site.browser import ROOT

ORIGINAL, COPY = "nbuRM3", "nbuRM3copy"
CONFIG = """
campaign: {title: Ranks}
output: site
tasks:
  - id: adhoc
    title: Ad hoc
    kind: adhoc
    qrels: data/qrels.txt
    topics: data/topics.txt
    runs: data/runs/
    run_metadata: data/runs.csv
    official_measure: map
    measures: [map, P_10]
"""


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The demo's ad hoc campaign with a copy of one run, built; the site and the console."""
    root = tmp_path_factory.mktemp("ranks")
    shutil.copytree(ROOT / "data" / "adhoc", root / "data")
    lines = (root / "data" / "runs" / f"{ORIGINAL}.txt").read_text().splitlines()
    rows = [line.split() for line in lines]
    # Twice the score (the same order, exactly) in another spelling, another tag, shuffled.
    copy = [f"{t} Q0 {d} {r} {float(s) * 2!r}0 {COPY}" for t, _, d, r, s, _ in rows]
    random.Random(7).shuffle(copy)
    (root / "data" / "runs" / f"{COPY}.txt").write_text("\n".join(copy) + "\n")
    (root / "site_config.yml").write_text(CONFIG)
    from builder.cli import main

    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["build", "--config", str(root / "site_config.yml")])
    assert status == 0, err.getvalue()
    return root / "site", err.getvalue()


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _competition(values: dict[str, float]) -> dict[str, int]:
    return {run: 1 + sum(other > value for other in values.values())
            for run, value in values.items()}


def test_a_copied_run_shares_its_originals_rank_everywhere(copied, visit: Any) -> None:
    site, _ = copied
    summary = {row["run"]: row["map"] for row in json.loads(
        (site / "adhoc" / "downloads" / "summary.json").read_text())}
    assert summary[ORIGINAL] == summary[COPY]
    expected = _competition(summary)
    board = _rows(site / "index.leaderboard-adhoc.csv")
    ranks = {row["Run"]: int(row["Rank"]) for row in board}
    assert ranks == expected
    assert ranks[ORIGINAL] == ranks[COPY]
    after = [r for r in ranks.values() if r > ranks[ORIGINAL]]
    assert min(after) == ranks[ORIGINAL] + 2  # competition style: the next rank is skipped

    page = visit(site / "index.html").page
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#leaderboard-adhoc tbody tr')].map(r => [r.cells[1].textContent.trim(),
        r.cells[0].textContent.trim()]))""")
    assert {run: int(rank) for run, rank in shown.items()} == expected

    for name, cell in (("leaderboard.md", lambda line: line.split("|")[1:3]),
                       ("leaderboard.tex", lambda line: line.split("&")[:2])):
        text = (site / "adhoc" / "downloads" / name).read_text()
        cells = {}
        for line in text.splitlines():
            parts = [html.unescape(p.strip()).replace("\\_", "_")
                     .replace("$^\\dagger$", "").rstrip(" †")
                     for p in cell(line)] if ("|" in line or "&" in line) else []
            if len(parts) == 2 and parts[0].isdigit():
                cells[parts[1]] = int(parts[0])
        assert cells == expected, name

    ties = {row["Run"]: int(row["Rank"]) for row in _rows(site / "adhoc" / "reliability.ties.csv")
            if row["Measure"] == "MAP"}
    assert ties == expected
    reliability = visit(site / "adhoc" / "reliability.html").page
    on_page = reliability.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#ties tbody tr')].filter(r => r.cells[1].textContent.trim() === 'MAP')
        .map(r => [r.cells[0].textContent.trim(), r.cells[6].textContent.trim()]))""")
    assert {run: int(rank) for run, rank in on_page.items()} == expected


def test_a_copied_run_is_marked_duplicate(copied, visit: Any) -> None:
    site, console = copied
    board = {row["Run"]: row for row in _rows(site / "index.leaderboard-adhoc.csv")}
    assert board[COPY]["Same ranking as"] == ORIGINAL
    assert board[ORIGINAL]["Same ranking as"] == COPY
    assert {run for run, row in board.items() if row["Same ranking as"]} == {ORIGINAL, COPY}
    page = visit(site / "index.html").page
    header = page.locator("#leaderboard-adhoc thead th").last.inner_text()
    assert "Same ranking as" in header
    run_page = visit(site / "adhoc" / "runs" / f"{COPY}.html").page
    assert f"the same documents in the same order for every topic as {ORIGINAL}" in (
        run_page.locator(".duplicate").inner_text())
    assert f"duplicate runs (the same documents in the same order for every topic): " \
           f"{ORIGINAL}, {COPY}" in console


def test_covid_ranks_follow_the_full_precision_scores(covid_site: Path) -> None:
    summary = {row["run"]: row["ndcg_cut_10"] for row in json.loads(
        (covid_site / "covid" / "downloads" / "summary.json").read_text())}
    board = _rows(covid_site / "index.leaderboard-covid.csv")
    ranks = {row["Run"]: int(row["Rank"]) for row in board}
    assert ranks == _competition(summary)
    assert len(set(ranks.values())) < len(ranks)  # some runs tie exactly
