"""The measures page: every measure of the campaign's families, from the measure registry, the
trec_eval release each ad hoc task's scores follow, and every remaining difference from the
official programs (``builder.measures.catalogue.official_differences``), one row each."""

from __future__ import annotations

from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.paths import SiteTask
from builder.site.tables import Table, text


def measures_pages(build: SiteBuild) -> list[Page]:
    """Each measure of the campaign's families, from the registry: one row per measure or per
    parameterised family (``P_k``), shared notes once under the table, then the references."""
    from builder.measures.catalogue import catalogue, official_differences
    from builder.measures.registry import measures_of

    page = Page("measures.html", "measures.html", "Measures")
    families = sorted({a.spec.kind.family for a in build.tasks})
    notes, references = {}, {}
    for family in families:
        listed = catalogue(measures_of(family))
        rows = [[text(row.name), text(row.shown_as), text(row.parameters), text(row.description), text(row.source),
                 text(row.summary), text(f"See note {row.note}." if row.note else row.differs)]
                for row in listed.rows]
        page.tables.append(Table(
            f"measures-{family}", f"Measures of the {family} family",
            ["Measure", "Shown as", "Parameters", "Definition", "Source", "Summary over topics",
             "Differs from official"], rows))
        notes[family] = listed.notes
        references.update({ref.key: ref for ref in listed.references})
    differences = official_differences(families)
    page.tables.append(Table(
        "differences", "Remaining differences from the official programs",
        ["Program", "Case", "This site", "The program", "Reason"],
        [[text(d.program), text(d.case), text(d.ours), text(d.theirs), text(d.reason)]
         for d in differences], row_header=None))
    page.context = {"families": families, "notes": notes, "rules": _scoring_rules(build.tasks),
                    "references": list(references.values())}
    return [page.with_table_csvs()]


def _scoring_rules(analyses: list[SiteTask]) -> list[tuple[str, str]]:
    """(task title, the trec_eval release its ad hoc scores follow, in a sentence)."""
    from builder.measures.adhoc.trec_eval.profiles import describe, reading_rules

    return [(a.spec.title,
             f"{describe(a.spec.options.profile)} {reading_rules(a.spec.options.reading)}")
            for a in analyses if hasattr(a.spec.options, "profile")]


MEASURES_PAGE = PageBuilder("measures", Scope.SITE, measures_pages)
