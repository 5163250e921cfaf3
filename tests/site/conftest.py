"""Fixtures of the site tests: the demo site built once for the whole run, the demo campaign's
analyses (the render stage's input) once per worker, one shared browser per worker and one
browser context whose tabs the tests open (`visit`)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.made_once import made_once
from tests.site.browser import ROOT, PageVisit, launch_chromium, missing, open_page, tab_context

DEMO_CONFIG = ROOT / "site_config.yml"
COVID_CONFIG = ROOT / "examples" / "trec_covid_round1.yml"


def site_of(config: Path) -> Callable[[Path], None]:
    """What builds ``config``'s site into ``folder / "site"`` with ``appendix build``."""

    def build(folder: Path) -> None:
        from builder.cli import main

        status = main(["build", "--config", str(config), "--out", str(folder / "site"), "--quiet"])
        assert status == 0, f"appendix build exited with {status}"

    return build


@pytest.fixture(scope="session")
def demo_analyses():
    """The demo campaign's site spec and each task's analysis, as the render stage takes them:
    made once per worker (the render stage only reads them; rendering them twice gives the
    same bytes, ``tests/site/test_parallel_render.py``)."""
    from builder.pipeline.analysis import analyse
    from builder.pipeline.stages import evaluate_task, load_config, read_task, validate_task

    site = load_config(DEMO_CONFIG)
    inputs = [read_task(task) for task in site.tasks]
    for task_inputs in inputs:
        validate_task(task_inputs)
    return site, [analyse(evaluate_task(task_inputs)) for task_inputs in inputs]


@pytest.fixture(scope="session")
def demo_site(stamped_demo_site: Path) -> Path:
    """The demo campaign's site, built by ``appendix build`` from the repository's config: the
    one build of the whole run that the golden site is compared with (``stamped_demo_site``,
    ``tests/conftest.py``), rather than a second build of the same campaign that differs only
    by its build date. Tests only read it (copy it to change it)."""
    if importlib.util.find_spec("builder.cli.commands.build") is None or not DEMO_CONFIG.is_file():
        missing("appendix build or site_config.yml is not there yet")
    assert (stamped_demo_site / "index.html").is_file()
    return stamped_demo_site


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless chromium for the whole session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def covid_site(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TREC-COVID round 1 site (143 runs, 30 topics), built once for the whole run
    (``made_once``): about 5 seconds."""
    return made_once(tmp_path_factory, "covid-site", site_of(COVID_CONFIG)) / "site"


@pytest.fixture(scope="session")
def tabs(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The browser context in which ``visit`` opens its tabs, one per worker
    (``tests.site.browser.tab_context``): its renderer process lives as long as the worker, so
    plotly.js is compiled once per site rather than once per page."""
    context = tab_context(browser, tmp_path_factory.mktemp("tabs") / "keeper.html")
    yield context
    context.close()


@pytest.fixture
def visit(tabs: Any) -> Iterator[Callable[..., PageVisit]]:
    """Open a page of a site in a new tab (``fragment``: the URL's ``#...``; ``viewport``:
    width and height), recording what it does; the test's tabs are closed after it."""
    visits: list[PageVisit] = []

    def visit_page(path: Path, fragment: str = "",
                   viewport: tuple[int, int] | None = None) -> PageVisit:
        seen = open_page(tabs, path.as_uri() + fragment, viewport)
        visits.append(seen)
        return seen

    yield visit_page
    for seen in visits:
        seen.page.close()
