"""Text from runs and topics stays text in every figure, in a real browser.

plotly.js reads a subset of HTML in every label it draws (``<b>``, ``<i>``, ``<br>``,
``<sup>``, ``<span style>``, ``<a href>``): a run or topic named with them would be drawn
bold, on two lines, or as a live link. A campaign whose run names (tags and file names) and
topic ids and titles are such markup is built, and every figure of every page that draws one
(the home page, run pages, topic pages, significance, reliability, and the run-versus-run page
with two hostile runs chosen) is drawn, each view of each measure switch and each topic menu
opened: no element is made from a name, no link exists, and the names show as written.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

TOPICS = ["<b>t1</b>", "<br>", "<i>t3</i>", "<sup>4</sup>", "t5", "t6"]
TITLE = '<a href="https://example.invalid">x</a> <img src=x onerror=alert(1)>'
TAGS = ["<b>bold</b>", "<br>", "<sup>2</sup>", "plain"]
"""Run tags (no white space: a TREC column)."""
FILES = ['<a href="https:example.invalid">x', "<img src=x onerror=alert(1)>",
         '<span style="color:red">s', "plain"]
"""Run file names (a task naming its runs by file): white space, but no slash."""
RUN_NAMES = {"tags": TAGS, "files": FILES}
"""The runs' names: a file ``NAME.txt`` names its run ``NAME`` (``.txt`` only says it is a run)."""
HOSTILE = [name for names in RUN_NAMES.values() for name in names if "<" in name] + [
    topic for topic in TOPICS if "<" in topic]

MARKUP_IN_PLOTS = """() => {
    const made = [];
    for (const plot of document.querySelectorAll('.js-plotly-plot')) {
        for (const node of plot.querySelectorAll('a, b, i, br, img, sup, span, script')) {
            made.push(node.outerHTML);
        }
        for (const tspan of plot.querySelectorAll('text tspan')) {
            const style = tspan.getAttribute('style') || '';
            if (tspan.classList.contains('line') || /weight|italic|fill|color|size/.test(style)) {
                made.push(tspan.outerHTML);
            }
        }
    }
    return made;
}"""
"""What plotly.js makes of markup it reads in a label: elements, styled or broken lines."""

LINKS_OUT = """() => Array.from(document.querySelectorAll('a'), a => a.getAttribute('href')
                               || a.getAttribute('xlink:href') || '')
                   .filter(href => /^https?:(\\/\\/)?example\\.invalid/.test(href)).length"""
"""Links (HTML or SVG) to the host a name points at; run pages' file names hold it as text."""

SHOWN = """() => Array.from(document.querySelectorAll('.js-plotly-plot svg text'),
                         t => t.textContent)"""


def _campaign(root: Path) -> Path:
    """Two ad hoc tasks over six topics, one naming its runs by tag, one by file name."""
    rng = random.Random(7)
    docs = [f"d{i}" for i in range(8)]
    root.mkdir(parents=True)
    (root / "qrels.txt").write_text("".join(f"{t} 0 {d} {int(i % 3 == 0)}\n"
                                            for t in TOPICS for i, d in enumerate(docs)))
    (root / "topics.txt").write_text("".join(f"<top>\n<num> Number: {t}\n<title> {TITLE}\n"
                                             "</top>\n\n" for t in TOPICS))
    for task, names in (("tags", TAGS), ("files", FILES)):
        (root / task).mkdir()
        for k, name in enumerate(names):
            lines = []
            for topic in TOPICS:
                ranking = rng.sample(docs, len(docs))
                tag = name if task == "tags" else "shared"
                lines += [f"{topic} Q0 {d} {r + 1} {10 - r} {tag}\n" for r, d in enumerate(ranking)]
            file = f"run{k}.txt" if task == "tags" else f"{name}.txt"
            (root / task / file).write_text("".join(lines))
    config = root / "campaign.yml"
    config.write_text(
        "campaign: {title: Hostile names}\ntasks:\n"
        "  - {id: tags, title: Tags, kind: adhoc, qrels: qrels.txt, topics: topics.txt, "
        "runs: tags/}\n"
        "  - {id: files, title: Files, kind: adhoc, qrels: qrels.txt, topics: topics.txt, "
        "runs: files/, options: {run_names: file}}\n")
    return config


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from builder.cli import main

    root = tmp_path_factory.mktemp("hostile")
    out = root / "site"
    assert main(["build", "--config", str(_campaign(root / "campaign")), "--out", str(out),
                 "--quiet"]) == 0
    return out


