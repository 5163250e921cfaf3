"""The campaign's pages other than run pages: home, topics, validation, measures, downloads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from builder.config.schema import SiteSpec
from builder.findings import sort_findings
from builder.site import plots
from builder.site.models import Page
from builder.site.pages.reliability import reliability_page_path, tie_ranks
from builder.site.pages.run_pairs import compare_page_path, has_pairs
from builder.site.pages.significance import TOP_GROUP_MARK, significance_page_path, top_group_marks
from builder.site.paths import SiteTask, run_page, table_csv, topic_page, validation_page
from builder.site.runs.measures import topic_measures
from builder.site.tables import Cell, Table, TableControls, number, numbers, text

MAX_FINDINGS_SHOWN = 1000
"""A run with more findings shows the first ones; the task's findings.csv holds them all."""


def _with_csv(page: Page) -> Page:
    for table in page.tables:
        table.csv = table_csv(page.path, table.id)
    return page


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
    rows = []
    for rank, run in enumerate(analysis.runs, start=1):
        slug, meta = analysis.run_slugs[run], analysis.metadata.get(run, {})
        count = findings.get(run, 0)
        values = [number(analysis.summary.at[run, m], m) for m in measures]
        if marks is not None:
            values.insert(mark_at, text(marks[run]))
        rows.append([Cell(str(rank), numeric=True), Cell(run, href=run_page(spec.id, slug)),
                     text(meta.get("team", "")), text(meta.get("type", ""))]
                    + values
                    + [Cell(f"{count} finding{'s' * (count != 1)}" if count else "no findings",
                            href=validation_page(spec.id, slug))]
                    + ([text(ties[run])] if ties is not None else []))
    columns = list(measures)
    if marks is not None:
        columns.insert(mark_at, "Top group")
    has_teams = any(analysis.metadata.get(run, {}).get("team") for run in analysis.runs)
    controls = TableControls(
        noun="runs", filter_columns=(1, 2, 3), filter_label="Filter by run, team or type",
        group_column=2 if has_teams else None, group_label="Only each team's best run",
        sticky_columns=2)
    return Table(f"leaderboard-{spec.id}", f"{spec.title}: runs ranked by {spec.official_measure}",
                 ["Rank", "Run", "Team", "Type"] + columns + ["Validation"]
                 + (["Ranks under ties"] if ties is not None else []), rows, row_header=1,
                 controls=controls if rows else None)


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


def home_page(site: SiteSpec, analyses: list[SiteTask]) -> Page:
    page = Page("index.html", "home.html", site.campaign.title)
    tasks = []
    for analysis in analyses:
        board = leaderboard_table(analysis)
        rejected = rejected_table(analysis)
        inputs = input_findings_table(analysis, site.relative)
        page.tables += [board, rejected, inputs]
        official = analysis.spec.official_measure
        if analysis.runs and official in analysis.summary.columns:
            page.figures.append(plots.leaderboard(
                analysis.spec.id, analysis.runs,
                analysis.summary.loc[analysis.runs, official].to_numpy(), official))
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
    return _with_csv(page)


def topic_index_page(analysis: SiteTask) -> Page:
    """Every topic with its judgements and how hard it was: the median and best of the runs on
    the official measure (its per-topic measure: AiP for MAiP), a sortable table."""
    spec = analysis.spec
    page = Page(f"{spec.id}/topics/index.html", "topics.html", f"{spec.title}: topics")
    measures = topic_measures(analysis)
    official = measures[0] if measures else None
    judgements = analysis.judgements.reindex(analysis.topics)
    counts = [c for c in ("judged", "relevant") if c in judgements.columns]
    grades = [c for c in judgements.columns if c.startswith("grade ") and c != "grade 0"]
    columns = [numbers(judgements[c].to_numpy(float), "num_rel") for c in counts + grades]
    if official is not None:
        columns += [numbers(analysis.median[official].reindex(analysis.topics).to_numpy(float)),
                    numbers(analysis.best[official].reindex(analysis.topics).to_numpy(float))]
    links = [Cell(topic, href=topic_page(spec.id, analysis.topic_slugs[topic]))
             for topic in analysis.topics]
    titles = [text(analysis.topic_text.get(topic, {}).get("title", "")) for topic in analysis.topics]
    rows = [list(row) for row in zip(links, titles, *columns)]
    header = ["Topic", "Title"] + [c.capitalize() for c in counts] + [
        f"Relevant at {c}" for c in grades]
    header += [f"Median {official}", f"Best {official}"] if official is not None else []
    page.tables = [_sortable(Table("topics", f"{spec.title}: topics", header, rows), "topics")]
    page.context = {"analysis": analysis, "official": official}
    return _with_csv(page)


def _sortable(table: Table, noun: str) -> Table:
    """``table`` with the sorting and filtering controls of ``assets/tables.js``."""
    table.controls = TableControls(noun=noun, filter_columns=(0, 1),
                                   filter_label="Filter by topic or title")
    return table


