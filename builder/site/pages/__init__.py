"""The site's pages other than the run pages (``builder.site.runs``): one module per kind of
page, each declaring its ``PageBuilder`` (``builder.site.models``), and ``PAGES``, the list the
render stage walks (``builder.site.writer``).

A new page is a module here with its builder, its template in ``templates/``, its entry in
``PAGES`` and a link to it, from the navigation (``templates/base.html``) or from the pages of
its task.
"""

from __future__ import annotations

from builder.site.models import PageBuilder
from builder.site.pages import (
    downloads,
    home,
    judgements,
    measures,
    not_found,
    reliability,
    run_pairs,
    significance,
    topics,
    validation,
)

PAGES: tuple[PageBuilder, ...] = (
    home.HOME_PAGE,
    home.TASK_PAGES,
    topics.TOPIC_PAGES,
    validation.VALIDATION_PAGES,
    significance.SIGNIFICANCE_PAGE,
    reliability.RELIABILITY_PAGE,
    judgements.JUDGEMENTS_PAGE,
    run_pairs.COMPARE_PAGE,
    measures.MEASURES_PAGE,
    downloads.DOWNLOADS_PAGE,
    not_found.NOT_FOUND_PAGE,
)
"""Every kind of page besides the run pages, in the order of the navigation."""
