"""Generalized precision and recall over ranked articles: gP[r], gR[r], AgP, MAgP, and the
in-context family's measures in the registry, declared below the function that computes them.

Given the score S(d_i) of the article at rank i and rel(d_i) = 1 when it has relevant text
(seed 001, section 5.2):

- gP[r] = sum_{i<=r} S(d_i) / r                                         (eq. 11)
- gR[r] = sum_{i<=r} rel(d_i) / Nrel                                    (eq. 12)
- AgP = sum_r rel(d_r) gP[r] / Nrel, relevant articles not retrieved counting 0 (eq. 13)
- MAgP = mean AgP over the topics.

A topic without relevant text (Nrel = 0) has no recall: inex_eval 3.1 prints NaN for its gR[r]
(when the run retrieves something for it) and its AgP (0/0), and its means become NaN;
``no_relevant_text="zero"`` (the default) prints 0 there so that MAgP stays readable on a
leaderboard, ``"nan"`` prints inex_eval's NaN, means included (and the means of a run none
of whose topics is in the qrels, 0/0 in inex_eval).

inex_eval 3.1 departs from eq. 11 for a topic with fewer than r articles: it reports the
values at its last rank, ``gP[n]`` and ``gR[n]`` (``short_runs="inex_eval"``, the default);
``short_runs="paper"`` divides by r as eq. 11 does. inex_eval also prints, per run, the
11-point curve ``ircl_prn.x``: per topic the highest gP at a rank whose gR rounds down to x
(``floor(10 gR)``), made non-increasing from the right, averaged over the topics; a gR of 1.1
or more (possible only for a topic split in two blocks of lines) is in no point.

Every (run, topic) group is computed at once with numpy and grouped pandas cumulative sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC
from builder.measures.bibliography import cite
from builder.measures.inex.differences import NO_RELEVANT_TEXT
from builder.measures.registry import Aggregation, Measure, measures_of, register

FAMILY = "in-context"
ShortRuns = Literal["inex_eval", "paper"]
RANKS: tuple[int, ...] = (1, 2, 3, 5, 10, 25, 50)
"""inex_eval 3.1's ``inContextCutoffs``."""
RECALL_POINTS = 11
COUNTS = ["num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size"]


def recall_point_names() -> list[str]:
    return [f"ircl_prn.{i / (RECALL_POINTS - 1):.2f}" for i in range(RECALL_POINTS)]


def topic_measure_names(ranks: Sequence[int] = RANKS) -> list[str]:
    """Per-topic measures in inex_eval's order."""
    cutoffs = [name for r in ranks for name in (f"gP[{r}]", f"gR[{r}]")]
    return COUNTS + cutoffs + ["AgP"]


def summary_measure_names(ranks: Sequence[int] = RANKS) -> list[str]:
    """Measures of the ``all`` rows in inex_eval's order."""
    cutoffs = [name for r in ranks for name in (f"gP[{r}]", f"gR[{r}]")]
    return ["num_q"] + COUNTS + ["MAgP"] + cutoffs + recall_point_names()


def generalized_scores(
    articles: pd.DataFrame,
    topics: pd.DataFrame,
    ranks: Sequence[int] = RANKS,
    short_runs: ShortRuns = "inex_eval",
    complete: bool = False,
    runs: Sequence[str] | None = None,
    no_relevant_text: str = "zero",
) -> pd.DataFrame:
    """The long score table (``SCORE_COLUMNS``) of every run, per topic and ``all``.

    articles: one row per retrieved article of an assessed topic, sorted by run, topic and
    rank (1, 2, ...): columns run, topic, score, relevant, ret_chars, rel_ret_chars; optional
    ``found`` and ``found_total``, the relevant articles counted up to each rank and in all
    when that is not the running count of ``relevant``
    (``builder.measures.inex.in_context.split_topics``).
    topics: every topic of the qrels with num_rel and rel_size.
    complete: inex_eval ``-c``, topics without results count 0 (else they are left out).
    runs: the runs to report, also those without any assessed result (default: in articles).
    no_relevant_text: "zero" or "nan", the gR[r] and AgP of a topic without relevant text.
    """
    runs = list(pd.unique(articles["run"])) if runs is None else list(runs)
    topics = topics.sort_values("topic", kind="stable").reset_index(drop=True)
    per_topic = _per_topic(articles, topics, ranks, short_runs)
    if no_relevant_text == "nan":  # gR only of the topics answered, as inex_eval computes it
        unanswerable = per_topic["num_rel"].to_numpy() == 0
        per_topic.loc[unanswerable, [f"gR[{r}]" for r in ranks]] = np.nan
    if complete:
        full = pd.MultiIndex.from_product([runs, topics["topic"]], names=["run", "topic"])
        per_topic = per_topic.reindex(full, fill_value=0.0)
        per_topic["num_rel"] = np.tile(topics["num_rel"].to_numpy(np.float64), len(runs))
        per_topic["rel_size"] = np.tile(topics["rel_size"].to_numpy(np.float64), len(runs))
    if no_relevant_text == "nan":
        per_topic.loc[per_topic["num_rel"].to_numpy() == 0, "AgP"] = np.nan
    summary = _summary(per_topic, topics, runs, ranks, complete,
                       np.nan if no_relevant_text == "nan" else 0.0)
    topic_long = _long(per_topic, topic_measure_names(ranks))
    return pd.concat([topic_long, summary], ignore_index=True)[SCORE_COLUMNS]


