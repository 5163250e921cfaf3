"""The leaderboards: per task, its leaderboard (a figure and a table), its rejected runs and
the findings in its inputs, with links to the task's significance, reliability, run-versus-run
pages and printable appendix when it has them; on the home page for a campaign of one task,
on each task's page for a campaign of several, whose home page lists each task with its best
runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from builder.findings import counted, problem_count, sort_findings
from builder.site import plots
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.pages.judgements import judgement_columns, judgements_page_path
from builder.site.pages.reliability import reliability_page_path, tie_ranks
from builder.site.pages.run_pairs import compare_page_path, has_pairs
from builder.site.pages.significance import TOP_GROUP_MARK, significance_page_path, top_group_marks
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, appendix_page, run_page, validation_page
from builder.site.tables import Cell, Table, TableControls, number, text

DUPLICATE_COLUMN = "Same ranking as"
"""The leaderboard's column naming, per run, the other runs that retrieve the same documents in
the same order for every topic (``builder.pipeline.analysis.duplicate_runs``)."""


@dataclass
class Column:
    """One column of the leaderboard: its header, the official name of the measure it shows
    ("" for other columns) and its cell per run, in leaderboard order."""

    header: str
    cells: list[Cell]
    official: str = ""


def leaderboard_columns(analysis: SiteTask) -> list[Column]:
    """The leaderboard's columns, left to right: rank, run, the official measure and its
    top-group mark (so that the three a reader looks for first stay in view on a phone, the
    first two pinned), team and type (when the metadata gives them), the task's other
    measures in its order, the findings link, ranks under ties and duplicates (when any).

    A column added here is one ``Column``: the table, its CSV and its controls follow."""
    spec, runs = analysis.spec, analysis.runs
    official = spec.official_measure
    measures = [m for m in dict.fromkeys([official, *spec.measures])
                if m in analysis.summary.columns]

    def measure(m: str) -> Column:
        return Column(analysis.label(m), [number(analysis.summary.at[run, m], m) for run in runs],
                      m)

    columns = [Column("Rank", [Cell(str(analysis.ranks[run]), numeric=True) for run in runs]),
               Column("Run", [Cell(run, href=run_page(spec.id, analysis.run_slugs[run]))
                              for run in runs])]
    if official in measures:
        columns.append(measure(official))
    marks = top_group_marks(analysis)
    if marks is not None:
        columns.append(Column("Top group", [text(marks[run]) for run in runs]))
    for field_name in ("team", "type"):
        values = [analysis.metadata.get(run, {}).get(field_name, "") for run in runs]
        if any(values):
            columns.append(Column(field_name.capitalize(), [text(v) for v in values]))
    columns += [measure(m) for m in measures if m != official]
    findings = {read.name: sum(f.count for f in read.findings)
                for read in analysis.result.inputs.reads}
    counts = [findings.get(run, 0) for run in runs]
    columns.append(Column("Validation", [
        Cell(counted(count, "finding") if count else "no findings",
             href=validation_page(spec.id, analysis.run_slugs[run]))
        for run, count in zip(runs, counts)]))
    ties = tie_ranks(analysis)
    if ties is not None:
        columns.append(Column("Ranks under ties", [text(ties[run]) for run in runs]))
    judged = judgement_columns(analysis)  # pooled, unjudged@10 (``pages.judgements``)
    if judged is not None:
        headers, cells = judged
        blank = [text("")] * len(headers)
        columns += [Column(header, [cells.get(run, blank)[i] for run in runs])
                    for i, header in enumerate(headers)]
    if analysis.duplicates:
        columns.append(Column(DUPLICATE_COLUMN, [
            text(", ".join(analysis.duplicates.get(run, []))) for run in runs]))
    return columns


def leaderboard_table(analysis: SiteTask) -> Table:
    """The leaderboard (``leaderboard_columns``), with its filter over run, team and type, its
    best-run-per-team view and its choice of a team whose runs stand out."""
    spec = analysis.spec
    columns = leaderboard_columns(analysis)
    headers = [c.header for c in columns]
    filtered = tuple(i for i, h in enumerate(headers) if h in ("Run", "Team", "Type"))
    controls = TableControls(
        noun="runs", noun_one="run", filter_columns=filtered,
        filter_label="Filter by " + _either([headers[i].lower() for i in filtered]),
        group_column=headers.index("Team") if "Team" in headers else None,
        group_label="Only each team's best run", highlight_label="Highlight a team",
        sticky_columns=2)
    rows = [list(row) for row in zip(*(c.cells for c in columns))]
    return Table(f"leaderboard-{spec.id}",
                 f"{spec.title}: runs ranked by {analysis.label(spec.official_measure)}",
                 headers, rows, row_header=1, controls=controls if rows else None,
                 official=[c.official for c in columns])


def _either(words: list[str]) -> str:
    """``run, team or type``."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


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
        more = problem_count(errors, "error") - 1  # "20 more lines" is 20 errors
        if more > 0:  # none without errors (a run that could not be read at all)
            reason += f" (and {counted(more, 'more error')})"
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


