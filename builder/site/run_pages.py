"""Run pages: each task kind names its page model (``TaskKind.page_model``, a module of
``builder.site`` with ``run_pages(analysis, positions) -> list[Page]``); the ad hoc one draws
the TREC appendix layout (template ``run_adhoc.html``), a kind without one gets the generic page
(``builder.site.run_generic``). Every run page then gets its significance comparisons.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from urllib.parse import quote

from builder.site.models import Page
from builder.site.paths import SiteTask
from builder.site.reliability_pages import with_reliability_lines
from builder.site.run_pairs import compare_link, has_pairs
from builder.site.significance_pages import with_run_comparisons


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The run pages of a task (of its runs at ``positions`` on the leaderboard, when given),
    by its kind's page model, each with its significance comparisons
    (``context["significance"]``, rendered by ``run_significance.html``), its reliability
    line (``context["reliability"]``, ``run_reliability.html``), a link to its row of the
    leaderboard and one to the run-versus-run page."""
    model = importlib.import_module(analysis.spec.kind.page_model)
    pages = model.run_pages(analysis, positions)
    pairs = has_pairs(analysis)
    for page in pages:
        run = page.context.get("run")
        if run is not None:
            page.context["leaderboard"] = f"index.html#run={quote(run, safe='')}"
            page.context["compare"] = compare_link(analysis.spec.id, run) if pairs else None
    pages = with_run_comparisons(analysis, pages)
    return with_reliability_lines(analysis, pages)
