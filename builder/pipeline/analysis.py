"""The analyse stage: from a task's long score table to the wide views the pages read.

Everything here is computed over all runs and topics at once: the summary per run, the
per-topic values, per topic the median and best over the task's runs (the reference lines of
the TREC appendix pages), and the significance tests between every pair of runs. Nothing here
knows about pages: where each view is drawn, and under which file name, is the site's affair.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

from builder.contract import SUMMARY_TOPIC, RunRead
from builder.pipeline.model import TaskResult

if TYPE_CHECKING:
    from builder.stats.reliability.report import ReliabilityReport
    from builder.stats.significance.tables import SignificanceReport


@dataclass
class TaskAnalysis:
    """A task ready for its pages.

    runs: accepted runs, best first by the official measure (ties by name).
    summary: run x measure, the ``all`` rows. per_topic: (run, topic) x measure.
    median, best: topic x measure over the runs (best = max, or min where lower is better).
    metadata: per run, its row of the run metadata; topic_text: per topic, its topic file row.
    extras: the kind's extra tables (``pr_points`` for ad hoc ...).
    summary_median, summary_best: per measure, the median and best of the runs' summaries.
    judgements: topic x count, what the qrels judged (``judgement_counts``).
    significance: the all-pairs tests (None: disabled, or fewer than two runs).
    reliability: stability, error rate, ties and pool bias (None: disabled, or no run).
    """

    result: TaskResult
    runs: list[str]
    topics: list[str]
    summary: pd.DataFrame
    per_topic: pd.DataFrame
    median: pd.DataFrame
    best: pd.DataFrame
    metadata: dict[str, dict[str, str]]
    topic_text: dict[str, dict[str, str]]
    extras: Mapping[str, Any] = field(default_factory=dict)
    significance: SignificanceReport | None = None
    reliability: ReliabilityReport | None = None
    summary_median: pd.Series = field(default_factory=lambda: pd.Series(dtype=float))
    summary_best: pd.Series = field(default_factory=lambda: pd.Series(dtype=float))
    judgements: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def spec(self):
        return self.result.inputs.spec

    @property
    def rejected(self) -> list[RunRead]:
        return self.result.inputs.rejected

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
    best = by_topic.max()
    summary_median, summary_best = summary.median(), summary.max()
    for measure in lower_is_better & set(best.columns):
        best[measure] = by_topic[measure].min()
        summary_best[measure] = summary[measure].min()
    official = spec.official_measure
    ascending = official in lower_is_better
    if official in summary.columns:
        order = summary[official].rename("value").reset_index()
        order["key"] = order["value"] if ascending else -order["value"]
        runs = order.sort_values(["key", "run"], kind="mergesort")["run"].tolist()
    else:
        runs = sorted(summary.index)
    metadata = {str(row["run"]): {k: str(v) for k, v in row.items()}
                for row in inputs.metadata.to_dict("records")}
    topic_text = {str(row["topic"]): row for row in inputs.topics.to_dict("records")}
    analysis = TaskAnalysis(
        result=result, runs=runs, topics=topics, summary=summary, per_topic=per_topic,
        median=median, best=best, metadata=metadata, topic_text=topic_text,
        extras=result.evaluation.extras if result.evaluation else {},
        summary_median=summary_median, summary_best=summary_best,
        judgements=judgement_counts(inputs.qrels),
    )
    analysis.significance = significance(analysis)
    analysis.reliability = reliability(analysis)
    return analysis


def reliability(analysis: TaskAnalysis) -> ReliabilityReport | None:
    """The task's reliability analyses (``builder.stats.reliability.report``), on its accepted runs.

    None when the task's ``reliability`` section disables them or no run was evaluated."""
    spec = analysis.spec
    evaluation = analysis.result.evaluation
    if spec.reliability is None or evaluation is None or not analysis.runs:
        return None
    from builder.stats.reliability.report import reliability_report

    inputs = analysis.result.inputs
    runs = None if inputs.runs_dropped else pd.concat([read.table for read in inputs.accepted],
                                                      ignore_index=True)
    return reliability_report(spec.kind, inputs.qrels, runs, spec.options, spec.reliability,
                              spec.official_measure, inputs.metadata, evaluation.scores,
                              shown=list(spec.measures))


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


def significance(analysis: TaskAnalysis) -> SignificanceReport | None:
    """Every pair of the task's runs, on the measures its ``significance`` section names, with
    per-topic scores aligned over the task's topics (a missing topic scores 0).

    None when the section disables the tests or fewer than two runs were evaluated."""
    from builder.stats.significance.per_topic import significance_of

    spec = analysis.spec
    evaluation = analysis.result.evaluation
    if spec.significance is None or evaluation is None or len(analysis.runs) < 2:
        return None
    report, _ = significance_of(evaluation.scores, spec.kind.family, spec.significance_measures,
                                spec.significance, runs=analysis.runs, topics=analysis.topics)
    return report
