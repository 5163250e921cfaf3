"""Significance on the site: the task's significance page, the leaderboard's top-group marker and
each run page's better / worse / indistinguishable lists.

All views come from the task's ``SignificanceReport`` (``builder.stats.significance.tables``), computed
by the analyse stage; the settings (test, correction, alpha, B) travel with every result shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from builder.config.significance import JOINT_TESTS
from builder.site import plots
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.pages.run_pairs import compare_page_path, has_pairs
from builder.site.paths import SiteTask, run_page, slugs, table_csv
from builder.site.tables import Cell, Table, number, number_texts

if TYPE_CHECKING:
    from builder.stats.significance.tables import SignificanceReport

TOP_GROUP_MARK = "●"
"""The leaderboard's marker of a run not significantly different from the top run."""


def significance_page_path(task: str) -> str:
    return f"{task}/significance.html"


def top_group_marks(analysis: SiteTask) -> dict[str, str] | None:
    """Run -> leaderboard marker on the official measure (None: no test of that measure)."""
    report = analysis.significance
    if report is None or analysis.spec.official_measure not in report.matrices:
        return None
    group = set(report.top_group(analysis.spec.official_measure))
    return {run: TOP_GROUP_MARK if run in group else "" for run in analysis.runs}


def significance_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The task's significance page: per measure, the heatmap of adjusted p-values and the top
    group; the discriminative power ([]: no test run)."""
    report = analysis.significance
    if report is None:
        return []
    spec = analysis.spec
    page = Page(significance_page_path(spec.id), "significance.html",
                f"{spec.title}: significance tests")
    measure_slugs = slugs(report.matrices)
    pairs = has_pairs(analysis)
    measures = []
    for measure, matrix in report.matrices.items():
        runs = [run for run in analysis.runs if run in matrix.runs]
        p_matrix = report.p_matrix(measure).reindex(index=runs, columns=runs)
        figure = plots.p_value_heatmap(f"figure-significance-{measure_slugs[measure]}",
                                       analysis.label(measure), runs, p_matrix.to_numpy(),
                                       report.settings.alpha)
        figure.compare = page.root + compare_page_path(spec.id) if pairs else None
        page.figures.append(figure)
        group = report.top_group(measure)
        measures.append({
            "label": analysis.label(measure),  # also what measure_switch lists
            "figure": figure.id, "top": group[0] if group else None,
            "group": [(run, run_page(spec.id, analysis.run_slugs[run])) for run in group],
            "pairs": len(report.pairs(measure)),
        })
    power = report.discriminative_power()
    rows = [[Cell(analysis.label(str(row.measure))), Cell(str(row.pairs), numeric=True),
             Cell(str(row.significant), numeric=True), number(row.power)]
            for row in power.itertuples()]
    page.tables = [Table("discriminative-power", "Discriminative power: the fraction of pairs "
                         "of runs significantly different, per measure",
                         ["Measure", "Pairs", "Significant pairs", "Discriminative power"], rows)]
    page.context = {"analysis": analysis, "settings": report.settings.describe(),
                    "warnings": report.warnings(), "measures": measures,
                    "download": f"{spec.id}/downloads/significance.csv",
                    "compare": compare_page_path(spec.id) if pairs else None}
    return [page.with_table_csvs()]


SIGNIFICANCE_PAGE = PageBuilder("significance", Scope.TASK, significance_pages)


VERDICTS = {"better": "significantly better", "worse": "significantly worse",
            "indistinguishable": "not significantly different"}
COMPARISON_COLUMNS = ["Run", "Mean difference", "95% CI", "Effect size", "p-value",
                      "Adjusted p-value"]


def with_run_comparisons(analysis: SiteTask, pages: list[Page]) -> list[Page]:
    """Give each run page (``context["run"]``) its comparisons, ``context["significance"]``,
    which the run templates render with ``run_significance.html``.

    Per measure, the page shows three views (better than, worse than, indistinguishable from)
    of one table, whose CSV holds them all with a verdict column. Its rows are sliced from the
    task's comparisons (``task_comparisons``, made once per task), and link to the other runs'
    pages relative to the run page's own folder."""
    report = analysis.significance
    measure_slugs = slugs(report.matrices) if report is not None else {}
    comparisons = task_comparisons(analysis)
    links = {run: Cell(run, href=f"./{slug}.html") for run, slug in analysis.run_slugs.items()}
    columns, p_label, keep = _p_columns(report)
    for page in pages:
        run = page.context.get("run")
        page.context["significance"] = None
        if report is None or run is None:
            continue
        sections = []
        for measure in report.matrices:
            rows = comparisons[measure].of(run, links)
            table = Table(f"significance-{measure_slugs[measure]}",
                          f"On {analysis.label(measure)}, {run} compared with every other run",
                          [columns[0], "This run is"] + columns[1:],
                          [row[:keep + 1] for row in rows.all])
            table.csv = table_csv(page.path, table.id)
            page.tables.append(table)
            views = {view: Table(f"{view}-{measure_slugs[measure]}",
                                 f"On {analysis.label(measure)}, {run} is "
                                 f"{verdict} {'from' if view == 'indistinguishable' else 'than'}",
                                 columns, [row[:keep] for row in getattr(rows, view)])
                     for view, verdict in VERDICTS.items()}
            sections.append({"measure": analysis.label(measure), "better": views["better"],
                             "worse": views["worse"], "csv": table.csv if table.has_rows else None,
                             "same": [(cells[0], cells[-1].text)
                                      for cells in views["indistinguishable"].rows]})
        page.context["significance"] = {
            "settings": report.settings.describe(), "sections": sections, "p_label": p_label,
            "family_wise": report.settings.test in JOINT_TESTS,
            "page": significance_page_path(analysis.spec.id),
        }
    return pages


