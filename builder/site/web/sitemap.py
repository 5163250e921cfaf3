"""``sitemap.xml`` and ``robots.txt``, as the Sitemaps protocol (sitemaps.org, 0.9) and the
Robots Exclusion Protocol (RFC 9309) describe them.

A sitemap lists absolute addresses, so it is written only when the site's address is known
(``site_url``); every page is listed but the 404 page, which is no page of its own. Both are a
few lines of text: written by hand rather than through a library.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from xml.sax.saxutils import escape

SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
NOT_FOUND = "404.html"


def site_pages(out: Path) -> list[str]:
    """Every page of the site under ``out`` (``/``-separated, sorted), the 404 page not."""
    return sorted(path.relative_to(out).as_posix() for path in out.rglob("*.html")
                  if path.relative_to(out).as_posix() != NOT_FOUND)


def sitemap_xml(pages: list[str], site_url: str, when: datetime) -> str:
    day = when.strftime("%Y-%m-%d")
    entries = "".join(f"<url><loc>{escape(site_url + page)}</loc><lastmod>{day}</lastmod></url>\n"
                      for page in pages)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{entries}</urlset>\n")


def write_sitemap(out: Path, site_url: str, when: datetime) -> None:
    (out / SITEMAP).write_text(sitemap_xml(site_pages(out), site_url, when), encoding="utf-8")


def write_robots(out: Path, site_url: str | None) -> None:
    """Every page may be crawled; the sitemap is named when the site's address is known."""
    sitemap = f"Sitemap: {site_url}{SITEMAP}\n" if site_url else ""
    (out / ROBOTS).write_text(f"User-agent: *\nAllow: /\n{sitemap}", encoding="utf-8")
