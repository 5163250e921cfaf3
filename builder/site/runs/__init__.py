"""Run pages: the page model of each task kind, a module of this folder with
``run_pages(analysis, positions) -> list[Page]``. The ad hoc one draws the TREC appendix layout
(template ``run_adhoc.html``); a kind not in ``PAGE_MODELS`` gets the generic page
(``builder.site.runs.generic``). Every run page then gets its significance comparisons.

The site owns this table, not the kinds: a task kind knows nothing of the pages that draw it.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from urllib.parse import quote

from builder.site.models import Page
from builder.site.pages.judgements import with_judgement_rows
from builder.site.pages.reliability import with_reliability_lines
from builder.site.pages.run_pairs import compare_link, has_pairs
from builder.site.pages.significance import with_run_comparisons
from builder.site.paths import SiteTask, appendix_page, sheet_anchor
from builder.site.runs import adhoc, focused, generic, in_context

PAGE_MODELS: dict[str, ModuleType] = {
    "adhoc": adhoc,
    "focused": focused,
    "thorough": focused,
    "relevant-in-context": in_context,
    "restricted-relevant-in-context": in_context,
    "best-in-context": in_context,
}
"""Task kind -> the module drawing its run pages; any other kind: ``generic``."""


def page_model(kind: str) -> ModuleType:
    """The module that draws the run pages of a task of ``kind``."""
    return PAGE_MODELS.get(kind, generic)


def run_pages(analysis: SiteTask, positions: Sequence[int] | None = None) -> list[Page]:
    """The run pages of a task (of its runs at ``positions`` on the leaderboard, when given),
    by its kind's page model, each with its significance comparisons
    (``context["significance"]``, rendered by ``run_significance.html``), its reliability
    line (``context["reliability"]``, ``run_reliability.html``), its row of the judgements page
    (``context["judgements"]``, ``run_judgements.html``), a link to its row of the
    leaderboard, one to its sheet of the task's printable appendix and one to the
    run-versus-run page, its submitted file (name, SHA-256 and its
    download when published) and its scores as the official program prints them with ``-q``
    (a text file beside the page, ``context["official_scores"]``)."""
    pages = page_model(analysis.spec.kind.name).run_pages(analysis, positions)
    pairs = has_pairs(analysis)
    scores = _official_scores(analysis, [p.context["run"] for p in pages if "run" in p.context])
    for page in pages:
        run = page.context.get("run")
        if run is not None:
            page.context["leaderboard"] = f"{analysis.leaderboard}#run={quote(run, safe='')}"
            page.context["compare"] = compare_link(analysis.spec.id, run) if pairs else None
            page.context["appendix"] = (f"{appendix_page(analysis.spec.id)}"
                                        f"#{sheet_anchor(analysis.run_slugs[run])}")
            page.context["submitted"] = analysis.submitted.get(run)
            page.context["official_scores"] = None
            if scores.get(run):
                path = f"{page.path[: -len('.html')]}.scores.txt"
                page.files[path] = scores[run]
                page.context["official_scores"] = {
                    "href": path, "program": OFFICIAL_PROGRAMS.get(analysis.spec.kind.family,
                                                                   "the official program")}
    pages = with_run_comparisons(analysis, pages)
    return with_judgement_rows(analysis, with_reliability_lines(analysis, pages))


OFFICIAL_PROGRAMS = {"adhoc": "trec_eval", "focused": "inex_eval", "thorough": "inex_eval",
                     "in-context": "inex_eval"}
"""The official program whose ``-q`` layout a family's per-run scores download follows."""


def _official_scores(analysis: SiteTask, runs: list[str]) -> dict[str, str]:
    """Per run of ``runs``, its scores as ``appendix evaluate -q`` prints them with the task's
    options (``builder.pipeline.layouts.official``)."""
    from builder.pipeline.layouts.official import official_text

    evaluation = analysis.result.evaluation
    if evaluation is None or not runs:
        return {}
    scores = evaluation.scores
    mine = scores[scores["run"].isin(runs).to_numpy()]
    return {str(run): official_text(rows, analysis.spec, evaluation.extras)
            for run, rows in mine.groupby("run", sort=False, observed=True)}
