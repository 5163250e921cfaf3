"""What the qrels judged, read back against the runs: the judgements page's tables.

Per topic: the documents judged (relevance >= 0; a negative grade is in the pool but not
judged, as trec_eval reads it), those at each relevance grade, and the *judged depth*: the
largest d such that every pooled run's first d documents (the evaluation's order) are all
judged, i.e. the pool depth the qrels show (a ranking shorter than d counts as judged to its
end). Per run: whether it was pooled, the share of its top 10 / 100 / 1000 documents (all
topics together) the qrels do not judge, and, for a pooled run, the documents of its top k it
brought to the pool, those no other team's pooled run brought, and of those the relevant ones
(``union.PoolBuilder.stats``), at the pool depth k (the task's ``pool_depth``, else the depth
the qrels show for the task: the median of its topics' judged depths, rounded down, so that a
topic where the assessors skipped a document does not hide the pool's depth; TREC-COVID
round 1: 7, its least 1). At depth 0 (qrels not made by pooling these runs) nothing is counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from builder.measures.adhoc.judged.ranking import JudgedRanking, judge_rankings
from builder.stats.pools.ranking import judged_keys, ranked_top
from builder.stats.pools.selection import named_in
from builder.stats.pools.union import PoolBuilder

UNJUDGED_CUTOFFS = (10, 100, 1000)


@dataclass
class JudgementReport:
    """topics: per topic (index) ``judged``, ``grade g`` per grade, ``judged_depth``; runs:
    per run (index) ``pooled``, ``unjudged@k`` per cutoff, ``contributed``, ``unique``,
    ``unique_relevant`` (NaN for a run not pooled, and at depth 0); totals: the task's figures; depth: the
    pool depth of the contribution counts and whether it was found (not stated), None for
    INEX judgements (``article_judgements``)."""

    topics: pd.DataFrame
    runs: pd.DataFrame
    totals: dict[str, int]
    depth: int | None = None
    depth_found: bool = False
    pooled_stated: bool = True
    """Whether the config or the run metadata said which runs were pooled (else all were)."""


def judgement_report(runs: pd.DataFrame, qrels: pd.DataFrame, pooled: set[str],
                     teams: Mapping[str, str], *, rel_level: int = 1,
                     pool_depth: int | None = None,
                     judged: JudgedRanking | None = None) -> JudgementReport:
    """The report of ``runs`` (columns run, topic, doc, score) judged by ``qrels``.

    ``judged``: the rankings of ``runs`` already sorted, cut at ``max(UNJUDGED_CUTOFFS)`` and
    judged by ``qrels`` (what ``judge_rankings`` makes here), when the caller has them: the
    reliability analyses sort and judge the same rankings, and the analyse stage does it once
    for both."""
    if judged is None:
        judged = judge_rankings(runs, qrels, depth=max(UNJUDGED_CUTOFFS), rel_level=rel_level)
    n_topics, run_names = len(judged.topics), judged.runs
    unjudged = judged.rel < 0
    run_of_row = judged.cell // max(n_topics, 1)
    shares = {}
    for k in UNJUDGED_CUTOFFS:
        top = judged.rank <= k
        count = np.bincount(run_of_row[top], minlength=len(run_names))
        missing = np.bincount(run_of_row[top], weights=unjudged[top], minlength=len(run_names))
        shares[f"unjudged@{k}"] = np.divide(missing, count, out=np.full(len(count), np.nan),
                                            where=count > 0)
    # judged depth per cell: the rank before its first unjudged document, else its length
    cells = judged.num_cells
    length = judged.per_cell()
    first_unjudged = np.full(cells, np.iinfo(np.int64).max)
    np.minimum.at(first_unjudged, judged.cell[unjudged], judged.rank[unjudged].astype(np.int64))
    cell_depth = np.where(first_unjudged < np.iinfo(np.int64).max, first_unjudged - 1, length)
    run_pooled = np.array([run in pooled for run in run_names], bool)
    counted = np.repeat(run_pooled, n_topics) & (length > 0)
    topic_depth = pd.Series(cell_depth[counted], index=judged.topic_of_cell()[counted]) \
        .groupby(level=0).min().reindex(range(n_topics))
    judged_rows = qrels[qrels["rel"].to_numpy() >= 0]
    grades = pd.crosstab(judged_rows["topic"].astype(str), judged_rows["rel"]) \
        .reindex(judged.topics, fill_value=0)
    grades.columns = [f"grade {grade}" for grade in grades.columns]
    topics = grades.assign(judged=grades.sum(axis=1))[["judged", *grades.columns]]
    topics["judged_depth"] = topic_depth.to_numpy()
    found = topic_depth.dropna()
    depth = pool_depth if pool_depth is not None else \
        int(np.floor(found.median())) if len(found) else 0
    table = pd.DataFrame({"pooled": run_pooled, **shares}, index=pd.Index(run_names, name="run"))
    pool = PoolBuilder(teams=teams)
    pooled_runs = runs[named_in(runs["run"], pooled) & named_in(runs["topic"], judged.topics)]
    if depth > 0 and len(pooled_runs):
        pool.add(ranked_top(pooled_runs, depth))
    relevant = judged_keys(qrels[qrels["rel"].to_numpy() >= max(rel_level, 0)])
    stats = pool.stats(relevant).set_index("run")
    for column in ("contributed", "unique", "unique_relevant"):
        table[column] = stats[column].reindex(table.index).astype(float)
    totals = {
        "topics": n_topics, "judged": int(topics["judged"].sum()),
        "relevant": int((judged_rows["rel"].to_numpy() >= rel_level).sum()),
        "runs": len(run_names), "pooled": int(run_pooled.sum()),
        "pool": len(pool.pool()), "unique_relevant": int(table["unique_relevant"].sum()),
    }
    return JudgementReport(topics=topics, runs=table, totals=totals, depth=depth,
                           depth_found=pool_depth is None)


def article_judgements(articles: pd.DataFrame, pooled: set[str] | None = None,
                       runs: list[str] | None = None) -> JudgementReport:
    """INEX judgements (one row per assessed article, ``rel_chars`` its highlighted
    characters): per topic the articles assessed, the relevant ones (some text highlighted)
    and the relevant characters (the recall base); per run only whether it was pooled, when
    ``pooled`` is known (no run table otherwise: INEX pools are not depth pools of a ranking)."""
    topic = articles["topic"].astype(str)
    chars = articles["rel_chars"].to_numpy(np.int64)
    topics = pd.DataFrame({
        "judged": topic.value_counts(sort=False),
        "relevant": pd.Series(chars > 0, index=articles.index).groupby(topic).sum(),
        "relevant_chars": pd.Series(chars, index=articles.index).groupby(topic).sum(),
    }).sort_index()
    table = pd.DataFrame({"pooled": [run in pooled for run in runs]},
                         index=pd.Index(runs, name="run")) if pooled is not None and runs \
        else pd.DataFrame()
    totals = {"topics": len(topics), "judged": int(topics["judged"].sum()),
              "relevant": int(topics["relevant"].sum()),
              "relevant_chars": int(topics["relevant_chars"].sum())}
    if len(table):
        totals |= {"runs": len(table), "pooled": int(table["pooled"].sum())}
    return JudgementReport(topics=topics, runs=table, totals=totals)
