"""INEX passage runs re-scored under sampled highlighting.

The unit of an INEX pool sample is a highlighted passage. Dropping some passages of an article
lowers its relevant text: ``rel_chars`` loses the length of the dropped passages (an article
left with none, or with no relevant text, becomes non-relevant). ``sampled_inex_qrels`` writes
that as qrels any INEX task reads; ``FocusedRescorer`` gets the same scores without ranking
the runs again: a sample changes the relevant sizes of the passages, not the rankings, so only
``rsize``, the recall bases and the relevant-article flags are recomputed before the focused
measures (inex_eval 3.1 ``-f``) run over the ranked passages.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import NO_BEP, InexQrels
from builder.measures.inex.focused.precision import FAMILY
from builder.measures.inex.focused.scores import focused_wide, topic_sums
from builder.measures.inex.ranking import RankedPassages, highlight_index, passage_counts
from builder.measures.registry import measures_of
from builder.stats.reliability.stability import Scores


def passage_topic_codes(qrels: InexQrels) -> np.ndarray:
    """Topic code (``qrels.topics`` order) of each highlighted passage: the sampling units."""
    return pd.Index(qrels.topics).get_indexer(qrels.passages["topic"])


def passage_articles(qrels: InexQrels) -> np.ndarray:
    """The row of ``qrels.articles`` of each highlighted passage."""
    key = pd.MultiIndex.from_frame(qrels.articles[["topic", "file"]])
    return key.get_indexer(pd.MultiIndex.from_frame(qrels.passages[["topic", "file"]]))


def sampled_inex_qrels(qrels: InexQrels, keep: np.ndarray | None,
                       row: np.ndarray | None = None) -> InexQrels:
    """The qrels keeping only the highlighted passages where ``keep`` (see module docstring);
    ``row``: ``passage_articles(qrels)``, when already known."""
    if keep is None:
        return qrels
    passages = qrels.passages
    row = passage_articles(qrels) if row is None else row
    n_articles = len(qrels.articles)
    dropped = np.bincount(row[~keep], weights=passages["length"].to_numpy()[~keep],
                          minlength=n_articles).astype(np.int64)
    left = np.bincount(row[keep], minlength=n_articles)
    rel_chars = qrels.articles["rel_chars"].to_numpy(dtype=np.int64)
    new_chars = np.where(left > 0, np.maximum(rel_chars - dropped, 0), 0)
    new_chars = np.where(dropped > 0, new_chars, rel_chars)
    articles = qrels.articles.assign(rel_chars=new_chars)
    still = new_chars[row] > 0
    return InexQrels(articles, passages[keep & still].reset_index(drop=True), [])


def inex_qrels_text(qrels: InexQrels) -> str:
    """``qrels`` in the INEX passage qrels format (``topic Q0 file rel_chars doc_chars BEP
    off:len ...``), one judged article a line."""
    items = qrels.passages.assign(item=qrels.passages["offset"].astype(str) + ":"
                                  + qrels.passages["length"].astype(str))
    joined = items.groupby(["topic", "file"], sort=False)["item"].agg(" ".join)
    articles = qrels.articles
    lines = []
    for topic, file, rel, chars, bep in zip(articles["topic"], articles["file"],
                                            articles["rel_chars"], articles["doc_chars"],
                                            articles["bep"]):
        fields = [str(topic), "Q0", str(file), str(rel), str(chars)]
        passages = joined.get((topic, file), "") if rel > 0 else ""
        if bep != NO_BEP or passages:
            fields.append(str(bep))
        if passages:
            fields.append(passages)
        lines.append(" ".join(fields) + "\n")
    return "".join(lines)


def rejudged_passages(ranked: RankedPassages, qrels: InexQrels,
                      article_topic: np.ndarray | None = None) -> RankedPassages:
    """``ranked`` with the relevant sizes of ``qrels`` (same articles table, other highlighting),
    as ``rank_passages`` would give on those qrels (``article_topic``: each article's topic
    code in ``ranked.topics``, when already known)."""
    lines = ranked.lines
    articles = qrels.articles
    article = lines["article"]
    rel_chars = articles["rel_chars"].to_numpy(dtype=np.int64)
    relevant = np.where(article >= 0, rel_chars[np.maximum(article, 0)], 0) > 0
    unknown = lines["start"] == UNKNOWN_OFFSET
    rsize = highlight_index(qrels).highlighted_overlap(
        np.where(relevant & ~unknown, article, -1), lines["start"], lines["end"])
    codes = pd.Index(ranked.topics).get_indexer(articles["topic"]) if article_topic is None \
        else article_topic
    positive = rel_chars > 0
    total_rsize = np.bincount(codes[positive], weights=rel_chars[positive],
                              minlength=len(ranked.topics)).astype(np.int64)
    total_relevant = np.bincount(codes[positive], minlength=len(ranked.topics))
    new_lines = {**lines, "rsize": rsize, "relevant": relevant,
                 "relevant_article": lines["new_article"] & relevant}
    return dataclasses.replace(ranked, lines=new_lines, total_rsize=total_rsize,
                               total_relevant=total_relevant,
                               total_passages=passage_counts(qrels, pd.Index(ranked.topics)))


SUMMARY_OF = {m.name: m.per_topic for m in measures_of(FAMILY) if m.per_topic}
"""The per-topic measure behind each summary measure (MAiP: AiP, MAP: AP)."""


def focused_scores(ranked: RankedPassages, complete: bool, measures: list[str],
                   ip_recall: str = "inex_eval") -> Scores:
    """Per-topic values, averaged pairs and summaries of ``measures`` (``MAiP`` is the mean of
    ``AiP``, ``MAP`` of ``AP``), as ``focused_score_table`` makes the summary rows; only those
    measures are computed."""
    columns = [SUMMARY_OF.get(m, m) for m in measures]
    wide = focused_wide(ranked, complete, ip_recall=ip_recall, measures=columns)
    n_runs, n_topics = len(ranked.runs), len(ranked.topics)
    sums, counts = topic_sums(wide, columns, n_runs)
    num_q = np.full(n_runs, n_topics) if complete else counts
    summary = np.divide(sums, num_q[:, None], out=np.zeros_like(sums), where=num_q[:, None] > 0)
    per_topic = np.zeros((len(measures), n_runs, n_topics))
    evaluated = np.zeros((n_runs, n_topics), bool)
    run_code, topic_code = wide["run_code"].to_numpy(), wide["topic_code"].to_numpy()
    per_topic[:, run_code, topic_code] = wide[columns].to_numpy(np.float64).T
    evaluated[run_code, topic_code] = True
    return Scores(per_topic, evaluated, summary.T)


class FocusedRescorer:
    """The ``Rescorer`` of focused runs: units are the highlighted passages."""

    def __init__(self, ranked: RankedPassages, qrels: InexQrels, complete: bool,
                 measures: list[str], ip_recall: str = "inex_eval") -> None:
        self.ranked, self.qrels, self.complete = ranked, qrels, complete
        self.measures, self.ip_recall = measures, ip_recall
        self.runs, self.topics = ranked.runs, ranked.topics
        self.unit_topic = passage_topic_codes(qrels)
        self.passage_row = passage_articles(qrels)
        self.article_topic = pd.Index(ranked.topics).get_indexer(qrels.articles["topic"])

    def score(self, keep: np.ndarray | None) -> Scores:
        ranked = self.ranked if keep is None else rejudged_passages(
            self.ranked, sampled_inex_qrels(self.qrels, keep, self.passage_row),
            self.article_topic)
        return focused_scores(ranked, self.complete, self.measures, self.ip_recall)

    def sampled_qrels(self, keep: np.ndarray) -> str:
        return inex_qrels_text(sampled_inex_qrels(self.qrels, keep, self.passage_row))
