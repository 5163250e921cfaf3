"""A run page prints as a clean appendix: printed by chromium (``--print-to-pdf``), its text
read back from the PDF (pdfplumber): no two words overlap (axis titles, tick labels, legend),
no heading is the last line of a page, and the figures take the printed page's width."""

from __future__ import annotations

import subprocess
from itertools import combinations
from pathlib import Path

import pytest

from tests.site.browser import CHROMIUM, CHROMIUM_ARGS, require_file

TOLERANCE = 0.5
"""Points two words' boxes may share (glyph boxes of adjacent letters touch)."""


def print_to_pdf(page: Path, pdf: Path) -> None:
    require_file(CHROMIUM, "chromium")
    subprocess.run([str(CHROMIUM), *CHROMIUM_ARGS, "--headless", "--no-pdf-header-footer",
                    "--virtual-time-budget=10000", f"--print-to-pdf={pdf}", page.as_uri()],
                   check=True, capture_output=True, timeout=180)


def overlapping_words(words: list[dict]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes intersect by more than ``TOLERANCE`` in both directions."""
    pairs = []
    for a, b in combinations(words, 2):
        width = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
        height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
        if width > TOLERANCE and height > TOLERANCE:
            pairs.append((a["text"], b["text"]))
    return pairs


@pytest.fixture(scope="module")
def printed(demo_site: Path, tmp_path_factory) -> list:
    import pdfplumber
    pdf = tmp_path_factory.mktemp("print") / "run.pdf"
    print_to_pdf(demo_site / "adhoc" / "runs" / "irisQL.html", pdf)
    with pdfplumber.open(pdf) as document:
        return [(page.extract_words(keep_blank_chars=False, use_text_flow=False), page.height)
                for page in document.pages]


def test_a_printed_run_page_has_no_overlapping_text(printed):
    assert len(printed) >= 2
    assert sum(len(words) for words, _ in printed) > 500  # tables, figures' labels and all
    figure_words = {"Recall", "Precision", "median", "Topic"}
    assert figure_words <= {w["text"] for words, _ in printed for w in words}
    for number, (words, _) in enumerate(printed, 1):
        assert overlapping_words(words) == [], f"page {number}"


def test_no_heading_is_stranded_at_the_foot_of_a_printed_page(printed, demo_site: Path):
    import re

    html = (demo_site / "adhoc" / "runs" / "irisQL.html").read_text()
    headings = {re.sub(r"<[^>]+>", "", h).strip()
                for h in re.findall(r"<h[234][^>]*>(.*?)</h[234]>", html)}
    for number, (words, _) in enumerate(printed[:-1], 1):
        last = max(w["bottom"] for w in words)
        line = " ".join(w["text"] for w in sorted(words, key=lambda w: w["x0"])
                        if abs(w["bottom"] - last) < 2)
        assert line not in headings, f"page {number} ends with the heading {line!r}"


def test_printed_figures_take_the_page_width(demo_site: Path, browser):
    page = browser.new_page()
    try:
        page.goto((demo_site / "adhoc" / "runs" / "irisQL.html").as_uri())
        page.wait_for_selector("[data-drawn] .main-svg")
        page.emulate_media(media="print")
        # Plotly ends each figure's resize with the event plotly_relayout: waited for (the
        # minute only turns a resize that never comes into a failure).
        page.evaluate("""() => {
            const resized = [...document.querySelectorAll('[data-drawn]')].map(
                figure => new Promise(done => figure.once('plotly_relayout', done)));
            window.dispatchEvent(new Event('beforeprint'));
            const never = new Promise((_, fail) => setTimeout(
                () => fail(new Error('a figure was not resized for print')), 60000));
            return Promise.race([Promise.all(resized), never]).then(() => resized.length);
        }""")
        widths = page.evaluate("""() => {
            // the printed page's width: A4's printable width (680 px) on a wider layout
            const main = Math.min(680, document.querySelector('main').getBoundingClientRect().width);
            return [...document.querySelectorAll('[data-drawn] .main-svg')]
                .filter(svg => svg.closest('.plot-area') === svg.parentElement.closest('.plot-area'))
                .map(svg => svg.getBoundingClientRect().width / main);
        }""")
    finally:
        page.close()
    assert widths and min(widths) > 0.95 and max(widths) <= 1.0, widths


PRINTED_PAGES = ("index.html", "adhoc/index.html", "adhoc/significance.html",
                 "adhoc/reliability.html", "adhoc/judgements.html", "adhoc/runs/irisQL.html",
                 "focused/runs/irisFocManual.html", "relevant-in-context/runs/kestrelRicDense.html",
                 "elements/runs/ndParagraphs.html", "measures.html", "downloads.html")
"""A page of every kind that draws a figure or a wide table, in every family of runs."""


@pytest.mark.slow
def test_every_kind_of_page_prints_on_a4_with_nothing_past_the_edge(
        demo_site: Path, visit, tmp_path: Path) -> None:
    import pdfplumber

    from tests.site.browser import print_to_a4

    topic = min((demo_site / "adhoc" / "topics").glob("4*.html"))
    for path in [*(demo_site / p for p in PRINTED_PAGES), topic]:
        seen = visit(path, viewport=(1366, 900))
        pdf = tmp_path / f"{path.stem}.pdf"
        print_to_a4(seen.page, pdf)
        with pdfplumber.open(pdf) as document:
            for number, sheet in enumerate(document.pages, 1):
                assert abs(sheet.width - 595.3) < 1
                drawn = sheet.chars + sheet.rects + sheet.lines + sheet.curves
                where = f"{path.relative_to(demo_site)} sheet {number}"
                assert drawn, where
                assert min(o["x0"] for o in drawn) >= 0, where
                assert max(o["x1"] for o in drawn) <= sheet.width, where
                # text cut at the foot (chromium also paints, clipped, the white ground of a
                # figure moved whole to the next sheet: only ink counts)
                assert max(c["bottom"] for c in sheet.chars) <= sheet.height, where


def test_a_printed_per_topic_curve_reaches_recall_one(demo_site: Path, visit) -> None:
    page = visit(demo_site / "adhoc" / "runs" / "irisQL.html", viewport=(1366, 900)).page
    page.wait_for_selector("#figure-uninterpolated-topic[data-drawn] .main-svg")
    page.emulate_media(media="print")
    page.evaluate("""() => new Promise(done => {
        document.getElementById('figure-uninterpolated-topic').once('plotly_relayout', done);
        window.dispatchEvent(new Event('beforeprint'));
    })""")
    ticks = page.evaluate("""() => {
        const figure = document.getElementById('figure-uninterpolated-topic');
        const right = figure.querySelector('.main-svg').getBoundingClientRect().right;
        return [...figure.querySelectorAll('.xtick text')].map(t => [t.textContent,
            t.getBoundingClientRect().right <= right]);
    }""")
    labels = [text for text, _ in ticks]
    assert labels[-1] == "1", labels  # the recall axis reaches 1.0 on paper
    assert all(inside for _, inside in ticks)
    width = page.evaluate("""() => document.querySelector('#figure-uninterpolated-topic .main-svg')
        .getBoundingClientRect().width""")
    assert width <= 680  # A4's printable width
