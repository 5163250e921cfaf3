"""The passage ranking of every (run, topic) at once, as inex_eval 3.1 walks it.

``rank_passages`` turns validated FOL run tables into one row per evaluated line, in ranking
order (the order of lines in the file), with what every measure of the focused and thorough
families is made of: ``size`` and ``rsize`` (seed 001, eq. 1-2), running sums of both, and
whether the line opens a new article of its topic.

Two habits of inex_eval 3.1 are kept because its numbers depend on them:

- lines of topics absent from the qrels are skipped;
- its table of retrieved articles is reset only when a topic is seen for the first time, so a
  topic whose lines come in two separate blocks counts the articles of its second block again
  (and may reach a recall above 1). ``epoch`` numbers these tables: it grows at the first line
  of each topic, and an article is new when (epoch, file) is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.overlap import HighlightIndex

UNKNOWN_PASSAGE_SIZE = 18
"""inex_eval's ``meanPassageLength``: the size given to a passage marked unknown (``X``, -1)."""


@dataclass
class RankedPassages:
    """Every evaluated line, sorted by (run, topic, line).

    lines: columns ``run_code``, ``topic_code``, ``group`` (dense (run, topic) index), ``line``,
    ``article`` (index into ``qrels.articles`` or -1), ``start``, ``end``, ``size``, ``rsize``,
    ``new_article``, ``relevant`` (an article with highlighted text for the topic),
    ``relevant_article`` (new and relevant), ``file_code``, ``epoch``,
    ``element`` (an element result of an element run, not a passage).
    groups: one row per (run, topic) with results: ``run``, ``topic``, ``run_code``,
    ``topic_code``, ``first`` and ``stop`` (row range in ``lines``).
    runs / topics: the names behind the codes; topics are every qrels topic, sorted as strings.
    total_rsize / total_relevant: per topic code, inex_eval's recall base (sum of rel_chars) and
    number of relevant articles; total_passages: the highlighted passages of relevant articles
    (the xCG measures' ideal recall-base).
    """

    lines: dict[str, np.ndarray]
    groups: pd.DataFrame
    runs: list[str]
    topics: list[str]
    total_rsize: np.ndarray
    total_relevant: np.ndarray
    total_passages: np.ndarray | None = None


def rank_passages(runs: pd.DataFrame, qrels: InexQrels) -> RankedPassages:
    """Rank and size the passages of every run (see the module docstring)."""
    topics = qrels.topics
    articles = qrels.articles
    topic_index = pd.Index(topics)
    run_code, run_names = pd.factorize(runs["run"])
    run_names = [str(name) for name in run_names]
    all_topic_codes = _codes(runs["topic"], topic_index)
    keep = np.flatnonzero(all_topic_codes >= 0)
    topic_code = all_topic_codes[keep]
    run_code = run_code[keep].astype(np.int64)
    line = runs["line"].to_numpy(dtype=np.int64)[keep]
    file_code, files = pd.factorize(runs["file"])
    file_code, files = file_code[keep].astype(np.int64), pd.Index(files)

    epoch = _epochs(run_code, topic_code, line, len(topics))
    article = _article_index(articles, topic_index, files, topic_code, file_code)
    offset = runs["offset"].to_numpy(dtype=np.int64)[keep]
    length = runs["length"].to_numpy(dtype=np.int64)[keep]

    order = np.lexsort((line, topic_code, run_code))
    run_code, topic_code, line = run_code[order], topic_code[order], line[order]
    file_code, epoch, article = file_code[order], epoch[order], article[order]
    start, length = offset[order], length[order]
    # Element results (resolved element runs) are told apart for HiXEval's element tree.
    has_path = "path" in runs.columns
    element = (runs["path"].to_numpy(dtype=object)[keep][order] != "") if has_path else \
        np.zeros(len(order), dtype=bool)

    unknown = start == UNKNOWN_OFFSET
    size = np.where(unknown, UNKNOWN_PASSAGE_SIZE, length)
    end = start + length
    rel_chars = articles["rel_chars"].to_numpy(dtype=np.int64)
    relevant = np.where(article >= 0, rel_chars[np.maximum(article, 0)], 0) > 0
    rsize = highlight_index(qrels).highlighted_overlap(np.where(relevant & ~unknown, article, -1), start, end)

    new_article = _first_occurrence(epoch * np.int64(len(files)) + file_code, line, run_code)
    group_key = run_code * np.int64(len(topics)) + topic_code
    group_start = np.concatenate([[True], group_key[1:] != group_key[:-1]]) if len(order) else group_key > 0
    group = np.cumsum(group_start) - 1
    first = np.flatnonzero(group_start)
    stop = np.append(first[1:], len(group)).astype(np.int64)[: len(first)]  # none: no group
    groups = pd.DataFrame(
        {
            "run": np.asarray(run_names, dtype=object)[run_code[first]] if len(first) else [],
            "topic": np.asarray(topics, dtype=object)[topic_code[first]] if len(first) else [],
            "run_code": run_code[first],
            "topic_code": topic_code[first],
            "first": first,
            "stop": stop,
        }
    )
    relevant_by_topic = articles.loc[articles["rel_chars"] > 0]
    codes = topic_index.get_indexer(relevant_by_topic["topic"].to_numpy())
    total_rsize = np.bincount(codes, weights=relevant_by_topic["rel_chars"], minlength=len(topics))
    total_relevant = np.bincount(codes, minlength=len(topics))
    lines = {
        "run_code": run_code,
        "topic_code": topic_code,
        "group": group,
        "line": line,
        "article": article,
        "file_code": file_code,
        "epoch": epoch,
        "start": start,
        "end": end,
        "size": size,
        "rsize": rsize,
        "new_article": new_article,
        "relevant_article": new_article & relevant,
        "relevant": relevant,
        "element": element,
    }
    return RankedPassages(lines, groups, run_names, topics, total_rsize.astype(np.int64),
                          total_relevant, passage_counts(qrels, topic_index))


