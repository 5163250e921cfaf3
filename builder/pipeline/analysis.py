"""The analyse stage: from a task's long score table to the wide views the pages read.

Everything here is computed over all runs and topics at once: the summary per run, the
per-topic values, per topic the worst, median and best over the task's runs (the reference
lines of the TREC appendix pages), and the significance tests between every pair of runs.
Nothing here knows about pages: where each view is drawn, and under which file name, is the
site's affair.

The significance tests (mostly their bootstrap intervals: every pair, measure and resample)
and the analyses that read the rankings (reliability, the judgements page, the duplicate
runs) need nothing of each other: where there are two cores the tests run in a forked worker
while this process runs the others (``builder.pipeline.forked.side_by_side``), with the same
results as one after the other (the random streams are the tests' own). The reliability
analyses and the judgements page read the same ad hoc rankings, sorted and judged once
(``shared_judgements``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from builder.contract import SUMMARY_TOPIC, RunRead
from builder.pipeline.forked import side_by_side
from builder.pipeline.model import TaskResult

if TYPE_CHECKING:
    from builder.stats.pools.judgements import JudgementReport
    from builder.stats.reliability.report import ReliabilityReport
    from builder.stats.significance.tables import SignificanceReport


@dataclass
class TaskAnalysis:
    """A task ready for its pages.

    runs: accepted runs, best first by the official measure (ties by name).
    summary: run x measure, the ``all`` rows. per_topic: (run, topic) x measure.
    median, best, worst: topic x measure over the runs (best = max and worst = min, the other
    way round where lower is better).
    metadata: per run, its row of the run metadata; topic_text: per topic, its topic file row.
    extras: the kind's extra tables (``pr_points`` for ad hoc ...).
    summary_median, summary_best: per measure, the median and best of the runs' summaries.
    judgements: topic x count, what the qrels judged (``judgement_counts``).
    significance: the all-pairs tests (None: disabled, or fewer than two runs).
    reliability: stability, error rate, ties and pool bias (None: disabled, or one run).
    pool: what the qrels judged against the runs, the judgements page (None: no run, or the
    runs were not kept).
    ranks: per run, its rank on the official measure, competition style (``competition_ranks``).
    duplicates: per run that has any, the other runs of the same ranking (``duplicate_runs``).
    """

    result: TaskResult
    runs: list[str]
    topics: list[str]
    summary: pd.DataFrame
    per_topic: pd.DataFrame
    median: pd.DataFrame
    best: pd.DataFrame
    worst: pd.DataFrame
    metadata: dict[str, dict[str, str]]
    topic_text: dict[str, dict[str, str]]
    extras: Mapping[str, Any] = field(default_factory=dict)
    significance: SignificanceReport | None = None
    reliability: ReliabilityReport | None = None
    summary_median: pd.Series = field(default_factory=lambda: pd.Series(dtype=float))
    summary_best: pd.Series = field(default_factory=lambda: pd.Series(dtype=float))
    judgements: pd.DataFrame = field(default_factory=pd.DataFrame)
    pool: JudgementReport | None = None
    ranks: dict[str, int] = field(default_factory=dict)
    duplicates: dict[str, list[str]] = field(default_factory=dict)

    @property
    def spec(self):
        return self.result.inputs.spec

    @property
    def rejected(self) -> list[RunRead]:
        return self.result.inputs.rejected

    def label(self, measure: str) -> str:
        """The display name of ``measure`` (``nDCG@10`` for ``ndcg_cut_10``), from the registry."""
        from builder.measures.registry import display_name

        return display_name(self.spec.kind.family, measure)

    def measure_order(self) -> list[str]:
        """The task's measures in registry order, then any others by name."""
        from builder.measures.registry import measures_of

        declared = [m.name for m in measures_of(self.spec.kind.family)]
        present = set(self.summary.columns)
        return [m for m in declared if m in present] + sorted(present - set(declared))


def topic_order(topics) -> list[str]:
    """Topics in natural order: numbers by value, then names."""
    return sorted({str(t) for t in topics}, key=lambda t: (0, int(t), t) if t.isdigit() else (1, 0, t))


