"""The site's place on the web: what a static site needs besides its pages.

- ``site_url`` (the config, or ``appendix build --base-url``): the address the site is
  published at, sub-path included (``https://example.org/trec-browser/``). With it every page
  names its canonical address, and ``sitemap.xml`` lists every page under it.
- ``robots.txt`` (naming the sitemap when the address is known); ``404.html``, the page
  static hosts (GitHub Pages, Netlify, most servers' configurations) show for a missing one,
  is a page of ``builder.site.pages`` (``not_found``).
- ``search-index.js``: every run, team and topic with the page it leads to, for the search
  box of every page (``templates/assets/search.js``). A script, not JSON: a browser reads a
  script from ``file://`` where it refuses to fetch a JSON file.

Links stay relative (``builder.site.paths``), so the site works from ``file://`` and under any
sub-path; only what must be absolute (a canonical link, a sitemap entry, the links of a 404
page shown at any depth) uses ``site_url``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from builder.site.paths import SiteTask
from builder.site.web.search import write_search_index
from builder.site.web.sitemap import write_robots, write_sitemap


def write_web_files(out: Path, tasks: list[SiteTask], site_url: str | None,
                    when: datetime) -> None:
    """``sitemap.xml`` (with a ``site_url``), ``robots.txt`` and ``search-index.js``, once
    every page is written under ``out``."""
    write_search_index(out, tasks)
    if site_url:
        write_sitemap(out, site_url, when)
    write_robots(out, site_url)
