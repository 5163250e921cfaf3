"""The search box, in a real browser, from ``file://``: a team's name finds its runs, a topic
word finds the topic, and a result opens its page."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def test_the_search_box_finds_runs_teams_and_topics_from_file(demo_site: Path,
                                                              visit: Any) -> None:
    seen = visit(demo_site / "adhoc" / "runs" / "irisQL.html")
    page = seen.page
    page.fill("#site-search", "kestrel")
    page.wait_for_selector("#site-search-results:not([hidden]) a")
    results = page.locator("#site-search-results a").all_inner_texts()
    assert any(text.startswith("team Kestrel Labs") for text in results), results
    assert any(text.startswith("run") and "kestrelDense" in text for text in results), results
    page.fill("#site-search", "<script>")  # a run's name with markup: shown as text
    page.wait_for_selector("#site-search-results a")
    assert any("<script>alert(1)</script>" in text
               for text in page.locator("#site-search-results a").all_inner_texts())
    assert seen.dialogs == []
    page.fill("#site-search", "topic 401")
    page.wait_for_selector("#site-search-results a")
    page.locator("#site-search-results a").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/adhoc/topics/401.html"), page.url
    assert seen.console_errors == [] and seen.remote_requests() == []
