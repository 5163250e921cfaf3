"""A task's printable appendix (``TASK/appendix.html``, ``builder.site.runs.volume``), printed
by Debian's chromium to A4 (``page.pdf``) and read back (pdfplumber): one sheet per run, in
leaderboard order, every figure inside the sheet, every id of the document unique; each run
page links to its sheet."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import pytest

from tests.site.browser import print_to_a4

A4_WIDTH = 595.3
"""Points."""


def _leaderboard(site: Path, task: str) -> list[str]:
    with open(site / task / f"index.leaderboard-{task}.csv", newline="",
              encoding="utf-8") as stream:
        return [row["Run"] for row in csv.DictReader(stream)]


def _sheets(visit: Any, site: Path, task: str, pdf: Path) -> list[tuple[str, Any]]:
    """The printed appendix of ``task``: per sheet, its text and its objects' boxes."""
    import pdfplumber

    seen = visit(site / task / "appendix.html", viewport=(1366, 900))
    print_to_a4(seen.page, pdf)
    assert seen.console_errors == []
    with pdfplumber.open(pdf) as document:
        return [(sheet.extract_text(), sheet.width,
                 [(o["x0"], o["x1"]) for o in sheet.chars + sheet.rects + sheet.lines
                  + sheet.curves])
                for sheet in document.pages]


def _check(sheets: list, runs: list[str], figure_words: set[str]) -> None:
    assert len(sheets) == len(runs)  # one A4 sheet per run, no more
    for (text, width, boxes), run in zip(sheets, runs):
        assert abs(width - A4_WIDTH) < 1
        assert text.splitlines()[0] == f"Run {run}"  # leaderboard order, a sheet each
        assert boxes and min(x0 for x0, _ in boxes) >= 0
        assert max(x1 for _, x1 in boxes) <= width  # nothing past the sheet's edge
        words = set(text.split())
        assert figure_words <= words, (run, figure_words - words)  # the figures printed


def test_the_appendix_prints_one_sheet_per_run_in_leaderboard_order(
        demo_site: Path, visit: Any, tmp_path: Path) -> None:
    runs = _leaderboard(demo_site, "adhoc")
    sheets = _sheets(visit, demo_site, "adhoc", tmp_path / "appendix.pdf")
    _check(sheets, runs, {"Recall", "Precision", "Topic"})
    first = sheets[0][0]
    for table in ("Summary statistics", "Recall-level precision averages",
                  "Document-level averages", "Official and shown measures over all topics"):
        assert table in first


@pytest.mark.slow
@pytest.mark.parametrize("task", ["focused", "relevant-in-context", "best-in-context",
                                  "elements"])
def test_every_kinds_appendix_prints_one_sheet_per_run(
        demo_site: Path, visit: Any, tmp_path: Path, task: str) -> None:
    sheets = _sheets(visit, demo_site, task, tmp_path / "appendix.pdf")
    # tick labels of the figures (the tables print four decimals)
    _check(sheets, _leaderboard(demo_site, task), {"0.5", "1.0"})


def test_ids_are_unique_and_every_figure_lies_within_its_printed_sheet(
        demo_site: Path, visit: Any) -> None:
    page = visit(demo_site / "adhoc" / "appendix.html", viewport=(1366, 900)).page
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    # every reference inside a figure (clip paths, markers) names an id of the document
    references = page.evaluate("""() => [...document.querySelectorAll('svg [clip-path], svg use')]
        .map(e => (e.getAttribute('clip-path') || e.getAttribute('xlink:href')
                   || e.getAttribute('href')).replace(/^url\\(#|\\)$|^#/g, ''))""")
    assert references and set(references) <= set(ids)
    page.emulate_media(media="print")
    figures = page.evaluate("""() => [...document.querySelectorAll('.sheet')].map(sheet => {
        const box = sheet.getBoundingClientRect();
        return [...sheet.querySelectorAll('.paper-figure svg')].map(svg => {
            const b = svg.getBoundingClientRect();
            return [b.left - box.left, box.right - b.right]; });
    })""")
    runs = _leaderboard(demo_site, "adhoc")
    assert len(figures) == len(runs)
    for sheet in figures:
        assert len(sheet) >= 2  # the recall-precision curve, the difference from the median
        assert all(left >= 0 and right >= 0 for left, right in sheet)


def test_each_run_page_links_to_its_sheet(demo_site: Path) -> None:
    volume = (demo_site / "adhoc" / "appendix.html").read_text(encoding="utf-8")
    for page in (demo_site / "adhoc" / "runs").glob("*.html"):
        link = re.search(r'href="\.\./\.\./adhoc/appendix\.html#([^"]+)"',
                         page.read_text(encoding="utf-8"))
        assert link, page.name
        assert f'<section class="sheet" id="{link.group(1)}"' in volume
    board = (demo_site / "adhoc" / "index.html").read_text(encoding="utf-8")
    assert 'href="../adhoc/appendix.html"' in board


def test_the_appendix_of_143_runs_stays_small(covid_site: Path) -> None:
    """TREC-COVID round 1: the run pages are 150 KB each (per-topic tables, significance);
    the sheets leave those out, so the document grows by 30 KB a run (two static figures
    and the summary tables), not by a page."""
    volume = covid_site / "covid" / "appendix.html"
    text = volume.read_text(encoding="utf-8")
    assert text.count('<section class="sheet"') == 143
    assert volume.stat().st_size < 6_000_000
    assert "plotly" not in text  # static figures: the document opens and prints at once
