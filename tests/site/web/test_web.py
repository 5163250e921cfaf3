"""The site under an address: canonical links, sitemap.xml, robots.txt, the 404 page, every
link working under a sub-path (a link checker over real HTTP), and the search index."""

from __future__ import annotations

import functools
import http.server
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit
from xml.etree import ElementTree

import pytest

from builder.site.web.search import search_index
from tests.archive.campaign import appendix, write_campaign

SUB_PATH = "/results/trec-browser/"


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host: files as they are, ``404.html`` of the site (at ``SUB_PATH``) with
    status 404 for a missing one, as GitHub Pages and most servers are set up."""

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / SUB_PATH.strip("/") / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def hosted(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """The small campaign's site built for ``http://127.0.0.1:PORT/results/trec-browser/``
    and served there; its address and folder."""
    root = tmp_path_factory.mktemp("host")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Host, directory=str(root)))
    address = f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    config = write_campaign(root.parent / f"{root.name}-campaign")
    site = root / SUB_PATH.strip("/")
    assert appendix("build", "--config", str(config), "--out", str(site),
                    "--base-url", address, "--quiet") == 0
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield address, site
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _References(HTMLParser):
    """The references of a page (href and src of every element), its ids and its base."""

    def __init__(self) -> None:
        super().__init__()
        self.references: list[str] = []
        self.ids: set[str] = set()
        self.base: str | None = None

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "base":
            self.base = attributes.get("href")
            return
        self.references += [attributes[key] for key in ("href", "src") if attributes.get(key)]


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def parsed(body: bytes) -> _References:
    references = _References()
    references.feed(body.decode("utf-8"))
    return references


def broken_links(start: list[str], address: str) -> tuple[list[str], set[str]]:
    """Every page reachable from ``start`` under ``address``, crawled over HTTP: each
    reference under the address fetched (a page's fragment checked against its ids); the
    problems, and the pages seen."""
    problems, seen, queue, ids = [], set(), list(start), {}
    while queue:
        page = queue.pop()
        if page in seen:
            continue
        seen.add(page)
        status, body = fetch(page)
        if status != 200:
            problems.append(f"{page}: status {status}")
            continue
        references = parsed(body)
        ids[page] = references.ids
        base = urljoin(page, references.base) if references.base else page
        for reference in references.references:
            target, fragment = urldefrag(urljoin(base, reference))
            if not target.startswith(address):
                if urlsplit(target).netloc == urlsplit(address).netloc:
                    problems.append(f"{page}: outside the site's path: {reference}")
                continue  # another site (a reference's page)
            if target.endswith(".html"):
                queue.append(target)
                if fragment and "=" not in fragment:
                    if target not in ids:
                        ids[target] = parsed(fetch(target)[1]).ids
                    if fragment not in ids[target]:
                        problems.append(f"{page}: missing anchor {reference}")
            elif fetch(target)[0] != 200:
                problems.append(f"{page}: missing {reference}")
    return problems, seen


def test_no_link_is_broken_under_a_sub_path(hosted):
    address, site = hosted
    pages = {f"{address}{p.relative_to(site).as_posix()}" for p in site.rglob("*.html")}
    problems, seen = broken_links([f"{address}index.html"], address)
    assert problems == []
    assert seen == pages - {f"{address}404.html"}  # every page is reachable from the home page


def test_the_404_page_is_served_for_a_missing_address_and_its_links_hold(hosted):
    address, _ = hosted
    missing = f"{address}adhoc/runs/no-such-run.html"
    status, body = fetch(missing)
    assert status == 404 and b"Page not found" in body
    references = parsed(body)
    assert references.base == address
    targets = {urljoin(address, reference) for reference in references.references}
    assert f"{address}index.html" in targets and f"{address}assets/appendix.css" in targets
    assert all(fetch(target)[0] == 200 for target in targets if target.startswith(address))


def test_the_sitemap_lists_every_page_under_the_address(hosted):
    address, site = hosted
    status, body = fetch(f"{address}sitemap.xml")
    assert status == 200
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = [loc.text for loc in ElementTree.fromstring(body).findall("s:url/s:loc", namespace)]
    pages = sorted(f"{address}{p.relative_to(site).as_posix()}" for p in site.rglob("*.html")
                   if p.name != "404.html")
    assert sorted(listed) == pages and len(pages) > 10
    robots = fetch(f"{address}robots.txt")[1].decode()
    assert f"Sitemap: {address}sitemap.xml" in robots.splitlines()


def test_every_page_names_its_canonical_address(hosted):
    address, site = hosted
    for page in site.rglob("*.html"):
        if page.name == "404.html":
            continue
        name = page.relative_to(site).as_posix()
        links = re.findall(r'<link rel="canonical" href="([^"]+)">', page.read_text())
        assert links == [f"{address}{name}"], name


def test_without_an_address_the_site_has_no_absolute_link_and_no_sitemap(tmp_path):
    config = write_campaign(tmp_path / "campaign")
    out = tmp_path / "site"
    assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    assert not (out / "sitemap.xml").exists()
    assert (out / "robots.txt").read_text() == "User-agent: *\nAllow: /\n"
    assert (out / "404.html").is_file() and (out / "search-index.js").is_file()
    assert not any("canonical" in p.read_text() or "<base" in p.read_text()
                   for p in out.rglob("*.html"))


@pytest.mark.parametrize("address", ["example.org/x", "ftp://example.org/", "https:///x",
                                     "https://example.org/?q=1"])
def test_an_address_that_is_not_a_site_s_is_refused(tmp_path, capsys, address):
    config = write_campaign(tmp_path / "campaign")
    assert appendix("build", "--config", str(config), "--out", str(tmp_path / "site"),
                    "--base-url", address, "--quiet") == 2
    assert "not the absolute address of a site" in capsys.readouterr().err
    config.write_text(config.read_text() + f"site_url: '{address}'\n")
    assert appendix("build", "--config", str(config), "--out", str(tmp_path / "site"),
                    "--quiet") == 2
    assert "site_url" in capsys.readouterr().err


def test_the_search_index_of_1000_runs_stays_under_one_megabyte(tmp_path):
    """A generated campaign of 1,000 runs from 200 teams with long names, 50 topics with long
    titles: the index lists them all and stays under 1 MB. (Each run answers one topic with
    one document: the index depends on the names, not on how much a run retrieved.)"""
    from builder.pipeline.analysis import analyse
    from builder.pipeline.stages import evaluate_task, load_config, read_task, validate_task
    from builder.site.paths import SiteTask

    folder = tmp_path / "big"
    (folder / "runs").mkdir(parents=True)
    topics = range(1, 51)
    (folder / "qrels.txt").write_text("".join(f"{t} 0 d1 1\n" for t in topics))
    (folder / "topics.txt").write_text("".join(
        f"<top>\n<num> Number: {t}\n<title> how does the long title of topic number {t} "
        f"read when it is searched for\n</top>\n" for t in topics))
    runs = [f"team{i % 200:03d}-retrieval-system-run-{i:04d}" for i in range(1000)]
    for number, run in enumerate(runs):
        (folder / "runs" / f"{run}.txt").write_text(f"{number % 50 + 1} Q0 d1 1 1.0 {run}\n")
    (folder / "runs.csv").write_text("run,team\n" + "".join(
        f"{run},The {run[:7]} information retrieval group\n" for run in runs))
    (folder / "c.yml").write_text(
        "campaign: {title: Big}\nsignificance: {enabled: false}\ntasks:\n"
        "  - {id: big, title: Big, kind: adhoc, qrels: qrels.txt, topics: topics.txt,\n"
        "     runs: runs/, run_metadata: runs.csv, reliability: {enabled: false}}\n")
    site = load_config(folder / "c.yml")
    inputs = read_task(site.tasks[0])
    validate_task(inputs)
    task = SiteTask.of(analyse(evaluate_task(inputs)))
    index = search_index([task])
    assert len(task.runs) == 1000 and len(task.topics) == 50
    print(f"search index of 1,000 runs: {len(index.encode())} bytes")
    assert len(index.encode("utf-8")) < 1_000_000
    assert index.count('[0,"team') == 1000 and index.count('[1,"The team') == 200
    assert index.count("[2,\"topic ") == 50 and "searched for" in index