def article_keys(group: np.ndarray, epoch: np.ndarray, file_code: np.ndarray) -> np.ndarray:
    """(group, epoch, file) numbered in order of first appearance, as factorizing the triples
    would, from two factorizations of integer pairs (no Python tuple per line; each pair's
    product stays below the square of the number of lines)."""
    pair = pd.factorize(group.astype(np.int64) * (np.int64(epoch.max(initial=0)) + 1) + epoch)[0]
    files = np.int64(file_code.max(initial=0)) + 1
    return pd.factorize(pair.astype(np.int64) * files + file_code)[0]


def passage_counts(qrels: InexQrels, topic_index: pd.Index) -> np.ndarray:
    """Highlighted passages of the articles with relevant text, per topic of ``topic_index``
    (``qrels.passages`` holds those only: ``InexQrels``)."""
    codes = topic_index.get_indexer(qrels.passages["topic"])
    return np.bincount(codes[codes >= 0], minlength=len(topic_index)).astype(np.int64)


def _codes(values: pd.Series, categories: pd.Index) -> np.ndarray:
    """Position of each value in ``categories`` (-1 if absent), factorizing the column once."""
    codes, uniques = pd.factorize(values)
    lookup = np.append(categories.get_indexer(uniques), -1)
    return lookup[codes].astype(np.int64)


def _epochs(run_code: np.ndarray, topic_code: np.ndarray, line: np.ndarray, n_topics: int) -> np.ndarray:
    """inex_eval's article-table number of each line (see the module docstring)."""
    in_file_order = np.lexsort((line, run_code))
    key = (run_code * np.int64(n_topics) + topic_code)[in_file_order]
    first_of_topic = np.zeros(len(key), dtype=bool)
    first_of_topic[np.unique(key, return_index=True)[1]] = True
    epoch = np.empty(len(key), dtype=np.int64)
    epoch[in_file_order] = np.cumsum(first_of_topic)
    return epoch


def _article_index(
    articles: pd.DataFrame, topic_index: pd.Index, files: pd.Index, topic_code: np.ndarray, file_code: np.ndarray
) -> np.ndarray:
    """Row of ``articles`` judging each line's (topic, file), or -1."""
    n_files = np.int64(len(files))
    judged_file = _codes(articles["file"], files)
    judged = np.where(judged_file >= 0, _codes(articles["topic"], topic_index) * n_files + judged_file, -1)
    sorter = np.argsort(judged, kind="stable")
    keys = topic_code * n_files + file_code
    found = np.searchsorted(judged[sorter], keys)
    found = np.minimum(found, max(len(judged) - 1, 0))
    if not len(judged):
        return np.full(len(keys), -1, dtype=np.int64)
    hit = judged[sorter][found] == keys
    return np.where(hit, sorter[found], -1).astype(np.int64)


def highlight_index(qrels: InexQrels) -> HighlightIndex:
    """The highlighted passages, grouped by their row in ``qrels.articles``."""
    passages = qrels.passages
    row = pd.MultiIndex.from_frame(qrels.articles[["topic", "file"]]).get_indexer(
        pd.MultiIndex.from_frame(passages[["topic", "file"]])
    )
    offset = passages["offset"].to_numpy(dtype=np.int64)
    return HighlightIndex(row, offset, offset + passages["length"].to_numpy(dtype=np.int64))


def _first_occurrence(key: np.ndarray, line: np.ndarray, run_code: np.ndarray) -> np.ndarray:
    """True at the first line (in file order) of each key."""
    order = np.lexsort((line, run_code, key))
    sorted_key = key[order]
    first = np.concatenate([[True], sorted_key[1:] != sorted_key[:-1]]) if len(key) else np.zeros(0, bool)
    result = np.zeros(len(key), dtype=bool)
    result[order[first]] = True
    return result
