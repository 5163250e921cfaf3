"""A campaign of several tasks (the demo's five), in Debian's chromium: the home page lists each
task with its best runs, ranked as the task's leaderboard ranks them (shared ranks, rank 5 or
better), and leads to the task's own page, which holds its whole leaderboard."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import yaml

from tests.site.browser import ROOT


def test_the_home_page_lists_each_tasks_best_runs_and_leads_to_its_page(
        demo_site: Path, visit: Any) -> None:
    tasks = [t["id"] for t in yaml.safe_load((ROOT / "site_config.yml").read_text())["tasks"]]
    home = visit(demo_site / "index.html", viewport=(1366, 900)).page
    for task in tasks:
        with open(demo_site / task / f"index.leaderboard-{task}.csv", newline="",
                  encoding="utf-8") as stream:
            board = list(csv.DictReader(stream))
        best = [(row["Rank"], row["Run"]) for row in board if int(row["Rank"]) <= 5]
        shown = home.evaluate("""task => [...document.querySelectorAll(
            `#top-runs-${task} tbody tr`)].map(r => [r.cells[0].textContent.trim(),
            r.cells[1].textContent.trim()])""", task)
        assert [tuple(row) for row in shown] == best, task
        assert len(board) > len(best) or len(board) <= 5
    home.get_by_role("link", name="INEX focused retrieval", exact=True).click()
    home.wait_for_load_state("load")
    assert home.url.endswith("/focused/index.html")
    rows = home.locator("#leaderboard-focused tbody tr").count()
    with open(demo_site / "focused" / "index.leaderboard-focused.csv", newline="",
              encoding="utf-8") as stream:
        assert rows == len(list(csv.DictReader(stream)))
    assert home.locator("a[href$='focused/appendix.html']").count() == 1
