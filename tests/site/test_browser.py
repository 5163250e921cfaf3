"""The demo site in a real headless browser, from ``file://``: plots render, the console stays
clean, nothing is fetched from any host, text from runs is shown as text, and axe-core finds no
WCAG 2 A/AA violation on any type of page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from builder.demo.adhoc.runs import ESCAPE_TAG
from tests.site.browser import PageVisit, axe_report, page_samples

PLOT_TIMEOUT_MS = 15_000


def _run_page(site: Path, name: str) -> Path:
    """The run page whose heading or title names ``name``."""
    for page in sorted(site.glob("*/runs/*.html")):
        if name in page.read_text(encoding="utf-8").replace("&lt;", "<").replace("&gt;", ">"):
            return page
    raise AssertionError(f"no run page for {name!r} under {site}")


def _assert_plots_rendered(seen: PageVisit) -> None:
    seen.page.wait_for_selector("svg.main-svg", timeout=PLOT_TIMEOUT_MS)
    plots = seen.page.locator(".js-plotly-plot")
    assert plots.count() >= 1
    for index in range(plots.count()):
        plot = plots.nth(index)
        assert plot.locator("svg.main-svg").count() >= 1, f"plot {index} not rendered"
        assert plot.bounding_box()["height"] > 100


def test_a_task_page_renders_plots_offline(demo_site: Path, visit: Any) -> None:
    seen = visit(demo_site / "adhoc" / "index.html")
    _assert_plots_rendered(seen)
    assert seen.page.locator("table").count() >= 1
    assert seen.page.get_by_text("nbuBM25").count() >= 1
    assert seen.console_errors == []
    assert seen.remote_requests() == []
    assert seen.dialogs == []


def test_run_page_renders_plots_offline(demo_site: Path, visit: Any) -> None:
    seen = visit(_run_page(demo_site, "nbuBM25"))
    _assert_plots_rendered(seen)
    assert seen.console_errors == []
    assert seen.remote_requests() == []
    plotly_loads = [url for url in seen.requests if "plotly" in url.rsplit("/", 1)[-1]]
    assert len(plotly_loads) == 1, plotly_loads


def test_run_tag_with_html_is_shown_as_text(demo_site: Path, visit: Any) -> None:
    seen = visit(_run_page(demo_site, ESCAPE_TAG))
    _assert_plots_rendered(seen)
    assert seen.dialogs == []
    assert seen.page.get_by_text(ESCAPE_TAG).count() >= 1
    assert seen.console_errors == []


def test_markup_in_run_names_is_text_on_chart_axes(tmp_path: Path, visit: Any) -> None:
    """plotly.js reads ``<b>``, ``<i>``, ``<a>`` ... in labels as markup; a run named with them
    is shown as written, in a plain font."""
    from builder.cli import main

    (tmp_path / "runs").mkdir()
    (tmp_path / "q.txt").write_text("1 0 d1 1\n1 0 d2 0\n")
    for tag in ("<b>bold</b>", "<i>it</i>&amp;"):
        (tmp_path / "runs" / f"{len(tag)}.txt").write_text(f"1 Q0 d1 1 2 {tag}\n1 Q0 d2 2 1 {tag}\n")
    (tmp_path / "c.yml").write_text("campaign: {title: T}\ntasks:\n  - {id: t, title: T, "
                                    "kind: adhoc, qrels: q.txt, runs: runs/}\n")
    assert main(["build", "--config", str(tmp_path / "c.yml"), "--quiet"]) == 0
    seen = visit(tmp_path / "site" / "index.html")
    _assert_plots_rendered(seen)
    ticks = seen.page.locator(".xtick text")
    assert sorted(ticks.all_text_contents()) == ["<b>bold</b>", "<i>it</i>&amp;"]
    assert seen.page.locator(".xtick text [style*='bold'], .xtick text [style*='italic']").count() == 0


@pytest.mark.slow
def test_no_axe_violations_on_any_page_type(demo_site: Path, visit: Any) -> None:
    """One tab goes from page to page: in a fresh tab each page would compile plotly.js anew
    (about 2 of the 3 seconds a page takes)."""
    pages = page_samples(demo_site)
    tab = visit(pages[0]).page
    report = []
    for path in pages:
        if tab.url != path.as_uri():
            tab.goto(path.as_uri(), wait_until="load")
        report += axe_report(tab, path.relative_to(demo_site).as_posix())
    assert len(pages) > 40 and report == [], "\n".join(report)
