"""Every HTML page of the demo site passes the Nu HTML Checker (vnu) without an error."""

from __future__ import annotations

from pathlib import Path

from tests.site.browser import vnu_errors


def test_demo_site_is_valid_html(demo_site: Path) -> None:
    pages = sorted(demo_site.rglob("*.html"))
    assert pages
    errors = vnu_errors(pages, demo_site)
    assert errors == [], f"{len(errors)} vnu errors:\n" + "\n".join(errors[:50])