def analyse(result: TaskResult) -> TaskAnalysis:
    """The wide views of ``result``; "best" follows each measure's ``higher_is_better``."""
    from builder.measures.registry import measures_of

    inputs = result.inputs
    spec = inputs.spec
    lower_is_better = {m.name for m in measures_of(spec.kind.family) if not m.higher_is_better}
    if result.evaluation is None or result.evaluation.scores.empty:
        scores = pd.DataFrame({"run": [], "topic": [], "measure": [], "value": []})
    else:
        scores = result.evaluation.scores
    scores = scores.assign(topic=scores["topic"].astype(str))
    is_summary = scores["topic"] == SUMMARY_TOPIC
    summary = scores[is_summary].pivot(index="run", columns="measure", values="value")
    per_topic = scores[~is_summary].pivot(index=["run", "topic"], columns="measure", values="value")
    topics = topic_order(per_topic.index.get_level_values("topic"))
    by_topic = per_topic.groupby(level="topic")
    median = by_topic.median()
    best, worst = by_topic.max(), by_topic.min()
    summary_median, summary_best = summary.median(), summary.max()
    for measure in lower_is_better & set(best.columns):
        best[measure], worst[measure] = by_topic[measure].min(), by_topic[measure].max()
        summary_best[measure] = summary[measure].min()
    official = spec.official_measure
    ascending = official in lower_is_better
    if official in summary.columns:
        order = summary[official].rename("value").reset_index()
        order["key"] = order["value"] if ascending else -order["value"]
        runs = order.sort_values(["key", "run"], kind="mergesort")["run"].tolist()
        ranks = competition_ranks(summary[official], ascending)
    else:
        runs = sorted(summary.index)
        ranks = {run: position for position, run in enumerate(runs, start=1)}
    metadata = {str(row["run"]): {k: str(v) for k, v in row.items()}
                for row in inputs.metadata.to_dict("records")}
    topic_text = {str(row["topic"]): row for row in inputs.topics.to_dict("records")}
    analysis = TaskAnalysis(
        result=result, runs=runs, topics=topics, summary=summary, per_topic=per_topic,
        median=median, best=best, worst=worst, metadata=metadata, topic_text=topic_text,
        extras=result.evaluation.extras if result.evaluation else {},
        summary_median=summary_median, summary_best=summary_best,
        judgements=judgement_counts(inputs.qrels), ranks=ranks,
    )
    tested = significance_wanted(analysis)
    if tested and reliability_wanted(analysis):
        import scipy.stats  # noqa: F401 (both sides use it: imported once, before the fork)
    (analysis.reliability, analysis.pool, analysis.duplicates), analysis.significance = \
        side_by_side(lambda: _rankings_analyses(analysis),
                     lambda: significance(analysis) if tested else None,
                     name="analyse worker", processes=None if tested else 1)
    return analysis


def _rankings_analyses(analysis: TaskAnalysis) -> tuple[ReliabilityReport | None,
                                                        JudgementReport | None,
                                                        dict[str, list[str]]]:
    """The analyses that read the runs' rankings: reliability, the judgements page and the
    duplicate runs, the runs put together once, and sorted and judged once for the first
    two (``shared_judgements``)."""
    inputs = analysis.result.inputs
    # the runs in one table: read by the reliability analyses and the ad hoc judgements page
    needed = reliability_wanted(analysis) or analysis.spec.kind.name == "adhoc"
    runs = None if inputs.runs_dropped or not inputs.accepted or not needed else \
        pd.concat([read.table for read in inputs.accepted], ignore_index=True)
    uncut = shared_judgements(analysis, runs)
    return (reliability(analysis, runs, uncut), pool_judgements(analysis, runs, uncut),
            {} if inputs.runs_dropped else duplicate_runs(inputs.accepted))


def shared_judgements(analysis: TaskAnalysis, runs: pd.DataFrame | None) -> Any:
    """The ad hoc rankings of ``runs`` sorted and judged once, uncut, by qrels row
    (``builder.stats.reliability.adhoc_rejudge.judge_once``), when both the reliability
    analyses (their tie analysis) and the judgements page need them: the judgements page
    reads them cut at its deepest cutoff. None otherwise (each sorts what it needs)."""
    settings = analysis.spec.reliability
    if (runs is None or not reliability_wanted(analysis) or analysis.spec.kind.name != "adhoc"
            or not settings.ties or settings.runs is not None):
        return None
    from builder.stats.reliability.adhoc_rejudge import judge_once
    from builder.stats.reliability.ties import UNLIMITED

    return judge_once(runs, analysis.result.inputs.qrels, analysis.spec.options,
                      depth=UNLIMITED, keep_rows=True)


def pooled_and_teams(analysis: TaskAnalysis) -> tuple[set[str], dict[str, str]]:
    """The runs that fed the pool (the reliability section's ``pooled_runs``, else the run
    metadata's marks, else every run) and each run's team from the metadata."""
    from builder.stats.pools.selection import marked_runs, marks_runs, teams_of

    metadata = analysis.result.inputs.metadata
    settings = analysis.spec.reliability
    if settings is not None and settings.pooled_runs is not None:
        pooled = set(settings.pooled_runs)
    elif marks_runs(metadata):
        pooled = marked_runs(metadata)
    else:
        pooled = set(analysis.runs)
    return pooled, teams_of(metadata if "run" in metadata.columns else None)


