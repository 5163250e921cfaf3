"""Reliability on the site: the task's Reliability page, the leaderboard's tie flag and one line
on each run page. Everything shown comes from the task's ``ReliabilityReport``, computed by the
analyse stage (``builder.stats.reliability.report``); this module only lays it out.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from builder.site import plots
from builder.site.models import Figure, Page, PageBuilder, Scope, SiteBuild
from builder.site.parallel import Cost
from builder.site.paths import SiteTask, run_page
from builder.site.tables import Cell, Table, number, signed, text
from builder.stats.reliability.condensed import MOVED

SAMPLE_LABELS = {"pool": "Pool sampling", "topics": "Topic sampling"}
MEASURE_COLOURS = ("#1f4e9c", "#a1261b", "#0b6e35", "#7a4f9a", "#b8860b", "#5c5c5c")
REFERENCES = [
    "Pal, Mitra and Chakraborty. Stability of INEX 2007 evaluation measures. EVIA 2008.",
    "Buckley and Voorhees. Evaluating evaluation measure stability. SIGIR 2000.",
    ("Voorhees and Buckley. The effect of topic set size on retrieval experiment error. "
     "SIGIR 2002."),
    ("Yilmaz, Aslam and Robertson. A new rank correlation coefficient for information "
     "retrieval. SIGIR 2008."),
    ("McSherry and Najork. Computing information retrieval performance measures efficiently "
     "in the presence of tied scores. ECIR 2008."),
    ("Piwowarski and Dupret. Evaluation in (XML) information retrieval: expected "
     "precision-recall with user modelling (EPRUM). SIGIR 2006."),
    ("Pehcevski and Thom. HiXEval: highlighting XML retrieval evaluation. INEX 2005, LNCS "
     "3977, 2006."),
    ("Zobel. How reliable are the results of large-scale information retrieval experiments? "
     "SIGIR 1998."),
]
CONDENSED_REFERENCE = "Sakai. Alternatives to bpref. SIGIR 2007."


def reliability_page_path(task: str) -> str:
    return f"{task}/reliability.html"


def _percent(value: float) -> str:
    return "" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def tie_ranks(analysis: SiteTask) -> dict[str, str] | None:
    """Run -> the leaderboard's Ties cell on the official measure: the range of ranks the run
    can take under other orders of the tied documents, empty when its rank cannot move (None:
    no tie analysis)."""
    report = analysis.reliability
    if report is None:
        return None
    ranges = report.tie_ranges(analysis.spec.official_measure)
    if not len(ranges):
        return None
    marks = {}
    for run in analysis.runs:
        best, worst = (int(ranges.at[run, "best_rank"]), int(ranges.at[run, "worst_rank"])) \
            if run in ranges.index else (0, 0)
        marks[run] = f"{best}–{worst}" if best != worst else ""
    return marks


def run_line(analysis: SiteTask, run: str) -> str | None:
    """The run page's one line: score range under tie orders, unjudged share of the top 10,
    pool-bias change (whichever were computed)."""
    report = analysis.reliability
    if report is None:
        return None
    official = analysis.spec.official_measure
    label = analysis.label(official)
    parts = []
    ranges = report.tie_ranges(official)
    if run in ranges.index:
        row = ranges.loc[run]
        expected = "" if math.isnan(row["expected"]) else f", expected {row['expected']:.4f}"
        if row["worst"] == row["best"]:
            parts.append(f"{label} {row['official']:.4f} whatever the order of its tied "
                         "documents")
        else:
            parts.append(f"{label} from {row['worst']:.4f} to {row['best']:.4f} over the "
                         f"orders of its tied documents{expected}")
    if run in report.unjudged.index and not math.isnan(report.unjudged[run]):
        parts.append(f"{_percent(report.unjudged[run])} of its top 10 documents unjudged")
    bias = report.pool_bias
    if len(bias):
        mine = bias[(bias["run"] == run) & (bias["measure"] == official)]
        if len(mine):
            row = mine.iloc[0]
            parts.append(f"{label} {row['change']:+.4f} with its team left out of the pool "
                         f"(rank {row['rank']} → {row['left_out_rank']} among the other teams)")
    return "; ".join(parts) + "." if parts else None


def stability_figure(sample: str, summary: pd.DataFrame, units: str) -> Figure:
    """Mean tau (solid) and tau_ap (dashed) against the level, one colour per measure, error
    bars one standard deviation."""
    data: list[dict[str, Any]] = []
    rows = summary[summary["sample"] == sample]
    for i, (measure, part) in enumerate(rows.groupby("measure", sort=False)):
        colour = MEASURE_COLOURS[i % len(MEASURE_COLOURS)]
        part = part.sort_values("level", ascending=False)
        levels = [round(100 * v) for v in part["level"]]
        for stat, dash in (("tau", "solid"), ("tau_ap", "dash")):
            data.append({
                "type": "scatter", "mode": "lines+markers", "name": f"{measure} {stat}",
                "x": levels, "y": plots._round(part[f"{stat}_mean"].tolist()),
                "error_y": {"type": "data", "visible": True,
                            "array": plots._round(part[f"{stat}_std"].fillna(0).tolist())},
                "line": {"color": colour, "dash": dash},
            })
    what = units if sample == "pool" else "topics"
    layout = plots._layout(f"Share of {what} kept (%)", "Correlation with the full ranking")
    layout["xaxis"]["autorange"] = "reversed"
    lowest = float(rows["tau_mean"].min()) if len(rows) else 0.0
    layout["yaxis"]["range"] = [min(0.0, lowest) - 0.02, 1.02]
    label = (f"Line chart: Kendall's tau (solid) and tau_ap (dashed) between the ranking of the "
             f"runs on all judgements and on samples keeping a share of the {what}, mean over "
             f"the samples with one standard deviation, per measure; the values are in the "
             f"table below.")
    return Figure(f"figure-stability-{sample}", label, data, layout)


def error_figure(errors: pd.DataFrame) -> Figure:
    data: list[dict[str, Any]] = []
    for i, (measure, part) in enumerate(errors.groupby("measure", sort=False)):
        colour = MEASURE_COLOURS[i % len(MEASURE_COLOURS)]
        part = part.sort_values("topics")
        data.append({"type": "scatter", "mode": "lines+markers", "x": part["topics"].tolist(),
                     "name": f"{measure} (samples with replacement)",
                     "y": plots._round(part["error_lower"].tolist()), "line": {"color": colour}})
        data.append({"type": "scatter", "mode": "lines+markers", "x": part["topics"].tolist(),
                     "name": f"{measure} (disjoint topic sets)",
                     "y": plots._round(part["error_upper"].tolist()),
                     "line": {"color": colour, "dash": "dash"}})
    layout = plots._layout("Topics in each set", "Error rate")
    label = ("Line chart: error rate of each measure against the number of topics, with topic "
             "sets drawn with replacement (solid) and as disjoint sets (dashed); the values are "
             "in the table below.")
    return Figure("figure-error-rate", label, data, layout)


def _stability_table(summary: pd.DataFrame) -> Table:
    rows = [[text(SAMPLE_LABELS.get(r.sample, r.sample)), text(r.measure),
             Cell(f"{100 * r.level:g}%", numeric=True), number(r.tau_mean), number(r.tau_std),
             number(r.tau_min), number(r.tau_ap_mean), number(r.tau_ap_std), number(r.tau_ap_min)]
            for r in summary.itertuples()]
    return Table("stability", "Kendall's tau and tau_ap against the full ranking, per sample "
                 "level (mean, standard deviation and minimum over the samples)",
                 ["Sample", "Measure", "Kept", "tau", "tau sd", "tau min", "tau_ap",
                  "tau_ap sd", "tau_ap min"], rows, row_header=None)


def _error_table(errors: pd.DataFrame, power: dict[str, float]) -> Table:
    rows = [[text(r.measure), Cell(str(r.topics), numeric=True), Cell(_percent(r.error_lower), numeric=True),
             Cell(_percent(r.error_upper), numeric=True), Cell(_percent(r.swap_rate), numeric=True),
             Cell(_percent(power.get(r.measure, math.nan)), numeric=True)]
            for r in errors.itertuples()]
    return Table("error-rate", "Error rate (samples with replacement, disjoint topic sets), "
                 "swap rate and discriminative power per measure and topic-set size",
                 ["Measure", "Topics", "Error (with replacement)", "Error (disjoint sets)",
                  "Swap rate", "Discriminative power"], rows, row_header=None)


def _tie_table(analysis: SiteTask) -> Table:
    report = analysis.reliability
    spec = analysis.spec
    rows = []
    for measure in report.measures:
        ranges = report.tie_ranges(measure)
        for run in analysis.runs:
            if run not in ranges.index:
                continue
            row = ranges.loc[run]
            span = f"{int(row['best_rank'])}–{int(row['worst_rank'])}"
            rows.append([Cell(run, href=run_page(spec.id, analysis.run_slugs[run])),
                         text(analysis.label(measure)), number(row["official"]), number(row["worst"]),
                         number(row["best"]), number(row["expected"]),
                         Cell(str(int(row["rank"])), numeric=True), Cell(span, numeric=True),
                         Cell(_percent(report.unjudged.get(run, math.nan)), numeric=True)])
    return Table("ties", "Scores under the worst, best and all (expected) orders of tied "
                 "documents, and the leaderboard ranks they allow",
                 ["Run", "Measure", "Official", "Worst", "Best", "Expected", "Rank",
                  "Possible ranks", "Unjudged in top 10"], rows)


def _pool_bias_table(analysis: SiteTask) -> Table:
    spec = analysis.spec
    rows = [[Cell(r.run, href=run_page(spec.id, analysis.run_slugs[r.run])), text(r.team),
             text(analysis.label(r.measure)), number(r.official), number(r.left_out), signed(r.change),
             Cell(str(r.rank), numeric=True), Cell(str(r.left_out_rank), numeric=True),
             Cell(str(r.unique_relevant), numeric=True)]
            for r in analysis.reliability.pool_bias.itertuples()]
    return Table("pool-bias", "Scores with the run's team left out of the pool",
                 ["Run", "Team", "Measure", "Official", "Team left out", "Change", "Rank",
                  "Rank, team left out", "Relevant documents only the team found"], rows)


def _condensed_table(analysis: SiteTask) -> Table:
    """The runs whose place moves by more than ``MOVED`` on the condensed lists."""
    spec = analysis.spec
    moved = analysis.reliability.condensed
    moved = moved[moved["moved"].abs() > MOVED]
    rows = [[Cell(r.run, href=run_page(spec.id, analysis.run_slugs[r.run])), number(r.official),
             number(r.condensed), Cell(str(r.rank), numeric=True),
             Cell(str(r.condensed_rank), numeric=True), Cell(f"{r.moved:+d}", numeric=True)]
            for r in moved.itertuples()]
    return Table("condensed", f"Runs whose place moves by more than {MOVED} when scored on "
                 f"their judged documents only ({analysis.label(spec.official_measure)})",
                 ["Run", "Official", "Condensed", "Rank", "Condensed rank", "Places gained"],
                 rows)


AGREEMENT_LEVELS = {"systems": "Runs' means", "topics": "Per-topic scores"}


def _agreement_table(analysis: SiteTask, agreement: pd.DataFrame) -> Table:
    rows = [[text(analysis.label(r.measure_a)), text(analysis.label(r.measure_b)),
             text(AGREEMENT_LEVELS.get(r.level, r.level)),
             Cell(str(r.n), numeric=True), number(r.kendall_tau), number(r.tau_ap),
             number(r.pearson), number(r.spearman)]
            for r in agreement.itertuples()]
    return Table("measure-agreement", "Agreement between the measures shown: rank "
                 "correlations over the runs' means and over every run's per-topic scores",
                 ["Measure A", "Measure B", "Compared", "n", "Kendall's tau",
                  "tau_ap (A as reference)", "Pearson", "Spearman"], rows, row_header=None)


def reliability_pages(analysis: SiteTask, build: SiteBuild) -> list[Page]:
    """The task's reliability page: stability under sampling, error rates, scores under tie
    orders and pool bias, whichever were computed ([]: no reliability analysis)."""
    report = analysis.reliability
    if report is None:
        return []
    spec = analysis.spec
    page = Page(reliability_page_path(spec.id), "reliability.html", f"{spec.title}: reliability")
    summary = report.stability_summary()
    samples = []
    for sample in ("pool", "topics"):
        if len(summary) and (summary["sample"] == sample).any():
            page.figures.append(stability_figure(sample, summary, report.units))
            samples.append({"label": SAMPLE_LABELS[sample], "figure": f"figure-stability-{sample}",
                            "sample": sample})
    if len(summary):
        page.tables.append(_stability_table(summary))
    power = {}
    if analysis.significance is not None:
        frame = analysis.significance.discriminative_power()
        power = dict(zip(frame["measure"], frame["power"]))
    if len(report.error_rates):
        page.figures.append(error_figure(report.error_rates))
        page.tables.append(_error_table(report.error_rates, power))
    if report.agreement is not None and len(report.agreement):
        page.tables.append(_agreement_table(analysis, report.agreement))
    if len(report.ties):
        page.tables.append(_tie_table(analysis))
    if len(report.pool_bias):
        page.tables.append(_pool_bias_table(analysis))
    condensed = None
    if len(report.condensed) > 1:  # a ranking of one run cannot change
        page.tables.append(_condensed_table(analysis))
        condensed = {**report.condensed_agreement, "moved": MOVED,
                     "measure": analysis.label(spec.official_measure)}
    settings = report.settings
    page.context = {
        "analysis": analysis, "report": report, "samples": samples,
        "levels": ", ".join(f"{100 * v:g}%" for v in settings.levels),
        "references": REFERENCES + [CONDENSED_REFERENCE] * (condensed is not None),
        "condensed": condensed,
    }
    return [page.with_table_csvs()]


RELIABILITY_PAGE = PageBuilder("reliability", Scope.TASK, reliability_pages, Cost.MEDIUM)


def with_reliability_lines(analysis: SiteTask, pages: list[Page]) -> list[Page]:
    """Give each run page (``context["run"]``) its reliability line and the page's link."""
    if analysis.reliability is None:
        return pages
    link = reliability_page_path(analysis.spec.id)
    for page in pages:
        run = page.context.get("run")
        line = run_line(analysis, run) if run is not None else None
        if line:
            page.context["reliability"] = {"line": line, "page": link}
    return pages
