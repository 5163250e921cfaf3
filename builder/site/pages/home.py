"""The home page: per task, its leaderboard (a figure and a table), its rejected runs and the
findings in its inputs, with links to the task's significance, reliability and run-versus-run
pages when it has them."""

from __future__ import annotations

from collections.abc import Callable

from builder.findings import sort_findings
from builder.site import plots
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.pages.reliability import reliability_page_path, tie_ranks
from builder.site.pages.run_pairs import compare_page_path, has_pairs
from builder.site.pages.significance import TOP_GROUP_MARK, significance_page_path, top_group_marks
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, run_page, validation_page
from builder.site.tables import Cell, Table, TableControls, number, text

DUPLICATE_COLUMN = "Same ranking as"
"""The leaderboard's column naming, per run, the other runs that retrieve the same documents in
the same order for every topic (``builder.pipeline.analysis.duplicate_runs``)."""


def leaderboard_table(analysis: SiteTask) -> Table:
    """Rank, run, team, type, the task's measures (official first) and the findings link."""
    spec = analysis.spec
    # The task's order when it lists the official measure (INEX's tables end with MAgP/MAiP).
    measures = list(spec.measures) if spec.official_measure in spec.measures else (
        [spec.official_measure] + list(spec.measures))
    measures = [m for m in measures if m in analysis.summary.columns]
    findings = {read.name: len(read.findings) for read in analysis.result.inputs.reads}
    marks = top_group_marks(analysis)
    ties = tie_ranks(analysis)
    # The top-group marker right after the official measure, which it qualifies, so that it
    # stays in view on a wide leaderboard.
    mark_at = measures.index(spec.official_measure) + 1 if spec.official_measure in measures else 0
    duplicates = analysis.duplicates
    rows = []
    for run in analysis.runs:
        slug, meta = analysis.run_slugs[run], analysis.metadata.get(run, {})
        count = findings.get(run, 0)
        values = [number(analysis.summary.at[run, m], m) for m in measures]
        if marks is not None:
            values.insert(mark_at, text(marks[run]))
        rows.append([Cell(str(analysis.ranks[run]), numeric=True),
                     Cell(run, href=run_page(spec.id, slug)),
                     text(meta.get("team", "")), text(meta.get("type", ""))]
                    + values
                    + [Cell(f"{count} finding{'s' * (count != 1)}" if count else "no findings",
                            href=validation_page(spec.id, slug))]
                    + ([text(ties[run])] if ties is not None else [])
                    + ([text(", ".join(duplicates.get(run, [])))] if duplicates else []))
    columns = [analysis.label(m) for m in measures]
    official = list(measures)
    if marks is not None:
        columns.insert(mark_at, "Top group")
        official.insert(mark_at, "")
    has_teams = any(analysis.metadata.get(run, {}).get("team") for run in analysis.runs)
    controls = TableControls(
        noun="runs", filter_columns=(1, 2, 3), filter_label="Filter by run, team or type",
        group_column=2 if has_teams else None, group_label="Only each team's best run",
        sticky_columns=2)
    trailing = (["Validation"] + (["Ranks under ties"] if ties is not None else [])
                + ([DUPLICATE_COLUMN] if duplicates else []))
    return Table(f"leaderboard-{spec.id}",
                 f"{spec.title}: runs ranked by {analysis.label(spec.official_measure)}",
                 ["Rank", "Run", "Team", "Type"] + columns + trailing, rows, row_header=1,
                 controls=controls if rows else None,
                 official=["", "", "", ""] + official + [""] * len(trailing))


def rejected_table(analysis: SiteTask) -> Table:
    """The rejected runs with their first error and a link to all findings."""
    spec, rows = analysis.spec, []
    reads = analysis.result.inputs.reads
    for index in sorted(range(len(reads)), key=lambda i: (reads[i].name, i)):
        read = reads[index]
        if not read.rejected:
            continue
        errors = [f for f in sort_findings(read.findings) if f.severity == "error"]
        # The first offending line, as the official tools report it, before whole-file errors
        # (such as a count of the offending lines not listed).
        errors.sort(key=lambda f: f.line is None)
        reason = errors[0].message if errors else "could not be read"
        if errors and errors[0].line is not None:
            reason = f"line {errors[0].line}: {reason}"
        if len(errors) > 1:
            reason += f" (and {len(errors) - 1} more errors)"
        rows.append([Cell(read.name, href=validation_page(spec.id, analysis.read_slugs[index])),
                     text(reason)])
    return Table(f"rejected-{spec.id}", f"{spec.title}: rejected runs", ["Run", "Reason"], rows)


def input_findings_table(analysis: SiteTask, display_path: Callable[[str], str]) -> Table:
    """What was found in the task's qrels, topics, run metadata and run folder."""
    rows = [[text(display_path(f.file)), text("" if f.line is None else str(f.line)),
             text(f.severity), text(f.message)]
            for f in sort_findings(analysis.result.inputs.findings)]
    return Table(f"inputs-{analysis.spec.id}", f"{analysis.spec.title}: findings in the inputs",
                 ["File", "Line", "Severity", "Finding"], rows)


def home_pages(build: SiteBuild) -> list[Page]:
    """The site's home page (``index.html``)."""
    site = build.spec
    page = Page("index.html", "home.html", site.campaign.title)
    tasks = []
    for analysis in build.tasks:
        board = leaderboard_table(analysis)
        rejected = rejected_table(analysis)
        inputs = input_findings_table(analysis, site.relative)
        page.tables += [board, rejected, inputs]
        official = analysis.spec.official_measure
        if analysis.runs and official in analysis.summary.columns:
            page.figures.append(plots.leaderboard(
                analysis.spec.id, analysis.runs,
                analysis.summary.loc[analysis.runs, official].to_numpy(),
                analysis.label(official)))
        report = analysis.significance
        tasks.append({"analysis": analysis, "leaderboard": board, "rejected": rejected,
                      "inputs": inputs,
                      "significance": None if report is None else {
                          "page": significance_page_path(analysis.spec.id),
                          "settings": report.settings.describe(), "mark": TOP_GROUP_MARK,
                          "marked": top_group_marks(analysis) is not None},
                      "reliability": None if analysis.reliability is None else {
                          "page": reliability_page_path(analysis.spec.id),
                          "ties": tie_ranks(analysis) is not None},
                      "figure": f"figure-leaderboard-{analysis.spec.id}",
                      "compare": compare_page_path(analysis.spec.id) if has_pairs(analysis)
                      else None,
                      "topics": f"{analysis.spec.id}/topics/index.html"})
    page.context = {"tasks": tasks, "wide": True}
    return [page.with_table_csvs()]


HOME_PAGE = PageBuilder("home", Scope.SITE, home_pages, Cost.MEDIUM)
