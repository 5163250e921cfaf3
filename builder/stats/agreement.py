"""Agreement between two measures: do they rank the systems, and score the topics, alike?

For a pair of measures (A, B) of one score table, two comparisons:

- ``systems``: each run's summary value (topic ``all``) under A against under B, n = runs;
- ``topics``: every evaluated (run, topic) pair's per-topic value under A against under B
  (a summary measure such as MAiP read through its per-topic measure AiP), n = pairs.

Four coefficients each:

- Kendall's tau-b (Kendall 1945), Pearson's r and Spearman's rho, from ``scipy.stats``
  (``kendalltau``, ``pearsonr``, ``spearmanr``);
- tau_ap (Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for information
  retrieval", SIGIR 2008, eq. 2), with A's ranking as the reference and B's as the one
  compared with it (tau_ap is not symmetric); ``builder.stats.reliability.rank_correlation``,
  which also says how ties are read.

So the comparisons of Piwowarski and Dupret (SIGIR 2006, section 7: Pearson over topic-run
values) and of Pehcevski and Thom (INEX 2005, Tables 4-6: Spearman between system rankings)
can be made on any campaign. A coefficient is NaN where it is undefined (fewer than two values,
or one measure constant), as scipy returns it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from builder.contract import SUMMARY_TOPIC
from builder.measures.registry import Measure
from builder.stats.pools.selection import named_in
from builder.stats.reliability.rank_correlation import tau_ap
from builder.stats.significance.per_topic import per_topic_source

AGREEMENT_COLUMNS = ["measure_a", "measure_b", "level", "n", "kendall_tau", "tau_ap",
                     "pearson", "spearman"]
LEVELS = ("systems", "topics")


def coefficients(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """(Kendall's tau-b, tau_ap with ``a`` the reference, Pearson, Spearman) of two samples."""
    from scipy.stats import kendalltau, pearsonr, spearmanr

    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if len(a) < 2:
        return (np.nan,) * 4
    with warnings.catch_warnings():  # a constant sample: NaN, which the table shows
        warnings.simplefilter("ignore")
        constant = np.ptp(a) == 0 or np.ptp(b) == 0
        pearson = np.nan if constant else float(pearsonr(a, b)[0])
        return (float(kendalltau(a, b)[0]), float(tau_ap(a, b)[0]), pearson,
                float(spearmanr(a, b)[0]))


def summary_matrix(scores: pd.DataFrame, measures: Sequence[str], runs: Sequence[str]
                   ) -> pd.DataFrame:
    """runs x measures of the summary rows (a run without a row for a measure: NaN)."""
    rows = scores[named_in(scores["topic"], {SUMMARY_TOPIC})
                  & scores["measure"].isin(measures).to_numpy()]
    return rows.pivot_table(index="run", columns="measure", values="value", aggfunc="first"
                            ).reindex(index=list(runs), columns=list(measures))


def per_topic_matrix(scores: pd.DataFrame, measures: Sequence[str],
                     declared: Mapping[str, Measure]) -> pd.DataFrame:
    """(run, topic) x measures of the per-topic values (a summary measure's through the
    per-topic measure it aggregates, ``per_topic_source``); a pair a measure has no value
    for: NaN. Each measure's column is its source's, taken rather than renamed, so that a
    mean and its own per-topic measure (MAiP and AiP) can both be compared."""
    per_topic = scores[~named_in(scores["topic"], {SUMMARY_TOPIC})]
    available = set(per_topic["measure"].unique())
    sources = [per_topic_source(m, declared, available) for m in measures]
    wide = per_topic[per_topic["measure"].isin([s for s in sources if s]).to_numpy()].pivot_table(
        index=["run", "topic"], columns="measure", values="value", aggfunc="first",
        observed=True)
    return pd.DataFrame({m: wide[s] if s in wide.columns else np.nan
                         for m, s in zip(measures, sources)}, index=wide.index)


def measure_agreement(scores: pd.DataFrame, measures: Sequence[str],
                      declared: Mapping[str, Measure], runs: Sequence[str] | None = None
                      ) -> pd.DataFrame:
    """``AGREEMENT_COLUMNS``: one row per pair of ``measures`` (in the order given) and level.

    ``scores``: a long score table (``SCORE_COLUMNS``); ``declared``: the family's measures by
    name (for the per-topic source of a summary measure); ``runs``: those compared (default:
    every run of the table). A measure's direction is the registry's: a lower-is-better
    measure is negated, so that agreeing measures correlate positively.
    """
    runs = list(runs) if runs is not None else list(pd.unique(scores["run"]))
    sign = np.array([1.0 if m not in declared or declared[m].higher_is_better else -1.0
                     for m in measures])
    views = {"systems": summary_matrix(scores, measures, runs) * sign,
             "topics": per_topic_matrix(scores, measures, declared) * sign}
    rows = []
    for a, b in combinations(measures, 2):
        for level in LEVELS:
            pair = views[level][[a, b]].dropna().to_numpy(np.float64)
            rows.append((a, b, level, len(pair), *coefficients(pair[:, 0], pair[:, 1])))
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)
