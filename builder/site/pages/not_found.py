"""``404.html``: the page a static host shows for a missing address, at any depth of the
site. Its links are relative to the site's root; with the site's address known
(``site_url``) the page names it as its base (``templates/404.html``), so they hold wherever
it is shown."""

from __future__ import annotations

from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.web.sitemap import NOT_FOUND


def not_found_pages(build: SiteBuild) -> list[Page]:
    page = Page(NOT_FOUND, "404.html", "Page not found")
    page.context = {"tasks": [(task.spec.id, task.spec.title) for task in build.tasks]}
    return [page]


NOT_FOUND_PAGE = PageBuilder("not found", Scope.SITE, not_found_pages)
