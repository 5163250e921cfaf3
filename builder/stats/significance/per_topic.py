"""Which per-topic values a significance test of a measure uses.

A measure tested per topic is either reported per topic itself (map, P_10, iP[0.01]) or is the
summary of another per-topic measure, declared in the registry as its ``per_topic`` (MAiP: AiP,
MAgP: AgP). Tests run on those values, labelled with the summary measure's name (a copy: the
per-topic measure, when asked too, keeps its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import pandas as pd

from builder.contract import SUMMARY_TOPIC
from builder.measures.registry import Measure, measures_of
from builder.stats.pools.selection import named_in

if TYPE_CHECKING:
    from builder.config.significance import SignificanceSettings
    from builder.stats.significance.tables import SignificanceReport


def per_topic_source(measure: str, declared: Mapping[str, Measure], available: Iterable[str]) -> str | None:
    """The per-topic measure whose values test ``measure``, or None when there is none."""
    available = set(available)
    candidates = [measure, declared[measure].per_topic if measure in declared else None]
    return next((c for c in candidates if c and c in available), None)


def scores_for_testing(
    scores: pd.DataFrame, measures: Iterable[str], declared: Mapping[str, Measure]
) -> tuple[pd.DataFrame, list[str], list[str]]:
    """The per-topic rows of each testable measure, taken from its source (``per_topic_source``)
    and labelled with the measure. The source's rows are copied, not renamed, so that a mean
    asked with its own per-topic measure (MAiP and AiP, MAP and AP) keeps both.

    Returns (scores, testable measures, measures without per-topic values).
    """
    per_topic = scores[~named_in(scores["topic"], {SUMMARY_TOPIC})]
    measure = per_topic["measure"]
    available = set(measure.unique())
    sources = {m: per_topic_source(m, declared, available) for m in measures}
    testable = [m for m, source in sources.items() if source is not None]
    missing = [m for m, source in sources.items() if source is None]
    own = [m for m in testable if sources[m] == m]
    parts = [per_topic[named_in(measure, own)]] + [
        per_topic[named_in(measure, {sources[m]})].assign(measure=m)
        for m in testable if sources[m] != m]
    return (pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]), testable, missing


def significance_of(
    scores: pd.DataFrame, family: str, measures: Iterable[str], settings: SignificanceSettings,
    runs: Sequence[str], topics: Sequence[str] | None = None, require_all: bool = False,
) -> tuple[SignificanceReport | None, list[str]]:
    """Every pair of ``runs`` tested on ``measures`` of a family's score table, each measure on
    its per-topic values and in its declared direction (topics: those to align on, a missing
    one scoring 0; default the table's). Returns the report (None when no measure has per-topic
    values, or, with ``require_all``, when one has none) and the measures without them."""
    from builder.stats.significance.tables import significance_report

    declared = {m.name: m for m in measures_of(family)}
    per_topic, testable, missing = scores_for_testing(scores, measures, declared)
    if not testable or (require_all and missing):
        return None, missing
    lower_is_better = {name for name, m in declared.items() if not m.higher_is_better}
    report = significance_report(
        per_topic, testable, settings, runs=runs, topics=topics,
        higher_is_better=lambda measure: measure not in lower_is_better,
    )  # fmt: skip
    return report, missing
