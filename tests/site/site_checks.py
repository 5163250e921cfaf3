"""Checks over a built site, shared by the site tests: links, assets, hashes."""

from __future__ import annotations

import hashlib
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.references: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                if tag == "a" and name == "href" and value.startswith(("https://", "http://")):
                    continue  # a link out to the web, not a part of the site
                self.references.append(value)
            if name == "id" and value:
                self.ids.add(value)


def page_references(page: Path) -> tuple[list[str], set[str]]:
    """The href/src values of a page and its element ids."""
    parser = _References()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.references, parser.ids


def broken_references(site: Path) -> list[str]:
    """Every reference that leaves the site, is absolute, or names a missing file or id (a
    fragment of parameters, ``#run=NAME``, names none).

    A link (``<a href>``) to a web address (a reference's page, a run's URL from its metadata)
    is no part of the site and is not checked; anything else with a scheme is."""
    problems = []
    ids = {}
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        ids[page] = page_references(page)[1]
    for page in pages:
        for reference in page_references(page)[0]:
            parts = urlsplit(reference)
            if parts.scheme or parts.netloc or reference.startswith("/"):
                problems.append(f"{page.relative_to(site)}: not relative: {reference}")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file() or site.resolve() not in target.parents:
                problems.append(f"{page.relative_to(site)}: missing: {reference}")
            # a fragment of parameters (#run=NAME, #a=X&b=Y) is read by the page's script
            elif (parts.fragment and "=" not in parts.fragment and target.suffix == ".html"
                  and parts.fragment not in ids.get(target, page_references(target)[1])):
                problems.append(f"{page.relative_to(site)}: missing anchor: {reference}")
    return problems


def file_hashes(site: Path) -> dict[str, str]:
    """SHA-256 of every file of the site, by its path relative to the site."""
    return {path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(site.rglob("*")) if path.is_file()}


_CLIMBING = re.compile(r"(?:\.\./)+[^\s\"'<>,;)]*")
_INTERNAL = re.compile(r"seed 0\d", re.IGNORECASE)


def published_leaks(site: Path, machine_paths: list[Path]) -> list[str]:
    """What a published file must not hold: an internal reference ("seed 001"), one of
    ``machine_paths`` (the build folder, the inputs' folders) as an absolute path, or a
    relative path that climbs above the site's root from the file that holds it (the site's
    own links between its pages climb only to its root)."""
    root = site.resolve()
    absolute = sorted({str(p.resolve()) for p in machine_paths}, key=len, reverse=True)
    problems = []
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.name == "plotly.min.js":
            continue
        data = path.read_bytes()
        if path.suffix == ".gz" or b"\0" in data[:1024]:
            continue
        content = data.decode("utf-8", errors="replace")
        where = path.relative_to(site).as_posix()
        problems += [f"{where}: internal reference {m.group()!r}"
                     for m in _INTERNAL.finditer(content)]
        problems += [f"{where}: absolute path {a!r}" for a in absolute if a in content]
        for match in _CLIMBING.finditer(content):
            target = Path(os.path.normpath(path.parent.resolve() / match.group()))
            if target != root and root not in target.parents:
                problems.append(f"{where}: climbs out of the site: {match.group()!r}")
    return problems