def topic_pages(analysis: SiteTask) -> list[Page]:
    """Per topic: its text, its judgements (judged documents, relevant ones per grade), the
    distribution of every run's score on the official measure, and every run's scores on the
    shown measures (best first)."""
    spec = analysis.spec
    measures = topic_measures(analysis)
    official = measures[0] if measures else None
    by_topic = analysis.per_topic.reorder_levels(["topic", "run"]).sort_index()
    judgements = analysis.judgements
    pages = []
    for topic in analysis.topics:
        page = Page(topic_page(spec.id, analysis.topic_slugs[topic]), "topic.html",
                    f"{spec.title}: topic {topic}")
        values = by_topic.loc[topic].reindex(analysis.runs)
        if official is not None:
            order = values[official].sort_values(ascending=False, kind="mergesort").index
            values = values.loc[order]
        links = [Cell(run, href=run_page(spec.id, analysis.run_slugs[run]))
                 for run in values.index]
        rows = [list(row) for row in zip(links, *[numbers(values[m].to_numpy(), m)
                                                  for m in measures])]
        page.tables = [Table("runs", f"Runs on topic {topic}, best first", ["Run"] + measures,
                             rows)]
        if official is not None:
            page.figures.append(plots.score_distribution(
                topic, list(values.index), values[official].to_numpy(), official))
        stats: list[tuple[str, Any]] = []
        if topic in judgements.index:
            for column in judgements.columns:
                label = {"judged": "Judged documents", "relevant": "Relevant documents"}.get(
                    column, f"Documents judged at {column}")
                stats.append((label, str(int(judgements.at[topic, column]))))
        if official is not None:
            stats += [(f"Median {official}", number(analysis.median.at[topic, official]).text),
                      (f"Best {official}", number(analysis.best.at[topic, official]).text)]
        page.context = {"analysis": analysis, "topic": topic, "stats": stats,
                        "official": official, "text": analysis.topic_text.get(topic, {})}
        pages.append(_with_csv(page))
    return pages


def validation_pages(analysis: SiteTask, display_path) -> list[Page]:
    """Per run (accepted or not): its findings with line numbers."""
    spec = analysis.spec
    pages = []
    for read, slug in zip(analysis.result.inputs.reads, analysis.read_slugs):
        page = Page(validation_page(spec.id, slug), "validation.html",
                    f"Validation of run {read.name}")
        findings = sort_findings(read.findings)
        rows = [[Cell("" if f.line is None else str(f.line), numeric=True), text(f.severity),
                 text(f.message)] for f in findings[:MAX_FINDINGS_SHOWN]]
        page.tables = [Table("findings", f"Findings for run {read.name}",
                             ["Line", "Severity", "Message"], rows, row_header=None)]
        counts = {s: sum(f.severity == s for f in findings) for s in ("error", "warning", "info")}
        page.context = {"analysis": analysis, "read": read, "file": display_path(read.path),
                        "counts": counts, "total": len(findings),
                        "shown": min(len(findings), MAX_FINDINGS_SHOWN),
                        "run_page": None if read.rejected else run_page(spec.id, analysis.run_slugs[read.name])}
        pages.append(_with_csv(page))
    return pages


def measures_page(analyses: list[SiteTask]) -> Page:
    """Each measure of the campaign's families, from the registry: one row per measure or per
    parameterised family (``P_k``), shared notes once under the table, then the references."""
    from builder.measures.catalogue import catalogue
    from builder.measures.registry import measures_of

    page = Page("measures.html", "measures.html", "Measures")
    families = sorted({a.spec.kind.family for a in analyses})
    notes, references = {}, {}
    for family in families:
        listed = catalogue(measures_of(family))
        rows = [[text(row.name), text(row.parameters), text(row.description), text(row.source),
                 text(row.summary), text(f"See note {row.note}." if row.note else row.differs)]
                for row in listed.rows]
        page.tables.append(Table(
            f"measures-{family}", f"Measures of the {family} family",
            ["Measure", "Parameters", "Definition", "Source", "Summary over topics",
             "Differs from official"], rows))
        notes[family] = listed.notes
        references.update({ref.key: ref for ref in listed.references})
    page.context = {"families": families, "notes": notes, "rules": _scoring_rules(analyses),
                    "references": list(references.values())}
    return _with_csv(page)


def _scoring_rules(analyses: list[SiteTask]) -> list[tuple[str, str]]:
    """(task title, the trec_eval release its ad hoc scores follow, in a sentence)."""
    from builder.measures.adhoc.trec_eval.profiles import describe, reading_rules

    return [(a.spec.title,
             f"{describe(a.spec.options.profile)} {reading_rules(a.spec.options.reading)}")
            for a in analyses if hasattr(a.spec.options, "profile")]


def downloads_page(analyses: list[SiteTask], downloads: dict[str, list[dict[str, str]]]) -> Page:
    page = Page("downloads.html", "downloads.html", "Downloads")
    page.context = {"tasks": [(a, downloads.get(a.spec.id, [])) for a in analyses]}
    return page
