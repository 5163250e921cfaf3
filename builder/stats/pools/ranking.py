"""Each ranking's first k documents, ranked as the evaluation ranks them.

trec_eval's order (``form_res_rels.c``, ``builder.measures.adhoc.judged.ranking``): per run and
topic, score descending, ties by docno descending in byte order; the rank column of the file
plays no part. So a pool of depth k holds exactly the documents the measures at cutoff k read,
ties included. (trectools sorts ties by docno ascending: the two pools differ only where tied
documents straddle rank k.)

``exclude``: documents already judged (a qrels table), removed from each ranking before it is
cut, as the residual-collection rankings of TREC-COVID's later rounds were pooled (Roberts et
al., "TREC-COVID: rationale and structure of an information retrieval shared task for
COVID-19", JAMIA 2020): each run still brings its first k new documents.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.measures.adhoc.judged.docno_order import as_large_strings, take_rows
from builder.measures.adhoc.judged.ranking import ranking_order
from builder.measures.adhoc.judged.relevance import stable_order

TOP_COLUMNS = ["run", "topic", "doc", "rank"]
TEXT = pd.StringDtype("pyarrow", np.nan)
"""pandas' own string type, its values in Arrow: docnos are never turned into Python objects."""


def _taken(names: pd.Index, codes: np.ndarray) -> pa.Array:
    """``names[codes]`` as Arrow large strings, taken in Arrow."""
    values = pa.array(np.asarray(names.astype(str), dtype=object), pa.large_string())
    return values.take(pa.array(codes, pa.int64()))


def _strings(names: pd.Index, codes: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """``names[codes]`` as pandas' Arrow strings."""
    return pd.array(_taken(names, codes), dtype=TEXT)


def judged_keys(qrels: pd.DataFrame) -> pd.MultiIndex:
    """The (topic, doc) pairs a qrels table judges (relevance >= 0: a negative grade is in the
    pool but not judged, as trec_eval reads it)."""
    judged = qrels[qrels["rel"].to_numpy() >= 0]
    return pd.MultiIndex.from_arrays([judged["topic"].astype(str).to_numpy(object),
                                      judged["doc"].astype(str).to_numpy(object)])


def byte_ranks(values: np.ndarray | pa.ChunkedArray) -> np.ndarray:
    """Codes of the strings in their byte order (equal strings, equal codes): one Arrow sort,
    for the few tied rows of one run (``byte_order_codes`` hashes a whole run's docnos on
    threads, which costs more than it saves on a few hundred rows)."""
    if not len(values):
        return np.zeros(0, np.int64)
    array = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else \
        pa.array(values, pa.large_string())
    return pc.rank(array, sort_keys="ascending", tiebreaker="dense").to_numpy().astype(np.int64)


def _within_cell_rank(cell: np.ndarray) -> np.ndarray:
    """1-based position of each row within its stretch of equal cells."""
    if not len(cell):
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
    sizes = np.diff(np.r_[starts, len(cell)])
    return np.arange(1, len(cell) + 1) - np.repeat(starts, sizes)


def ranked_top(runs: pd.DataFrame, depth: int, exclude: pd.MultiIndex | None = None
               ) -> pd.DataFrame:
    """``TOP_COLUMNS``: for every (run, topic) of ``runs`` (columns run, topic, doc, score),
    its first ``depth`` documents in the evaluation's order, without those of ``exclude``.
    Rows come by run (first appearance), topic (first appearance), rank."""
    run_code, run_names = pd.factorize(runs["run"], sort=False)
    topic_code, topic_names = pd.factorize(runs["topic"], sort=False)
    cell = run_code.astype(np.int64) * max(len(topic_names), 1) + topic_code
    score = runs["score"].to_numpy(np.float64)
    reach = reading_depth(depth, exclude)
    rows = _candidates(cell, score, reach)
    docs = take_rows(as_large_strings(runs["doc"]), rows)
    order, cell, _ = ranking_order(
        cell[rows], score[rows], lambda tied: byte_ranks(take_rows(docs, tied)))
    rank = _within_cell_rank(cell)
    keep = np.flatnonzero(rank <= reach)
    n_topics = max(len(topic_names), 1)
    top = pd.DataFrame({
        "run": _strings(run_names, cell[keep] // n_topics),
        "topic": _strings(topic_names, cell[keep] % n_topics),
        "doc": pd.array(take_rows(docs, order[keep]), dtype=TEXT),
        "rank": rank[keep],
    }, copy=False)
    if exclude is not None and len(exclude):
        top = top[~pd.MultiIndex.from_arrays([top["topic"], top["doc"]]).isin(exclude)]
        top = top.assign(rank=_within_cell_rank(cell[keep][top.index.to_numpy()]))
    top = top[top["rank"].to_numpy() <= depth]
    return top.assign(rank=top["rank"].astype(np.int32)).reset_index(drop=True)


def top_candidates(run: pd.DataFrame, reach: int) -> pa.Table:
    """The rows (topic, doc, score) of one run (columns topic, doc, score) that can be among
    a topic's first ``reach`` documents (``_candidates``; ``reach = reading_depth(depth,
    exclude)``): a prefix of each ranking, so ``ranked_top`` of these rows, of this run and
    others, is ``ranked_top`` of the whole run. A run of 1,000 documents a topic is cut at once
    to about a tenth of its rows, which wait for a batch of runs to be ranked together."""
    topic_code, topic_names = pd.factorize(run["topic"], sort=False)
    score = run["score"].to_numpy(np.float64)
    rows = _candidates(topic_code.astype(np.int64), score, reach)
    return pa.table({"topic": _taken(topic_names, topic_code[rows]),
                     "doc": take_rows(as_large_strings(run["doc"]), rows),
                     "score": score[rows]})


def reading_depth(depth: int, exclude: pd.MultiIndex | None) -> int:
    """How deep each ranking is read: ``depth``, and as many more as a topic has documents
    in ``exclude``."""
    return depth + (0 if exclude is None else _most_excluded(exclude))


def _candidates(cell: np.ndarray, score: np.ndarray, reach: int) -> np.ndarray:
    """The rows that can be among their cell's first ``reach``: those scoring at least the
    cell's ``reach``-th best score. They are a prefix of each cell's ranking (ties at that
    score included, to be broken by docno), so the ranking of these rows alone gives the same
    first ``reach``; docnos are then compared only among them (a run of 1,000 documents a
    topic pooled at depth 100 has a tenth of its ties to break)."""
    by_score = stable_order(cell)  # runs are nearly always written best first per topic
    sorted_cell, sorted_score = cell[by_score], score[by_score]
    if ((sorted_cell[1:] == sorted_cell[:-1]) & (sorted_score[1:] > sorted_score[:-1])).any():
        by_score = np.lexsort((-score, cell))
        sorted_cell = cell[by_score]
    position = _within_cell_rank(sorted_cell)
    threshold = np.full(int(cell.max()) + 1 if len(cell) else 0, -np.inf)
    at_reach = position == reach
    threshold[sorted_cell[at_reach]] = score[by_score][at_reach]
    return np.flatnonzero(score >= threshold[cell])


def _most_excluded(exclude: pd.MultiIndex) -> int:
    """The most documents ``exclude`` holds for one topic: how much deeper than k a ranking is
    read so that k of its documents remain once they are removed."""
    if not len(exclude):
        return 0
    return int(pd.Series(exclude.get_level_values(0)).value_counts().max())
