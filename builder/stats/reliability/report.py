"""A task's reliability report: every analysis of its settings, from its accepted runs.

Part of the analyse stage. Stability (``builder.stats.reliability.stability``), error rate
(``builder.stats.reliability.error_rate``), tie sensitivity (``builder.stats.reliability.ties``, ad
hoc), pool bias and unjudged documents (``builder.stats.reliability.pool_bias``, ad hoc), the
condensed lists (``builder.stats.reliability.condensed``, ad hoc). Each
sampling analysis draws from its own random stream of the seed, so switching one off leaves the
others' samples as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from builder.config.reliability import ReliabilityConfig
from builder.stats.pools.selection import named_in, teams_of

UNJUDGED_AT = 10
"""The run pages' unjudged share is of each run's top 10."""
POOLED_VALUES = {"yes", "y", "true", "1", "pooled"}
"""Values of a run metadata ``pooled`` column that mark a run as pooled."""


@dataclass
class ReliabilityReport:
    """What the Reliability page and the run pages show (tables are empty when not computed).

    stability: ``STABILITY_COLUMNS`` rows; error_rates: ``ERROR_COLUMNS`` rows; ties:
    ``TIE_COLUMNS`` + ``RANK_COLUMNS``; pool_bias: ``POOL_BIAS_COLUMNS``; unjudged: share of
    each run's top 10 not judged (ad hoc). ``units``: what pool sampling samples."""

    settings: ReliabilityConfig
    measures: list[str]
    units: str
    topics: int
    stability: pd.DataFrame
    error_rates: pd.DataFrame
    ties: pd.DataFrame
    pool_bias: pd.DataFrame
    unjudged: pd.Series
    left_out: str = ""
    """Why the analyses that score the rankings again are missing, when they are."""
    condensed: pd.DataFrame = field(default_factory=pd.DataFrame)
    """``CONDENSED_COLUMNS``: the official measure on the condensed lists (ad hoc)."""
    condensed_agreement: dict[str, float] = field(default_factory=dict)
    """Kendall's ``tau`` and ``tau_ap`` of the condensed ranking against the leaderboard."""
    agreement: pd.DataFrame | None = None
    """``AGREEMENT_COLUMNS``: every pair of the task's shown measures (``builder.stats.agreement``)."""

    def stability_summary(self) -> pd.DataFrame:
        from builder.stats.reliability.stability import level_summary

        return level_summary(self.stability) if len(self.stability) else pd.DataFrame()

    def tie_ranges(self, measure: str) -> pd.DataFrame:
        """Per run (index): official, worst, best, expected, rank, best_rank, worst_rank."""
        if not len(self.ties):
            return pd.DataFrame()
        return self.ties[self.ties["measure"] == measure].set_index("run")


def pooled_runs(settings: ReliabilityConfig, runs: list[str], metadata: pd.DataFrame) -> set[str]:
    """The runs that fed the pool: the settings' list, else the metadata's ``pooled`` column,
    else every run."""
    if settings.pooled_runs is not None:
        return set(settings.pooled_runs)
    if "pooled" in metadata.columns:
        flags = metadata["pooled"].astype(str).str.strip().str.lower().isin(POOLED_VALUES)
        return set(metadata.loc[flags, "run"].astype(str))
    return set(runs)


def chosen_runs(settings: ReliabilityConfig, scores: pd.DataFrame, official: str,
                metadata: pd.DataFrame, higher_is_better: bool = True) -> list[str]:
    """The runs the analyses study (``settings.runs``), in the order of ``scores``: those
    named (a name of no accepted run is ignored), or each team's ``N`` best by the summary of
    ``official`` (ties broken by the order of ``scores``); every run when unset."""
    from builder.contract import SUMMARY_TOPIC

    runs = [str(r) for r in pd.unique(scores["run"])]
    if settings.runs is None:
        return runs
    if isinstance(settings.runs, list):
        named = set(settings.runs)
        return [run for run in runs if run in named]
    summary = scores[named_in(scores["topic"], {SUMMARY_TOPIC})
                     & (scores["measure"] == official).to_numpy()].drop_duplicates("run")
    value = summary.set_index("run")["value"].reindex(runs).fillna(-np.inf if higher_is_better
                                                                  else np.inf)
    teams = teams_of(metadata)
    frame = pd.DataFrame({"run": runs, "team": [teams.get(r, "\0" + r) for r in runs],
                          "value": value.to_numpy(), "order": range(len(runs))})
    frame = frame.sort_values(["value", "order"], ascending=[not higher_is_better, True],
                              kind="stable")
    best = frame.groupby("team", sort=False).head(settings.runs)
    return [run for run in runs if run in set(best["run"])]