TOP_RUNS = 5
"""The home page of a campaign of several tasks lists each task's runs ranked this high or
higher (more when runs tie at the last rank)."""


def top_runs_table(analysis: SiteTask) -> Table:
    """The task's best runs (rank at most ``TOP_RUNS``, shared ranks as on the leaderboard):
    rank, run, the official measure and the team when the metadata gives teams."""
    spec = analysis.spec
    kept = [c for c in leaderboard_columns(analysis)
            if c.header in ("Rank", "Run", "Team") or c.official == spec.official_measure]
    top = [i for i, run in enumerate(analysis.runs) if analysis.ranks[run] <= TOP_RUNS]
    rows = [[c.cells[i] for c in kept] for i in top]
    return Table(f"top-runs-{spec.id}",
                 f"{spec.title}: best runs by {analysis.label(spec.official_measure)}",
                 [c.header for c in kept], rows, row_header=1,
                 official=[c.official for c in kept])


def task_section(analysis: SiteTask, build: SiteBuild) -> Page:
    """A task's leaderboard in full, its figure, its rejected runs and the findings in its
    inputs, with the links to its other pages: the home page's content for a campaign of one
    task, the task's page (``task_page``) for one of several. Returned as a page whose
    ``context["task"]`` the template ``task_section.html`` draws."""
    spec = analysis.spec
    page = Page(analysis.leaderboard, "task.html", spec.title)
    board = leaderboard_table(analysis)
    rejected = rejected_table(analysis)
    inputs = input_findings_table(analysis, build.spec.relative)
    page.tables += [board, rejected, inputs]
    official = spec.official_measure
    if len(analysis.runs) > 1 and official in analysis.summary.columns:  # one bar: no chart
        page.figures.append(plots.leaderboard(
            spec.id, analysis.runs, analysis.summary.loc[analysis.runs, official].to_numpy(),
            analysis.label(official)))
    page.context["task"] = {**_links(analysis), "leaderboard": board, "rejected": rejected,
                            "inputs": inputs, "figure": f"figure-leaderboard-{spec.id}"}
    return page


def _links(analysis: SiteTask) -> dict:
    """What a task's section links to and says beside its leaderboard."""
    report = analysis.significance
    return {"analysis": analysis,
            "significance": None if report is None else {
                "page": significance_page_path(analysis.spec.id),
                "settings": report.settings.describe(), "mark": TOP_GROUP_MARK,
                "marked": top_group_marks(analysis) is not None},
            "reliability": None if analysis.reliability is None else {
                "page": reliability_page_path(analysis.spec.id),
                "ties": tie_ranks(analysis) is not None},
            "compare": compare_page_path(analysis.spec.id) if has_pairs(analysis) else None,
            "topics": f"{analysis.spec.id}/topics/index.html",
            "appendix": appendix_page(analysis.spec.id) if analysis.runs else None,
            "judgements": judgements_page_path(analysis.spec.id)
            if analysis.pool is not None and len(analysis.pool.topics) else None,
            "pooled": None if judgement_columns(analysis) is None
            else analysis.pool.pooled_stated}


def home_pages(build: SiteBuild) -> list[Page]:
    """The site's home page (``index.html``): the task's section (``task_section``) when the
    campaign has one task; else, per task, its best runs (``top_runs_table``) and a link to
    its page."""
    site = build.spec
    if len(build.tasks) == 1:
        page = task_section(build.tasks[0], build)
        page.template, page.title = "home.html", site.campaign.title
        page.context["wide"] = True
        return [page.with_table_csvs()]
    page = Page("index.html", "home.html", site.campaign.title)
    tasks = []
    for analysis in build.tasks:
        top = top_runs_table(analysis)
        page.tables.append(top)
        tasks.append({**_links(analysis), "top": top, "page": analysis.leaderboard,
                      "rejected": len(analysis.rejected)})
    page.context = {"tasks": tasks, "wide": False}
    return [page]


def task_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The task's page (``task_page``), in a campaign of several tasks; none in a campaign of
    one, whose home page is the task's."""
    if len(build.tasks) == 1:
        return []
    page = task_section(analysis, build)
    page.context["wide"] = True
    return [page.with_table_csvs()]


HOME_PAGE = PageBuilder("home", Scope.SITE, home_pages, Cost.MEDIUM)
TASK_PAGES = PageBuilder("task", Scope.TASK, task_pages, Cost.MEDIUM)
