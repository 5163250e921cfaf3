"""The validation pages of a task: one per run file read, accepted or rejected, listing what
its validation found, line by line."""

from __future__ import annotations

from builder.findings import problem_count, sort_findings
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.pages.downloads import publication_findings
from builder.site.paths import SiteTask, run_page, validation_page
from builder.site.tables import Cell, Table, text

MAX_FINDINGS_SHOWN = 1000
"""A run with more findings shows the first ones; the task's findings.csv holds them all."""


def validation_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """Per run (accepted or not): its findings with line numbers."""
    spec, display_path = analysis.spec, build.spec.relative
    pages = []
    for read, slug in zip(analysis.result.inputs.reads, analysis.read_slugs):
        page = Page(validation_page(spec.id, slug), "validation.html",
                    f"Validation of run {read.name}")
        findings = sort_findings([*read.findings, *publication_findings(build.spec, read)])
        rows = [[Cell("" if f.line is None else str(f.line), numeric=True), text(f.severity),
                 text(f.message)] for f in findings[:MAX_FINDINGS_SHOWN]]
        page.tables = [Table("findings", f"Findings for run {read.name}",
                             ["Line", "Severity", "Message"], rows, row_header=None)]
        # Problems, not findings: "20 more lines" is 20 errors (``Finding.count``).
        counts = {s: problem_count(findings, s) for s in ("error", "warning", "info")}
        page.context = {"analysis": analysis, "read": read, "file": display_path(read.path),
                        "counts": counts, "total": len(findings),
                        "summed": any(f.count > 1 for f in findings),
                        "shown": min(len(findings), MAX_FINDINGS_SHOWN),
                        "run_page": None if read.rejected
                        else run_page(spec.id, analysis.run_slugs[read.name])}
        pages.append(page.with_table_csvs())
    return pages


VALIDATION_PAGES = PageBuilder("validation", Scope.TASK, validation_pages)