def pool_judgements(analysis: TaskAnalysis, runs: pd.DataFrame | None,
                    uncut: Any) -> JudgementReport | None:
    """The judgements page's tables (``builder.stats.pools.judgements``): the ad hoc runs
    against the qrels, at the reliability section's ``pool_depth`` (else the depth the qrels
    show); an INEX task's assessed articles. None without runs, or when the ad hoc runs were
    not kept (evaluated in batches). ``runs``: the accepted runs' tables put together;
    ``uncut``: ``shared_judgements``."""
    from builder.stats.pools.judgements import (
        UNJUDGED_CUTOFFS,
        article_judgements,
        judgement_report,
    )
    from builder.stats.pools.selection import marks_runs

    inputs = analysis.result.inputs
    if not analysis.runs:
        return None
    pooled, teams = pooled_and_teams(analysis)
    settings = analysis.spec.reliability
    stated = marks_runs(inputs.metadata) or (settings is not None
                                             and settings.pooled_runs is not None)
    qrels = inputs.qrels
    articles = getattr(qrels, "articles", None)
    if isinstance(articles, pd.DataFrame) and "rel_chars" in articles.columns:
        return article_judgements(articles, pooled if stated else None, analysis.runs)
    if analysis.spec.kind.name != "adhoc" or runs is None:  # None: the runs were dropped
        return None
    judged = None
    if uncut is not None:
        from builder.stats.reliability.adhoc_rejudge import cut_at, rejudge

        judged = rejudge(cut_at(uncut, max(UNJUDGED_CUTOFFS)))
    report = judgement_report(runs, qrels, pooled, teams,
                              rel_level=analysis.spec.options.rel_level,
                              pool_depth=None if settings is None else settings.pool_depth,
                              judged=judged)
    report.pooled_stated = stated
    return report


def competition_ranks(values: pd.Series, ascending: bool = False) -> dict[str, int]:
    """Per run (the index of ``values``), its rank competition style ("1224"): one more than
    the number of runs with a strictly better value, so that exactly equal scores share a rank
    and the next rank is skipped (as the reliability page's tie ranks count). A missing value
    ranks last."""
    ranked = values.rank(method="min", ascending=ascending, na_option="bottom")
    return {str(run): int(rank) for run, rank in ranked.items()}


RANKING_IGNORED = frozenset({"run", "score", "tag", "line", "rank", "q0"})
"""Columns of a run table that do not say what is retrieved: the ranking is the rest
(topic and document, or topic, file and passage ...) in the order the run ranks them."""


def ranking_positions(table: pd.DataFrame) -> np.ndarray:
    """The positions of ``table``'s rows in the order its kind ranks them, topics in text
    order: a TREC run (``doc`` and ``score``) in the evaluation's order, score descending and
    ties by docno descending (``builder.measures.adhoc.judged.ranking.ranking_order``,
    trec_eval's ``form_res_rels.c``); any other run (INEX) in the order of its lines, as
    inex_eval reads it."""
    codes, names = pd.factorize(table["topic"], sort=False)
    by_text = np.empty(len(names), np.int64)  # topics in text order, whatever the column's type
    by_text[np.argsort(np.asarray(names.astype(str), dtype=object), kind="stable")] = \
        np.arange(len(names))
    topic = by_text[codes]
    if {"doc", "score"} <= set(table.columns):
        from builder.measures.adhoc.judged.docno_order import (
            as_large_strings,
            byte_order_codes,
            take_rows,
        )
        from builder.measures.adhoc.judged.ranking import ranking_order

        docs = as_large_strings(table["doc"])
        order, _, _ = ranking_order(topic, table["score"].to_numpy(np.float64),
                                    lambda rows: byte_order_codes(take_rows(docs, rows)))
        return order
    line = table["line"].to_numpy() if "line" in table.columns else np.zeros(len(table))
    return np.lexsort((line, topic))


def duplicate_runs(reads: list[RunRead]) -> dict[str, list[str]]:
    """Per run that has any, the other runs of ``reads`` that retrieve the same documents (or
    passages) in the same order for every topic, whatever their tags, scores or lines.

    Each row's results (without ``RANKING_IGNORED``) are hashed (``pandas.util.
    hash_pandas_object``, 64 bits; ``row_hashes``); runs whose sums of row hashes differ
    retrieve different results and are set apart without sorting; the others are put in
    ranking order (``ranking_positions``) and their row hashes, in that order, compared by
    SHA-256."""
    import hashlib

    candidates: dict[tuple[int, int], list[tuple[str, pd.DataFrame, np.ndarray]]] = {}
    for name, table, rows in row_hashes(reads):
        key = (len(table), int(rows.sum(dtype=np.uint64)))
        candidates.setdefault(key, []).append((name, table, rows))
    groups: dict[str, list[str]] = {}
    for members in candidates.values():
        if len(members) < 2:
            continue
        for name, table, rows in members:
            ordered = rows[ranking_positions(table)]
            groups.setdefault(hashlib.sha256(ordered.tobytes()).hexdigest(), []).append(name)
    return {run: [other for other in group if other != run]
            for group in groups.values() if len(group) > 1 for run in group}