def reliability_report(kind: Any, qrels: Any, runs: pd.DataFrame | None, options: Any,
                       settings: ReliabilityConfig, official: str,
                       metadata: pd.DataFrame, scores: pd.DataFrame | None = None,
                       shown: list[str] | None = None,
                       uncut: Any = None) -> ReliabilityReport:
    """Every analysis ``settings`` asks for, on the accepted runs ``runs`` of a task
    (``scores``: their evaluation, when made; ``shown``: the measures the task shows, whose
    pairs the measure agreement compares); only those that read scores alone when ``runs`` is
    None (the runs were not kept: ``_scores_only``). ``uncut``: ``judge_once(runs, qrels,
    options, depth=UNLIMITED, keep_rows=True)`` when the caller made it (the analyse stage
    shares it with the judgements page), used when ``settings`` keeps every run."""
    if settings.runs is not None and scores is not None:
        from builder.measures.registry import REGISTRY

        declared = REGISTRY.get((kind.family, official))
        chosen = set(chosen_runs(settings, scores, official, metadata,
                                 declared.higher_is_better if declared else True))
        scores = scores[named_in(scores["run"], chosen)]
        if runs is not None:
            runs = runs[named_in(runs["run"], chosen)]
        uncut = None  # judged over every run, not over the chosen ones
    report = _analyses(kind, qrels, runs, options, settings, official, metadata, scores, uncut)
    if settings.agreement and scores is not None and shown and len(shown) > 1:
        from builder.measures.registry import measures_of
        from builder.stats.agreement import measure_agreement

        declared = {m.name: m for m in measures_of(kind.family)}
        scored = set(scores["measure"].unique())  # once: not per declared measure
        known = scored | {m.name for m in declared.values() if m.per_topic in scored}
        measures = [m for m in dict.fromkeys(shown) if m in known]
        report.agreement = measure_agreement(scores, measures, declared)
    return report


def _analyses(kind: Any, qrels: Any, runs: pd.DataFrame | None, options: Any,
              settings: ReliabilityConfig, official: str, metadata: pd.DataFrame,
              scores: pd.DataFrame | None, uncut: Any = None) -> ReliabilityReport:
    """The sampling, error-rate, tie and pool analyses of ``reliability_report``."""
    from builder.stats.reliability.error_rate import ERROR_COLUMNS, error_rates
    from builder.stats.reliability.rescoring import rescorer_for
    from builder.stats.reliability.stability import (
        STABILITY_COLUMNS,
        pool_sampling,
        streams,
        topic_sampling,
    )

    measures = list(dict.fromkeys(settings.measures or [official]))
    if runs is None:
        return _scores_only(kind, qrels, settings, measures, scores)
    if kind.name != "adhoc" or not settings.ties:
        uncut = None
    elif uncut is None:
        from builder.stats.reliability.adhoc_rejudge import judge_once
        from builder.stats.reliability.ties import UNLIMITED

        uncut = judge_once(runs, qrels, options, depth=UNLIMITED, keep_rows=True)
    rescorer = rescorer_for(kind, qrels, runs, options, measures, scores,
                            depth_at_least=max(UNJUDGED_AT, settings.pool_depth or 0),
                            uncut=uncut)
    full = rescorer.score(None)
    rng = streams(settings.seed)
    stability = []
    if settings.pool_sampling_for(kind.name):
        stability.append(pool_sampling(rescorer, settings.levels, settings.iterations,
                                       settings.min_relevant, rng["pool"], full))
    if settings.topic_sampling:
        stability.append(topic_sampling(measures, full, settings.levels, settings.iterations,
                                        rng["topics"]))
    errors = pd.DataFrame(columns=ERROR_COLUMNS)
    if settings.error_rate and len(rescorer.runs) > 1:
        errors = error_rates(measures, full, settings.levels, settings.iterations,
                             settings.fuzziness, rng["errors"])
    ties, bias, unjudged = pd.DataFrame(), pd.DataFrame(), pd.Series(dtype=float)
    condensed, condensed_taus = pd.DataFrame(), {}
    if kind.name == "adhoc":
        from builder.stats.reliability.pool_bias import pool_bias, unjudged_at
        from builder.stats.reliability.ties import tie_table_of

        judgements = rescorer.judgements  # type: ignore[attr-defined]
        unjudged = unjudged_at(judgements, UNJUDGED_AT)
        if settings.ties:
            ties = tie_table_of(uncut, runs["score"].to_numpy(np.float64), measures)
        if settings.pool_depth is not None:
            bias = pool_bias(judgements, teams_of(metadata),
                             pooled_runs(settings, rescorer.runs, metadata),
                             settings.pool_depth, measures)
        condensed, condensed_taus = _condensed(runs, qrels, options, official, uncut)
    units = "relevant documents" if kind.name == "adhoc" else "highlighted passages"
    return ReliabilityReport(
        settings=settings, measures=measures, units=units, topics=len(rescorer.topics),
        stability=pd.concat(stability, ignore_index=True) if stability
        else pd.DataFrame(columns=STABILITY_COLUMNS),
        error_rates=errors, ties=ties, pool_bias=bias, unjudged=unjudged,
        condensed=condensed, condensed_agreement=condensed_taus,
    )


