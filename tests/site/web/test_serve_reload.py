"""``appendix serve`` in chromium: the open page reloads itself once a change is rebuilt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.archive.campaign import run_text
from tests.serve.test_serve import REFLECTED_WITHIN, Server, gamma_map, serving


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[Server, Path]]:
    yield from serving(tmp_path)


def test_the_open_page_reloads_itself_after_a_rebuild(served, browser):
    """The open page, marked, is reloaded (the mark gone) once a changed run is rebuilt, and
    the site has the new number."""
    server, campaign = served
    page = browser.new_page()
    try:
        page.goto(f"{server.address}index.html")
        page.evaluate("window.appendixMark = 1")
        before = gamma_map(server.address)
        (campaign / "runs" / "gamma.txt").write_text(run_text("gamma", [6, 3, 2, 1, 4, 5]))
        page.wait_for_function("window.appendixMark === undefined",
                               timeout=REFLECTED_WITHIN * 2000)
        assert gamma_map(server.address) != before
        assert page.locator("h1").count() >= 1
    finally:
        page.close()