def row_hashes(reads: list[RunRead]) -> list[tuple[str, pd.DataFrame, np.ndarray]]:
    """Per run of ``reads`` with lines: its name, its table and the 64-bit hash of each row's
    results (the columns outside ``RANKING_IGNORED``). The runs' results are put together and
    hashed at once when they have the same columns (a task's runs, read by one reader: half
    the time of one call per run), else one run at a time."""
    tables = [(read.name, read.table) for read in reads
              if read.table is not None and len(read.table)]
    kept = [[c for c in table.columns if c not in RANKING_IGNORED] for _, table in tables]
    if not tables or any(columns != kept[0] for columns in kept):
        return [(name, table, pd.util.hash_pandas_object(table[columns], index=False)
                 .to_numpy()) for (name, table), columns in zip(tables, kept, strict=True)]
    rows = pd.util.hash_pandas_object(
        pd.concat([table[kept[0]] for _, table in tables], ignore_index=True),
        index=False).to_numpy()
    ends = np.cumsum([len(table) for _, table in tables])
    return [(name, table, rows[end - len(table):end])
            for (name, table), end in zip(tables, ends, strict=True)]


def reliability_wanted(analysis: TaskAnalysis) -> bool:
    """Whether the task has reliability analyses: its ``reliability`` section enables them and
    two runs or more were evaluated (a ranking of one run has nothing to be stable or tied
    against)."""
    return (analysis.spec.reliability is not None and analysis.result.evaluation is not None
            and len(analysis.runs) >= 2)


def reliability(analysis: TaskAnalysis, runs: pd.DataFrame | None,
                uncut: Any) -> ReliabilityReport | None:
    """The task's reliability analyses (``builder.stats.reliability.report``), on its accepted
    runs (``runs``: their tables put together, None when they were dropped; ``uncut``:
    ``shared_judgements``); None unless ``reliability_wanted``."""
    if not reliability_wanted(analysis):
        return None
    from builder.stats.reliability.report import reliability_report

    spec = analysis.spec
    inputs = analysis.result.inputs
    return reliability_report(spec.kind, inputs.qrels, runs, spec.options, spec.reliability,
                              spec.official_measure, inputs.metadata,
                              analysis.result.evaluation.scores, shown=list(spec.measures),
                              uncut=uncut)


def judgement_counts(qrels: Any) -> pd.DataFrame:
    """Per topic, what the qrels judged: ``judged`` documents and, per relevance grade g,
    ``grade g`` (TREC qrels); ``judged`` and ``relevant`` articles (INEX qrels, relevant
    meaning with highlighted text). Empty for a qrels of another shape."""
    if isinstance(qrels, pd.DataFrame) and {"topic", "rel"} <= set(qrels.columns):
        grades = pd.crosstab(qrels["topic"].astype(str), qrels["rel"])
        grades.columns = [f"grade {grade}" for grade in grades.columns]
        return grades.assign(judged=grades.sum(axis=1))[["judged", *grades.columns]]
    articles = getattr(qrels, "articles", None)
    if isinstance(articles, pd.DataFrame) and "rel_chars" in articles.columns:
        topic = articles["topic"].astype(str)
        return pd.DataFrame({"judged": topic.value_counts(sort=False),
                             "relevant": (articles["rel_chars"] > 0).groupby(topic).sum()})
    return pd.DataFrame()


def significance_wanted(analysis: TaskAnalysis) -> bool:
    """Whether the task has significance tests: its ``significance`` section enables them
    and two runs or more were evaluated."""
    return (analysis.spec.significance is not None and analysis.result.evaluation is not None
            and len(analysis.runs) >= 2)


def significance(analysis: TaskAnalysis) -> SignificanceReport | None:
    """Every pair of the task's runs, on the measures its ``significance`` section names, with
    per-topic scores aligned over the task's topics (a missing topic scores 0); None unless
    ``significance_wanted``."""
    from builder.stats.significance.per_topic import significance_of

    if not significance_wanted(analysis):
        return None
    spec = analysis.spec
    evaluation = analysis.result.evaluation
    report, _ = significance_of(evaluation.scores, spec.kind.family, spec.significance_measures,
                                spec.significance, runs=analysis.runs, topics=analysis.topics)
    return report