def _p_columns(report: SignificanceReport | None) -> tuple[list[str], str, int]:
    """The comparison columns, the label of the p-value a run list shows, and how many cells
    of a row to keep: one p-value column where no correction applies (Tukey's HSD is already
    family-wise; without a correction the adjusted p is the p-value), else both."""
    if report is None or report.settings.applied_correction != "none":
        return COMPARISON_COLUMNS, "adjusted p", len(COMPARISON_COLUMNS)
    joint = report.settings.test in JOINT_TESTS
    label = "Family-wise p-value" if joint else "p-value"
    return COMPARISON_COLUMNS[:-2] + [label], "family-wise p" if joint else "p", \
        len(COMPARISON_COLUMNS) - 1


@dataclass
class RunComparisons:
    """One run's rows against every other run: all of them with the verdict as second cell
    (the CSV), and each verdict's rows without it (the page's three views)."""

    all: list[list[Cell]] = field(default_factory=list)
    better: list[list[Cell]] = field(default_factory=list)
    worse: list[list[Cell]] = field(default_factory=list)
    indistinguishable: list[list[Cell]] = field(default_factory=list)

    def add(self, view: str, cells: list[Cell]) -> None:
        self.all.append([cells[0], _VERDICT_CELLS[view], *cells[1:]])
        getattr(self, view).append(cells)


@dataclass(frozen=True)
class ComparisonTable:
    """Every run's comparisons on one measure, formatted once: one row per (run, other run)
    in both directions, each run's rows contiguous (``spans``), in the order
    ``SignificanceReport.run_comparisons`` gives them (the pairs where the run is ``run_b``,
    then those where it is ``run_a``); differences signed as the run minus the other."""

    spans: dict[str, tuple[int, int]]
    other: list[str]
    view: list[str]
    texts: tuple[list[str], ...]
    """Per row: mean difference, confidence interval, effect size, p-value, adjusted p."""

    def of(self, run: str, links: dict[str, Cell]) -> RunComparisons:
        """The rows of ``run`` (none for a run without tests), each led by ``links`` of the
        other run."""
        result = RunComparisons()
        start, stop = self.spans.get(run, (0, 0))
        diff, ci, effect, p, adjusted = (column[start:stop] for column in self.texts)
        for k, (other, view) in enumerate(zip(self.other[start:stop], self.view[start:stop])):
            result.add(view, [links[other], Cell(diff[k], None, True), Cell(ci[k], None, True),
                              Cell(effect[k], None, True), Cell(p[k], None, True),
                              Cell(adjusted[k], None, True)])
        return result


