"""The site follows the reader's ``prefers-color-scheme`` (Debian's chromium, playwright's
``color_scheme``): dark asked, dark given, its text and links still readable (WCAG's 4.5:1);
figures keep their white ground; printed, every page is black on white whatever the scheme."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

PAGES = ("index.html", "adhoc/index.html", "adhoc/runs/irisQL.html", "adhoc/appendix.html")


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a CSS ``rgb(r, g, b)`` colour."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _colours(page: Any) -> dict[str, str]:
    return page.evaluate("""() => {
        const style = element => getComputedStyle(element);
        const link = document.querySelector('main a');
        const plot = document.querySelector('[data-drawn] .main-svg .bg')
            || document.querySelector('[data-drawn] .main-svg');
        return {background: style(document.documentElement).backgroundColor,
                text: style(document.documentElement).color,
                link: style(link).color,
                plot: plot ? (plot.style.fill || style(plot).backgroundColor) : ''};
    }""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_site_follows_the_readers_colour_scheme(demo_site: Path, browser: Any,
                                                    scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        for path in PAGES:
            page.goto((demo_site / path).as_uri(), wait_until="load")
            figures = page.locator("[data-figure]").count()
            if figures:
                page.wait_for_selector("[data-drawn] .main-svg", timeout=60_000)
            colours = _colours(page)
            dark = _luminance(colours["background"]) < 0.1
            assert dark == (scheme == "dark"), (path, colours)
            assert _contrast(colours["text"], colours["background"]) >= 4.5, (path, colours)
            assert _contrast(colours["link"], colours["background"]) >= 4.5, (path, colours)
            if figures:  # figures keep their white ground
                assert _luminance(colours["plot"]) > 0.9, (path, colours)
            page.emulate_media(media="print")
            printed = _colours(page)
            assert _luminance(printed["background"]) > 0.9, (path, printed)
            assert _luminance(printed["text"]) < 0.05, (path, printed)
            page.emulate_media(media="screen")
    finally:
        context.close()