def _figure_pages(site: Path) -> list[tuple[Path, str]]:
    """Every page that draws a figure, the run-versus-run pages with two hostile runs."""
    pages = [(page, "") for page in sorted(site.rglob("*.html"))
             if "data-figure" in page.read_text(encoding="utf-8")]
    for task, names in RUN_NAMES.items():
        a, b = quote(names[0], safe=""), quote(names[1], safe="")
        pages.append((site / task / "compare.html", f"#a={a}&b={b}"))
    return pages


def _draw_everything(page: Any) -> None:
    """Show each view of each measure switch (drawing its figures) and open each topic menu,
    so that every label a figure has is in the page."""
    for switch in page.locator("select[data-measure-switch]").all():
        for value in switch.locator("option").evaluate_all("os => os.map(o => o.value)"):
            if switch.is_visible():
                switch.select_option(value)
    for header in page.locator(".updatemenu-header").all():
        if header.is_visible():
            header.click()
            page.wait_for_selector(".updatemenu-dropdown-button")
            header.click()


def test_figure_pages_are_every_kind_of_figure_page(hostile_site: Path) -> None:
    paths = {page.relative_to(hostile_site).as_posix() for page, _ in _figure_pages(hostile_site)}
    for task in RUN_NAMES:
        for kind in ("index.html", "compare.html", "significance.html",
                     "reliability.html", "runs/", "topics/"):
            assert any(p.startswith(f"{task}/{kind}") for p in paths), (task, kind)


@pytest.mark.slow
def test_names_are_text_in_every_figure(hostile_site: Path, visit: Any) -> None:
    problems: list[str] = []
    for path, fragment in _figure_pages(hostile_site):
        name = path.relative_to(hostile_site).as_posix() + fragment
        seen = visit(path, fragment)
        page = seen.page
        page.wait_for_selector(".js-plotly-plot svg.main-svg")
        _draw_everything(page)
        problems += [f"{name}: {made}" for made in page.evaluate(MARKUP_IN_PLOTS)]
        shown = page.evaluate(SHOWN)
        # reliability figures name measures; a topic's box plot names runs only on hover
        names_drawn = not (path.name.startswith("reliability") or path.parent.name == "topics")
        if names_drawn and not any(hostile in text for text in shown for hostile in HOSTILE):
            problems.append(f"{name}: no name shown as written in {shown[:12]}")
        if page.evaluate(LINKS_OUT):
            problems.append(f"{name}: a link to example.invalid")
        problems += [f"{name}: {message}" for message in seen.dialogs + seen.console_errors]
    assert problems == []


@pytest.mark.parametrize("task", list(RUN_NAMES))
def test_the_pair_of_hostile_runs_is_titled_as_written(hostile_site: Path, visit: Any,
                                                       task: str) -> None:
    a, b = RUN_NAMES[task][:2]
    seen = visit(hostile_site / task / "compare.html",
                 f"#a={quote(a, safe='')}&b={quote(b, safe='')}")
    seen.page.wait_for_selector("#pair-scatter svg.main-svg")
    titles = seen.page.locator("#pair-scatter .g-xtitle, #pair-scatter .g-ytitle")
    assert sorted(titles.all_text_contents()) == [f"MAP of A ({a})", f"MAP of B ({b})"]
