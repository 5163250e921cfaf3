"""Tables whose trailing columns are numbers are marked once, by the table's class
(``num-from-K``), not by each cell's: in a real headless browser on the demo site, those
columns are right-aligned by the shared stylesheet and sorted as numbers by ``tables.js``,
the other columns stay left-aligned, and a run page's links to the other runs' pages (written
relative to its own folder) open pages that exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

ALIGNMENTS = """(selector) => [...document.querySelector(selector).tBodies[0].rows[0].cells]
    .map(c => getComputedStyle(c).textAlign)"""
COLUMN = """([selector, index]) => [...document.querySelector(selector).tBodies[0].rows]
    .map(r => r.cells[index].textContent.trim())"""


def test_a_table_marked_numeric_from_a_column_aligns_and_sorts_them_as_numbers(
        demo_site: Path, visit: Any) -> None:
    seen = visit(demo_site / "adhoc" / "judgements.html")
    page = seen.page
    table = "#judged-topics"
    assert page.get_attribute(table, "class") == "num-from-2"
    assert page.locator(f"{table} td.num").count() == 0  # no cell carries the mark itself
    assert page.evaluate(ALIGNMENTS, table) == ["left"] + ["right"] * 5
    judged = [int(v) for v in page.evaluate(COLUMN, [table, 1])]
    assert sorted(judged, reverse=True) != judged
    # as text "95" sorts above "248": the column must sort as numbers to pass
    assert sorted(map(str, judged), reverse=True) != [str(v) for v in sorted(judged, reverse=True)]
    page.locator(f"{table} thead th").filter(has_text="Judged").first.locator("button").click()
    assert [int(v) for v in page.evaluate(COLUMN, [table, 1])] == sorted(judged, reverse=True)
    assert seen.console_errors == []


def test_run_page_comparisons_align_and_link_to_the_other_runs(demo_site: Path,
                                                                visit: Any) -> None:
    runs = demo_site / "adhoc" / "runs"
    page = visit(runs / "tamBase.html").page
    tables = page.eval_on_selector_all(
        "table[id^='better-'], table[id^='worse-']", "ts => ts.map(t => '#' + t.id)")
    assert tables
    for table in tables:
        assert page.evaluate(ALIGNMENTS, table) == ["left"] + ["right"] * 5
    links = page.eval_on_selector_all(
        "#significance-heading ~ * a[href$='.html']", "as => as.map(a => a.href)")
    others = {unquote(urlparse(href).path) for href in links
              if "/adhoc/runs/" in unquote(urlparse(href).path)}
    assert len(others) == len(list(runs.glob("*.html"))) - 1  # every other run, not itself
    assert all(Path(path).is_file() for path in others)
