"""The site at a phone's, a tablet's and a laptop's width (390, 768, 1366 px) and on A4 paper,
in Debian's chromium: the leaderboard's rank, run and official measure lie in the viewport
without sideways scrolling, no page scrolls sideways, a bar chart of more runs than its width
can name turns to named horizontal bars, a matrix too large for the screen is left for a list,
and a run page printed to A4 (``page.pdf``) keeps every figure within the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.site.browser import page_samples

WIDTHS = (390, 768, 1366)


def _scrolls_sideways(page: Any) -> bool:
    return page.evaluate("""() => document.documentElement.scrollWidth >
        document.documentElement.clientWidth""")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_leaderboards_rank_run_and_official_measure_are_in_view(
        covid_site: Path, visit: Any, width: int) -> None:
    page = visit(covid_site / "index.html", viewport=(width, 900)).page
    page.locator("#leaderboard-covid").scroll_into_view_if_needed()
    boxes = page.evaluate("""() => {
        const table = document.querySelector('#leaderboard-covid');
        const headers = [...table.tHead.rows[0].cells].map(th => th.textContent.trim());
        const columns = ['Rank', 'Run', 'nDCG@10'].map(h => headers.findIndex(
            text => text.startsWith(h)));
        return [...table.rows].slice(0, 25).map(row => columns.map(c => {
            const box = row.cells[c].getBoundingClientRect();
            return [box.left, box.right];
        }));
    }""")
    assert len(boxes) == 25
    for row in boxes:
        for left, right in row:
            assert 0 <= left < right <= width, (width, row)
    assert not _scrolls_sideways(page)


@pytest.mark.slow
def test_no_page_scrolls_sideways(demo_site: Path, covid_site: Path, visit: Any) -> None:
    """Every kind of page of the demo (``page_samples``) on a phone, and TREC-COVID's largest
    pages at every width."""
    covid = [covid_site / name for name in ("index.html", "covid/significance.html",
                                            "covid/runs/BBGhelani1.html", "covid/compare.html",
                                            "covid/reliability.html", "downloads.html")]
    page = visit(covid[0], viewport=(390, 800)).page
    wide = []
    for width, pages in ((390, [*page_samples(demo_site), *covid]), (768, covid), (1366, covid)):
        page.set_viewport_size({"width": width, "height": 800})
        for path in pages:
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            if _scrolls_sideways(page):
                wide.append((width, path.as_posix()))
    assert wide == []


def test_a_bar_chart_of_many_runs_names_every_run(covid_site: Path, visit: Any) -> None:
    for width in (390, 1366):
        page = visit(covid_site / "index.html", viewport=(width, 900)).page
        page.wait_for_selector("#figure-leaderboard-covid[data-drawn] .main-svg")
        names = page.evaluate("""() => [...document.querySelectorAll(
            '#figure-leaderboard-covid .ytick text')].map(t => t.textContent)""")
        runs = {p.stem for p in (covid_site / "covid" / "runs").glob("*.html")}
        assert len(names) == len(runs) == 143
        assert {"run1", "BBGhelani1", "BBGhelani2", "tm_lda400"} <= set(names)


def test_a_matrix_too_large_for_a_phone_gives_way_to_lists(covid_site: Path, visit: Any) -> None:
    page = visit(covid_site / "covid" / "significance.html", viewport=(390, 900)).page
    note = page.locator(".figure-note").first
    assert "too large for this screen" in note.inner_text()
    assert page.locator(".plot-area[data-skipped]").count() >= 1
    wide = visit(covid_site / "covid" / "significance.html", viewport=(1366, 900)).page
    wide.wait_for_selector(".plot-area[data-drawn] .main-svg")
    assert wide.locator(".figure-note").count() == 0


def test_a_run_page_printed_to_a4_keeps_every_figure_within_the_page(
        covid_site: Path, visit: Any, tmp_path: Path) -> None:
    import pdfplumber

    page = visit(covid_site / "covid" / "runs" / "BBGhelani1.html", viewport=(1366, 900)).page
    page.wait_for_selector("[data-drawn] .main-svg")
    page.emulate_media(media="print")
    page.evaluate("""() => new Promise(done => {
        const figures = [...document.querySelectorAll('[data-drawn]')];
        let left = figures.length;
        figures.forEach(f => f.once('plotly_relayout', () => { left -= 1; if (!left) done(); }));
        window.dispatchEvent(new Event('beforeprint'));
        setTimeout(done, 20000);
    })""")
    pdf = tmp_path / "run.pdf"
    page.pdf(path=str(pdf), format="A4")
    with pdfplumber.open(pdf) as document:
        assert len(document.pages) >= 2
        texts = set()
        for sheet in document.pages:
            assert abs(sheet.width - 595.3) < 1  # A4, in points
            drawn = sheet.chars + sheet.rects + sheet.lines + sheet.curves
            assert drawn
            assert min(o["x0"] for o in drawn) >= 0
            assert max(o["x1"] for o in drawn) <= sheet.width
            texts |= {w["text"] for w in sheet.extract_words()}
    # the figures were printed: their axis titles are on the sheets
    assert {"Recall", "Precision", "Topic"} <= texts