def _per_topic(
    articles: pd.DataFrame, topics: pd.DataFrame, ranks: Sequence[int], short_runs: ShortRuns
) -> pd.DataFrame:
    keys = articles[["run", "topic"]]
    group = keys.groupby(["run", "topic"], sort=False).ngroup().to_numpy()
    first = np.flatnonzero(np.r_[True, group[1:] != group[:-1]][: len(group)])  # none if empty
    size = np.diff(np.r_[first, len(group)])
    head = articles.iloc[first]
    num_rel = (
        head[["topic"]].merge(topics, on="topic", how="left")["num_rel"].fillna(0).to_numpy(np.float64)
    )
    rank = np.arange(len(group)) - np.repeat(first, size) + 1

    # Running sums restart at every topic, as inex_eval's do (pandas sums each group in order).
    relevant = articles["relevant"].to_numpy(bool)
    score = articles["score"].to_numpy(np.float64)
    running = pd.DataFrame({"score": score, "relevant": relevant, "nan": np.isnan(score)})
    grouped = running.astype({"relevant": np.int64, "nan": np.int64}).groupby(group, sort=False)
    # inex_eval's running sum of scores stays NaN from a NaN score on (a split topic's entry of an
    # unjudged article, builder.measures.inex.in_context.split_topics); pandas' cumsum skips it.
    cum_score = np.where(grouped["nan"].cumsum().to_numpy() > 0, np.nan,
                         grouped["score"].cumsum().to_numpy(np.float64))
    cum_relevant = grouped["relevant"].cumsum().to_numpy(np.float64)
    found_total = cum_relevant
    if "found" in articles:  # a split topic's counts, as inex_eval keeps them
        cum_relevant = articles["found"].to_numpy(np.float64)
        found_total = articles["found_total"].to_numpy(np.float64)
    precision = cum_score / rank
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.nan_to_num(cum_relevant / num_rel[group])

    table: dict[str, np.ndarray] = {
        "num_ret": size.astype(np.float64),
        "num_rel": num_rel,
        "num_rel_ret": found_total[first + size - 1],
        "ret_size": np.bincount(group, weights=articles["ret_chars"].to_numpy(np.float64)),
        "rel_size": head[["topic"]].merge(topics, on="topic", how="left")["rel_size"]
        .fillna(0).to_numpy(np.float64),
        "rel_ret_size": np.bincount(group, weights=articles["rel_ret_chars"].to_numpy(np.float64)),
    }
    for r in ranks:
        at = first + np.minimum(r, size) - 1
        table[f"gP[{r}]"] = precision[at] if short_runs == "inex_eval" else cum_score[at] / r
        table[f"gR[{r}]"] = recall[at]
    # AgP sums gP at the relevant ranks only, as inex_eval 3.1 adds them: a NaN gP at a rank
    # that is not relevant (a split topic's entry of an unjudged article) is not in the sum,
    # at a relevant rank it makes AgP NaN. Without relevant text (0/0) AgP is 0 here.
    at_relevant = np.where(relevant, precision, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        table["AgP"] = np.where(num_rel > 0, np.bincount(group, weights=at_relevant) / num_rel, 0.0)
    curve = _recall_precision_curve(group, len(first), recall, precision)
    for i, name in enumerate(recall_point_names()):
        table[name] = curve[:, i]
    index = pd.MultiIndex.from_frame(head[["run", "topic"]].reset_index(drop=True))
    return pd.DataFrame(table, index=index)


def _recall_precision_curve(
    group: np.ndarray, n_groups: int, recall: np.ndarray, precision: np.ndarray
) -> np.ndarray:
    """inex_eval's 11-point curve per group: max gP per floor(10 gR), then a right-to-left max."""
    curve = np.zeros((n_groups, RECALL_POINTS))
    point = np.floor((RECALL_POINTS - 1) * recall).astype(np.int64)
    # A recall of 1.1 or more (a split topic's article counted twice,
    # builder.measures.inex.in_context.split_topics) falls in a slot past 1.0 of inex_eval's
    # array of 101, which its 11-point curve never reads: left out, not clipped to 1.0.
    # fmax: a NaN gP is never kept, as Java's ``iP[k] < gP`` is false for NaN.
    kept = point < RECALL_POINTS
    np.fmax.at(curve, (group[kept], point[kept]), precision[kept])
    return np.maximum.accumulate(curve[:, ::-1], axis=1)[:, ::-1]


def _summary(
    per_topic: pd.DataFrame, topics: pd.DataFrame, runs: list[str], ranks: Sequence[int],
    complete: bool, empty: float = 0.0,
) -> pd.DataFrame:
    """The ``all`` rows: each per-topic measure aggregated as the registry declares it (the
    mean of AgP is MAgP), over the topics averaged; a mean over no topic is ``empty``."""
    declared = measures_of(FAMILY)
    summary_of = {m.name: m for m in declared}
    summary_of.update({m.per_topic: m for m in declared if m.per_topic})
    sums = per_topic.groupby(level="run", sort=False).sum().reindex(runs, fill_value=0.0)
    # A NaN makes its sum NaN, as in inex_eval (pandas' sum would skip it).
    sums = sums.mask(per_topic.isna().groupby(level="run", sort=False).any()
                     .reindex(runs, fill_value=False))
    counted = per_topic.groupby(level="run", sort=False).size().reindex(runs, fill_value=0)
    num_q = np.full(len(runs), float(len(topics))) if complete else counted.to_numpy(np.float64)
    summary = pd.DataFrame(index=sums.index)
    for name in sums.columns:
        # A gP[r] or gR[r] of a rank the options add is not declared: a mean as the others.
        measure = summary_of.get(name)
        how = measure.aggregation if measure is not None else Aggregation.MEAN
        summary[measure.name if measure is not None else name] = how.finish(sums[name], num_q, empty)
    # inex_eval sums the qrels' totals over every assessed topic, with or without -c.
    summary["num_rel"] = float(topics["num_rel"].sum())
    summary["rel_size"] = float(topics["rel_size"].sum())
    summary["num_q"] = num_q
    summary.index = pd.MultiIndex.from_arrays(
        [summary.index, [SUMMARY_TOPIC] * len(summary)], names=["run", "topic"]
    )
    return _long(summary, summary_measure_names(ranks))


def _long(wide: pd.DataFrame, measures: list[str]) -> pd.DataFrame:
    """(run, topic) x measure -> SCORE_COLUMNS rows, in inex_eval's order within a topic."""
    values = wide[measures].to_numpy(np.float64)
    run = wide.index.get_level_values("run").to_numpy()
    topic = wide.index.get_level_values("topic").to_numpy()
    return pd.DataFrame(
        {
            "run": np.repeat(run, len(measures)),
            "topic": np.repeat(topic, len(measures)),
            "measure": np.tile(np.asarray(measures, dtype=object), len(wide)),
            "value": values.ravel(),
        }
    )


def _declare() -> None:
    """Every measure as inex_eval 3.1 prints it, with its source and where appendix departs
    from the paper or the program; all computed by ``generalized_scores``."""
    counts = {
        "num_ret": "retrieved articles",
        "num_rel": "relevant articles in the qrels",
        "num_rel_ret": "relevant articles retrieved",
        "ret_size": "retrieved characters (relevant in context tasks only)",
        "rel_size": "relevant characters in the qrels",
        "rel_ret_size": "relevant characters retrieved (relevant in context tasks only)",
    }
    for name, description in counts.items():
        register(Measure(name, FAMILY, description, "inex_eval 3.1", aggregation=Aggregation.SUM,
                         computed_by=generalized_scores))
    register(Measure("num_q", FAMILY, "topics evaluated", "inex_eval 3.1", aggregation=Aggregation.COUNT))
    short = "inex_eval 3.1 reports gP[n] for a topic with n < r articles; option: the sum of eq. 11 of Kamps et al. 2008 divided by r"
    for r in RANKS:
        register(Measure(f"gP[{r}]", FAMILY, f"generalized precision at rank {r}",
                         cite("kamps2008", "eq. 11"), {"rank": r}, short,
                         computed_by=generalized_scores))
        register(Measure(f"gR[{r}]", FAMILY, f"generalized recall at rank {r}",
                         cite("kamps2008", "eq. 12"), {"rank": r},
                         f"inex_eval 3.1: gR[n] when n < r. {NO_RELEVANT_TEXT.see()}",
                         computed_by=generalized_scores))
    article_scores = (
        "article score: F-beta, beta = 0.25 as inex_eval 3.1 (Kamps et al. 2008: beta = 1); restricted: "
        "precision read with a tolerance of 300 irrelevant characters; best in context: "
        "(n - d) / n, n = 500 as inex_eval 3.1 (Kamps et al. 2008: eq. 8 or eq. 9 with n = 1000)"
    )
    differs = f"{article_scores}. {NO_RELEVANT_TEXT.see()}"
    register(Measure("AgP", FAMILY, "average generalized precision", cite("kamps2008", "eq. 13"),
                     differs=differs, computed_by=generalized_scores))
    register(Measure("MAgP", FAMILY, "mean average generalized precision (official)",
                     cite("kamps2008", "section 5.2"), differs=differs,
                     per_topic="AgP", computed_by=generalized_scores))
    for point, name in enumerate(recall_point_names()):
        register(Measure(name, FAMILY, "interpolated generalized precision at recall "
                         f"{point / 10:.1f} (mean over topics)", "inex_eval 3.1",
                         {"recall": point / 10}, computed_by=generalized_scores))


_declare()