TASK_COMPARISONS = "significance.run_comparisons"
"""The key of ``task_comparisons`` in ``SiteTask.shared``."""


def task_comparisons(analysis: SiteTask) -> dict[str, ComparisonTable]:
    """Per measure tested, the task's ``ComparisonTable``: made on the first call and kept in
    ``analysis.shared``, so that the run pages' jobs slice one table (the render stage makes it
    before its worker is forked: ``builder.site.writer``) rather than format again, chunk by
    chunk, the pairs whose runs sit in different chunks."""
    if TASK_COMPARISONS not in analysis.shared:
        report = analysis.significance
        analysis.shared[TASK_COMPARISONS] = {} if report is None else {
            measure: _comparison_table(report.pairs(measure)) for measure in report.matrices}
    return analysis.shared[TASK_COMPARISONS]


def _comparison_table(pairs: pd.DataFrame) -> ComparisonTable:
    """``ComparisonTable`` of one measure's pairs (``SignificanceReport.pairs``). Each pair's
    numbers are formatted once and serve both of its runs, the other side's signed texts being
    the same with the sign flipped (formatting is symmetric); the rows are ordered by a stable
    sort on the run, so a run's pairs as ``run_b`` keep their order and precede its pairs as
    ``run_a``."""
    run_a, run_b = pairs["run_a"].astype(str).tolist(), pairs["run_b"].astype(str).tolist()
    difference = pairs["mean_diff"].to_numpy(dtype=float)
    significant = pairs["significant"].to_numpy(dtype=bool)
    a_views = np.where(significant & (difference > 0), "better",
                       np.where(significant & (difference < 0), "worse", "indistinguishable"))
    diffs, lows, highs, effects = (number_texts(pairs[c], "+.4f")
                                   for c in ("mean_diff", "ci_low", "ci_high", "effect"))
    p_values, adjusted = number_texts(pairs["p_value"]), number_texts(pairs["p_adjusted"])
    # The rows as run_b, then as run_a, before the stable sort on the run.
    runs = run_b + run_a
    order = sorted(range(len(runs)), key=runs.__getitem__)
    columns = (
        run_a + run_b,
        [_OPPOSITE[view] for view in a_views.tolist()] + a_views.tolist(),
        [_flip(d) for d in diffs] + diffs,
        [f"[{_flip(high)}, {_flip(low)}]" for low, high in zip(lows, highs)]
        + [f"[{low}, {high}]" for low, high in zip(lows, highs)],
        [_flip(e) for e in effects] + effects,
        p_values + p_values,
        adjusted + adjusted,
    )
    other, view, *texts = ([column[k] for k in order] for column in columns)
    spans: dict[str, tuple[int, int]] = {}
    for index, k in enumerate(order):
        run = runs[k]
        spans[run] = (spans[run][0] if run in spans else index, index + 1)
    return ComparisonTable(spans, other, view, tuple(texts))


_VERDICT_CELLS = {view: Cell(text) for view, text in VERDICTS.items()}
_OPPOSITE = {"better": "worse", "worse": "better", "indistinguishable": "indistinguishable"}


def _flip(text: str) -> str:
    """The signed text of the negated value: ``f"{-x:+.4f}"`` is ``f"{x:+.4f}"`` with the
    other sign, rounding being symmetric."""
    if not text:
        return text
    return ("-" if text[0] == "+" else "+") + text[1:]
