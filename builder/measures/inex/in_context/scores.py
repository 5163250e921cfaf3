"""The in-context tasks of INEX: relevant in context, its restricted variant, best in context.

A run ranks articles (an article's rank is its first appearance in its topic, in file order)
and marks text inside each. Every retrieved article gets a score S(d) in [0, 1]
(seed 001 eq. 4-10), then the ranked scores give gP[r], gR[r], AgP and MAgP
(eq. 11-13, ``builder.measures.inex.in_context.generalized_precision``). The three article scores:

- ``relevant``: F-beta of the article's retrieved characters (inex_eval ``-r``),
  P(d) = rsize / size (eq. 4), R(d) = rsize / Trel(d) (eq. 5),
  F(d) = (1 + beta^2) P R / (beta^2 P + R) (eq. 6 with beta = 1; inex_eval 3.1: beta = 0.25),
  0 when no relevant text is retrieved; Trel(d) is the qrels' ``rel_chars``.
- ``restricted``: precision of the text read with a tolerance to irrelevance
  (inex_eval ``-i``, ``builder.measures.inex.in_context.tolerance_reading``).
- ``best``: the distance score of the entry point (eq. 8-10,
  ``builder.measures.inex.in_context.best_entry``).

inex_eval counts retrieved text (``ret_size``, ``rel_ret_size``) for ``-r`` and ``-i`` only.
The family's measures are declared in ``builder.measures.inex.in_context.generalized_precision``,
beside the function that computes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.in_context.best_entry import UNKNOWN_ENTRY, BepScore, best_entry_scores
from builder.measures.inex.in_context.generalized_precision import (
    RANKS,
    ShortRuns,
    generalized_scores,
)
from builder.measures.inex.in_context.split_topics import rank_split_topics, split_runs
from builder.measures.inex.in_context.tolerance_reading import (
    UNKNOWN_PASSAGE_LENGTH,
    ReadingIndex,
    read_with_tolerance,
)
from builder.measures.inex.overlap import HighlightIndex

ArticleScore = Literal["relevant", "restricted", "best"]
ARTICLE_SCORE_COLUMNS = ["run", "topic", "rank", "file", "score"]


@dataclass(frozen=True)
class InContextSettings:
    """The parameters of the article scores and of the ranked-list measures."""

    beta: float = 0.25
    tolerance: int = 300
    bep_score: BepScore = "inex_eval"
    bep_n: int | None = None
    bep_a: float = 0.1
    ranks: tuple[int, ...] = RANKS
    short_runs: ShortRuns = "inex_eval"
    complete: bool = False
    no_relevant_text: str = "zero"


@dataclass
class InContextResult:
    scores: pd.DataFrame
    article_scores: pd.DataFrame
    run_summary: pd.DataFrame


def evaluate_in_context(
    run_table: pd.DataFrame, qrels: InexQrels, article_score: ArticleScore,
    settings: InContextSettings = InContextSettings(), runs: Sequence[str] | None = None,
) -> InContextResult:
    """Score every run of ``run_table`` (the FOL run table, all runs together) at once."""
    runs = list(pd.unique(run_table["run"])) if runs is None else list(runs)
    articles = qrels.articles
    passages = _assessed_passages(run_table, set(articles["topic"]), runs)
    retrieved = _retrieved_articles(passages, articles)
    retrieved["score"] = _article_scores(passages, retrieved, qrels, article_score, settings)
    if article_score == "best":
        retrieved["ret_chars"] = 0
        retrieved["rel_ret_chars"] = 0
    split = split_runs(passages)
    if split:
        retrieved = _with_split_topics(passages, retrieved, article_score, settings, split, runs)

    relevant_articles = articles[articles["rel_chars"] > 0]
    topics = pd.DataFrame({"topic": sorted(articles["topic"].unique())})
    totals = relevant_articles.groupby("topic").agg(
        num_rel=("rel_chars", "size"), rel_size=("rel_chars", "sum")
    )
    topics = topics.join(totals, on="topic").fillna(0)
    scores = generalized_scores(
        retrieved, topics, settings.ranks, settings.short_runs, settings.complete, runs,
        settings.no_relevant_text,
    )
    summary = retrieved.groupby("run", sort=False).agg(
        articles=("rank", "size"), relevant_articles=("relevant", "sum")
    ).reindex(runs, fill_value=0)
    summary["passages"] = passages.groupby("run", sort=False).size().reindex(runs, fill_value=0)
    return InContextResult(
        scores, retrieved[ARTICLE_SCORE_COLUMNS].reset_index(drop=True),
        summary.reset_index(names="run")[["run", "articles", "passages", "relevant_articles"]],
    )


def _with_split_topics(
    passages: pd.DataFrame, retrieved: pd.DataFrame, article_score: ArticleScore,
    settings: InContextSettings, split: list[str], runs: list[str],
) -> pd.DataFrame:
    """``retrieved`` with the runs that have a split topic ranked as inex_eval 3.1 ranks them
    (``builder.measures.inex.in_context.split_topics``); every row gets ``found`` and
    ``found_total``, the relevant articles counted up to it and in all, which gR and num_rel_ret
    read."""
    best = article_score == "best"
    if "rsize" not in passages:
        passages = passages.assign(rsize=0)
    ranking = rank_split_topics(passages, retrieved, best, split)
    followed = set(ranking.runs) - set(ranking.stopped)
    entries = ranking.entries[ranking.entries["run"].isin(followed)]
    first = entries["first_article"].to_numpy(np.int64)
    rows = retrieved.iloc[first].reset_index(drop=True)
    rows["rank"] = entries["rank"].to_numpy()
    rows["found"] = entries["found"].to_numpy()
    rows["found_total"] = entries["found_total"].to_numpy()
    rel_ret = entries["rel_ret_chars"].to_numpy(np.float64)
    ret = entries["ret_chars"].to_numpy(np.float64)
    if article_score == "relevant":
        rows["score"] = f_beta(rel_ret, ret, rows["rel_chars"].to_numpy(np.float64), settings.beta)
    elif article_score == "restricted":
        rows["score"] = retrieved["score"].to_numpy()[entries["last_article"].to_numpy(np.int64)]
    if not best:
        rows["rel_ret_chars"] = rel_ret + entries["tail_rel_ret_chars"].to_numpy()
        rows["ret_chars"] = ret + entries["tail_ret_chars"].to_numpy()
    kept = retrieved[~retrieved["run"].isin(followed)].copy()
    by_topic = kept.groupby(["run", "topic"], sort=False)["relevant"]
    kept["found"] = by_topic.cumsum().to_numpy()
    kept["found_total"] = by_topic.transform("sum").to_numpy()
    table = pd.concat([kept, rows], ignore_index=True)
    order = np.lexsort((table["rank"].to_numpy(), table["topic"].astype(str).to_numpy(),
                        pd.Categorical(table["run"], categories=runs).codes))
    return table.iloc[order].reset_index(drop=True)


def _assessed_passages(run_table: pd.DataFrame, topics: set[str], runs: list[str]) -> pd.DataFrame:
    """Lines of assessed topics (inex_eval skips the others), by run, topic (as text), order."""
    table = run_table[run_table["topic"].isin(topics)]
    run_code = pd.Categorical(table["run"], categories=runs).codes.astype(np.int64)
    topic_code, _ = pd.factorize(table["topic"], sort=True)
    n_topics = topic_code.max(initial=-1) + 1
    # inex_eval's epochs (builder.validate.fol_run.topic_epochs): in file order, a new article table
    # at the first line of each topic of each run; an article of a topic that starts again after
    # others is another row there (builder.measures.inex.in_context.split_topics ranks it).
    in_file = np.lexsort((table["line"].to_numpy(), run_code))
    pair = run_code[in_file] * n_topics + topic_code[in_file]
    first = np.zeros(len(pair), bool)
    first[np.unique(pair, return_index=True)[1]] = True
    epoch = np.empty(len(pair), np.int64)
    epoch[in_file] = np.cumsum(first)
    order = np.lexsort((table["order"].to_numpy(), topic_code, run_code))
    table = table.iloc[order].reset_index(drop=True)
    file_code, files = pd.factorize(table["file"])
    # One integer per (run, topic, epoch, file), for grouping without string keys; an epoch
    # belongs to one run.
    table["key"] = (epoch[order] * n_topics + topic_code[order]) * len(files) + file_code
    unknown = table["offset"].to_numpy() == UNKNOWN_OFFSET
    table["unknown"] = unknown
    table["start"] = np.where(unknown, UNKNOWN_ENTRY, table["offset"].to_numpy(np.int64))
    table["end"] = np.where(unknown, UNKNOWN_ENTRY, table["start"] + table["length"].to_numpy(np.int64))
    table["size"] = np.where(unknown, UNKNOWN_PASSAGE_LENGTH, table["length"].to_numpy(np.int64))
    return table


def _retrieved_articles(passages: pd.DataFrame, articles: pd.DataFrame) -> pd.DataFrame:
    """One row per retrieved article, in rank order; ``passages`` gains its ``article`` row."""
    # factorize numbers the articles in order of first appearance, which is the rank order.
    codes, _ = pd.factorize(passages["key"].to_numpy())
    _, first_line = np.unique(codes, return_index=True)
    passages["article"] = codes
    head = passages.iloc[first_line]
    retrieved = pd.DataFrame(
        {
            "run": head["run"].to_numpy(),
            "topic": head["topic"].to_numpy(),
            "file": head["file"].to_numpy(),
            "entry": head["start"].to_numpy(),
        }
    )
    retrieved["rank"] = retrieved.groupby(["run", "topic"], sort=False).cumcount() + 1
    judged = articles.reset_index(drop=True).reset_index(names="qrels_row")
    retrieved = retrieved.merge(judged, on=["topic", "file"], how="left", sort=False)
    retrieved["qrels_row"] = retrieved["qrels_row"].fillna(-1).astype(np.int64)
    retrieved[["rel_chars", "doc_chars"]] = retrieved[["rel_chars", "doc_chars"]].fillna(0)
    retrieved["bep"] = retrieved["bep"].fillna(-1).astype(np.int64)
    retrieved["relevant"] = retrieved["rel_chars"].to_numpy() > 0
    return retrieved


def _article_scores(
    passages: pd.DataFrame, retrieved: pd.DataFrame, qrels: InexQrels,
    article_score: ArticleScore, settings: InContextSettings,
) -> np.ndarray:
    relevant = retrieved["relevant"].to_numpy()
    if article_score == "best":
        return best_entry_scores(
            retrieved["entry"].to_numpy(), retrieved["bep"].to_numpy(),
            retrieved["doc_chars"].to_numpy(), relevant,
            settings.bep_score, settings.bep_n, settings.bep_a,
        )
    article = passages["article"].to_numpy()
    qrels_row = retrieved["qrels_row"].to_numpy()
    start, end = passages["start"].to_numpy(), passages["end"].to_numpy()
    unknown = passages["unknown"].to_numpy()
    span = _span(qrels, passages, retrieved)
    judged = _judged_passages(qrels)
    coverage = HighlightIndex(*judged)
    # An article is relevant only when rel_chars > 0; only then does inex_eval read its passages.
    row = np.where(relevant[article] & ~unknown, qrels_row[article], -1)
    rsize = coverage.highlighted_overlap(row, start, end)
    retrieved["ret_chars"] = np.bincount(article, passages["size"].to_numpy(), len(retrieved))
    retrieved["rel_ret_chars"] = np.bincount(article, rsize, len(retrieved))
    passages["rsize"] = rsize
    rel_ret = retrieved["rel_ret_chars"].to_numpy(np.float64)
    if article_score == "relevant":
        return f_beta(rel_ret, retrieved["ret_chars"].to_numpy(np.float64),
                      retrieved["rel_chars"].to_numpy(np.float64), settings.beta)

    # Restricted: only relevant articles can score; read them with the tolerance.
    chosen = np.flatnonzero(relevant)
    group_of = np.full(len(retrieved), -1)
    group_of[chosen] = np.arange(len(chosen))
    keep = group_of[article] >= 0
    reading = ReadingIndex.build(*judged, len(qrels.articles), span, settings.tolerance)
    rel_read, read = read_with_tolerance(
        group_of[article[keep]], start[keep], end[keep], unknown[keep],
        qrels_row[chosen], retrieved["doc_chars"].to_numpy(np.int64)[chosen], reading,
        settings.tolerance,
    )
    score = np.zeros(len(retrieved))
    with np.errstate(invalid="ignore", divide="ignore"):
        score[chosen] = np.where(read > 0, rel_read / read, 0.0)
    return score


def f_beta(rel_ret: np.ndarray, ret: np.ndarray, rel: np.ndarray, beta: float) -> np.ndarray:
    """Seed 001 eq. 4-6 generalised to F-beta, in inex_eval's order of operations; 0 if rsize = 0."""
    found = rel_ret > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = rel_ret / ret
        recall = rel_ret / rel
        score = ((1 + beta * beta) * precision * recall) / ((beta * beta * precision) + recall)
    return np.where(found, score, 0.0)


def _judged_passages(qrels: InexQrels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(qrels row, start, end) of every highlighted passage."""
    rows = qrels.articles.reset_index(drop=True).reset_index(names="qrels_row")
    located = qrels.passages.merge(rows[["topic", "file", "qrels_row"]], on=["topic", "file"])
    start = located["offset"].to_numpy(np.int64)
    return located["qrels_row"].to_numpy(np.int64), start, start + located["length"].to_numpy(np.int64)


def _span(qrels: InexQrels, passages: pd.DataFrame, retrieved: pd.DataFrame) -> int:
    """One more than any position in play, so that positions never reach the next article."""
    ends = [
        (qrels.passages["offset"] + qrels.passages["length"]).max(),
        passages["end"].max(),
        retrieved["doc_chars"].max(),
    ]
    return int(np.nanmax([0 if pd.isna(x) else x for x in ends])) + 2
