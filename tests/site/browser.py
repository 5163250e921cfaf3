"""The external tools of the site tests: headless Debian chromium, the vnu validator, axe-core.

A missing tool fails the test in CI (``CI=true``) and skips it elsewhere, so a developer
machine without chromium or Java can still run the rest of the suite.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / ".ci" / "node" / "node_modules"
VNU_JAR = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
"""Headless, and quiet on the network: no component updates or sync pinging Google's hosts."""
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")
REMOTE_URL = re.compile(r"^(https?|wss?|ftp)://")


def missing(reason: str) -> None:
    """Fail in CI, skip elsewhere: a tool or an input of the site tests is not there."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (required in CI; .ci/run installs it)")
    pytest.skip(reason)


def require_file(path: Path, what: str) -> Path:
    if not path.is_file():
        missing(f"{what} not found at {path}")
    return path


def require_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        missing(f"program {name!r} not found on PATH")
    return str(found)


SHARED_RENDERER = "--process-per-site"
"""Every tab of one context that shows a ``file://`` page in one renderer process, so that
plotly.js (3.5 MB), compiled by the first page that loads it, is taken from V8's compilation
cache by the next pages of the same site: about 0.4 CPU seconds a page instead of 1.0 to 1.4
(measured on the demo site). Pages stay apart as tabs always are: own document, own script
globals, own console."""


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's chromium under Playwright; never Playwright's own downloaded browsers."""
    require_file(CHROMIUM, "chromium")
    return playwright.chromium.launch(executable_path=str(CHROMIUM),
                                      args=[*CHROMIUM_ARGS, SHARED_RENDERER])


def tab_context(browser: Browser, keeper: Path) -> BrowserContext:
    """The context of the ``visit`` tabs: requests to any host are aborted (each tab records
    them as requests, so a test never waits on the network), and a blank ``file://`` page,
    ``keeper``, stays open in it so that its renderer process, and the code it compiled,
    outlive each test's tabs."""
    context = browser.new_context()
    context.route(REMOTE_URL, lambda route: route.abort())
    keeper.write_text("<!doctype html><title>keeps the renderer</title>\n", encoding="utf-8")
    context.new_page().goto(keeper.as_uri())
    return context


def page_samples(site: Path) -> list[Path]:
    """Pages of every type: each page at the root and in a task's folder; in a deeper folder
    (run pages, topic pages, validation pages ...) its ``index.html``, its first page by name
    and its largest page (the one with the most to show, such as the most findings)."""
    samples: set[Path] = set()
    folders: dict[Path, list[Path]] = {}
    for page in sorted(site.rglob("*.html")):
        folder = page.parent.relative_to(site)
        if len(folder.parts) <= 1 or page.name == "index.html":
            samples.add(page)
        else:
            folders.setdefault(folder, []).append(page)
    for pages in folders.values():
        samples.update({pages[0], max(pages, key=lambda p: (p.stat().st_size, p.name))})
    return sorted(samples)


@dataclass
class PageVisit:
    """What a page did while it loaded: console errors, uncaught errors, requests, dialogs."""

    page: Any
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def remote_requests(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(LOCAL_SCHEMES)]


def open_page(context: BrowserContext, url: str,
              viewport: tuple[int, int] | None = None) -> PageVisit:
    """Open ``url`` in a new tab of ``context`` (``tab_context``), ``viewport`` (width, height)
    wide and high or the default 1280 by 720, recording what the page does. The site tests
    never store anything in the browser (the site keeps no cookie or storage), so tabs of one
    context are as independent as contexts of their own."""
    page = context.new_page()
    if viewport:
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    seen = PageVisit(page)
    page.on("console", lambda m: m.type == "error" and seen.console_errors.append(m.text))
    page.on("pageerror", lambda error: seen.console_errors.append(str(error)))
    page.on("request", lambda request: seen.requests.append(request.url))
    page.on("dialog", lambda dialog: (seen.dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url, wait_until="load")
    return seen


def axe_report(page: Page, name: str) -> list[str]:
    """axe-core's WCAG 2 A/AA violations on the page as it is now, one line each."""
    page.add_script_tag(path=str(require_file(AXE_JS, "axe-core")))
    violations = page.evaluate(
        """async () => {
            const result = await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
                count: v.nodes.length}));
        }"""
    )
    return [f"{name}: {v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}; "
            f"e.g. {', '.join(v['targets'])}" for v in violations]


def vnu_errors(pages: list[Path], site: Path) -> list[str]:
    """The Nu HTML Checker's errors on ``pages`` (of the site at ``site``), one line each."""
    java = require_program("java")
    jar = require_file(VNU_JAR, "vnu-jar")
    result = subprocess.run(
        [java, "-jar", str(jar), "--errors-only", "--format", "json", *map(str, pages)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    errors = [
        f"{_site_path(m.get('url', ''), site)}:{m.get('lastLine', '?')}: {m['message']}"
        for m in messages if m.get("type") in ("error", "non-document-error")
    ]
    if not errors and result.returncode != 0:
        errors.append(f"vnu exited with {result.returncode}")
    return errors


def _site_path(url: str, site: Path) -> str:
    """The page's path in the site, from vnu's ``file:/...`` URL."""
    path = Path(unquote(urlparse(url).path))
    return path.relative_to(site.resolve()).as_posix() if path.is_relative_to(site.resolve()) else url


def print_to_a4(page: Page, pdf: Path) -> None:
    """Print ``page`` as a reader does, to ``pdf`` on A4 (``page.pdf``): once every figure
    is drawn (or left for a list), in print media, after ``beforeprint`` has refitted the
    figures to the printed page (each one's resize ends with ``plotly_relayout``)."""
    page.wait_for_function("""() => [...document.querySelectorAll('[data-figure]')]
        .filter(area => !area.closest('[hidden]'))
        .every(area => area.hasAttribute('data-drawn') || area.hasAttribute('data-skipped'))""",
                           timeout=120_000)
    page.emulate_media(media="print")
    page.evaluate("""() => new Promise((done, fail) => {
        const resized = [...document.querySelectorAll('[data-drawn]')];
        let left = resized.length;
        resized.forEach(f => f.once('plotly_relayout', () => { left -= 1; if (!left) done(); }));
        window.dispatchEvent(new Event('beforeprint'));
        if (!left) { done(); }
        setTimeout(() => fail(new Error('a figure was not refitted for print')), 60000);
    })""")
    page.pdf(path=str(pdf), format="A4")