def _condensed(runs: pd.DataFrame, qrels: Any, options: Any, official: str,
               uncut: Any) -> tuple[pd.DataFrame, dict[str, float]]:
    """The condensed lists on the official measure, from rankings cut at the task's depth (the
    tie analysis's uncut ones when made, else sorted once more)."""
    from builder.measures.adhoc.scores import FAMILY
    from builder.measures.registry import measures_of
    from builder.stats.reliability.adhoc_rejudge import cut_at, judge_once
    from builder.stats.reliability.condensed import condensed_lists

    judgements = cut_at(uncut, options.depth) if uncut is not None else \
        judge_once(runs, qrels, options)
    higher = {m.name: m.higher_is_better for m in measures_of(FAMILY)}.get(official, True)
    return condensed_lists(judgements, official, higher)


LEFT_OUT = ("The runs were evaluated in batches under a memory budget and were not kept: the "
            "analyses that score the rankings again (pool sampling, tied scores, pool bias, the "
            "unjudged share, the condensed lists, the judgements page) were left out. Build without a memory budget, or with one the "
            "runs fit in together, to have them.")


def _scores_only(kind: Any, qrels: Any, settings: ReliabilityConfig, measures: list[str],
                 scores: pd.DataFrame) -> ReliabilityReport:
    """Topic sampling and error rates, which read the per-topic scores only: the runs and
    topics in the order a rescorer gives them (the runs' order in ``scores``, the qrels'
    topics), each analysis on its own random stream as in ``reliability_report``, so that
    their figures are those of a build that kept the runs."""
    from builder.stats.reliability.error_rate import ERROR_COLUMNS, error_rates
    from builder.stats.reliability.rescoring import scores_from_table
    from builder.stats.reliability.stability import STABILITY_COLUMNS, streams, topic_sampling

    runs = [str(r) for r in pd.unique(scores["run"])]
    topics = getattr(qrels, "topics", None)
    if topics is None:
        topics = sorted(pd.unique(qrels["topic"]))
    full = scores_from_table(scores, runs, list(topics), measures, kind.family)
    rng = streams(settings.seed)
    stability = pd.DataFrame(columns=STABILITY_COLUMNS)
    if settings.topic_sampling:
        stability = topic_sampling(measures, full, settings.levels, settings.iterations,
                                   rng["topics"])
    errors = pd.DataFrame(columns=ERROR_COLUMNS)
    if settings.error_rate and len(runs) > 1:
        errors = error_rates(measures, full, settings.levels, settings.iterations,
                             settings.fuzziness, rng["errors"])
    units = "relevant documents" if kind.name == "adhoc" else "highlighted passages"
    return ReliabilityReport(
        settings=settings, measures=measures, units=units, topics=len(topics),
        stability=stability, error_rates=errors, ties=pd.DataFrame(),
        pool_bias=pd.DataFrame(), unjudged=pd.Series(dtype=float), left_out=LEFT_OUT)
