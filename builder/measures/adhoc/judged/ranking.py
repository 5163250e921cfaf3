"""The ranked, judged runs every ad hoc measure reads: trec_eval's ``form_res_rels.c``, columnar.

All runs and topics at once. Each (run, topic) ranking is one *cell* of a run x topic grid,
whose topics are the qrels' topics (string order, as trec_eval prints them). A run's lines
for topics absent from the qrels are ignored, as trec_eval ignores them.

Order: score descending, ties broken by docno descending in byte order (``comp_sim_docno``);
the rank column of the file plays no part. The depth cut (``-M``) is applied after sorting.
Each retrieved document gets its qrels relevance, ``NOT_IN_POOL`` when the qrels do not list
it, or ``UNJUDGED`` when the qrels give it a negative relevance (in the pool, not judged).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.measures.adhoc.judged.docno_order import as_large_strings, byte_order_codes, take_rows
from builder.measures.adhoc.judged.relevance import (  # noqa: F401 (the rel codes, read from here)
    NOT_IN_POOL,
    UNJUDGED,
    relevance_by_row,
    stable_order,
)


@dataclass
class JudgedRanking:
    """Rows of all rankings in evaluation order, with per-cell and per-topic counts.

    cell, rank (1-based), rel (qrels value, ``NOT_IN_POOL`` or ``UNJUDGED``) per row; cells are
    ``run_index * len(topics) + topic_index``. ``num_rel`` (R: judged at or above the level),
    ``num_nonrel`` (judged 0 <= rel < level) per topic; ``ideal_gains`` is the qrels' positive
    relevance values per topic, sorted descending, as a flat array split by ``ideal_start``.
    """

    runs: list[str]
    topics: list[str]
    cell: np.ndarray
    rank: np.ndarray
    rel: np.ndarray
    num_rel: np.ndarray
    num_nonrel: np.ndarray
    ideal_gains: np.ndarray
    ideal_start: np.ndarray
    row: np.ndarray | None = None
    """With ``keep_rows``: the row of the run table behind each ranked row (ties analysis)."""
    tied: np.ndarray | None = None
    """Per row: its score equals the previous row's of the same cell (a tie broken by docno)."""

    @property
    def num_cells(self) -> int:
        return len(self.runs) * len(self.topics)

    def per_cell(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Sum of ``weights`` (or count of rows) per cell, on the flat grid."""
        if weights is None:  # rows are in cell order: each cell's count from its bounds
            edges = np.arange(self.num_cells + 1, dtype=self.cell.dtype)
            return np.diff(np.searchsorted(self.cell, edges))
        return np.bincount(self.cell, weights=weights, minlength=self.num_cells)

    def topic_of_cell(self) -> np.ndarray:
        return np.tile(np.arange(len(self.topics)), len(self.runs))


def _codes_in(values: pd.Series, categories: list[str]) -> np.ndarray:
    """Index of each value in ``categories`` (-1 when absent).

    A categorical column (as the run reader makes them) is looked up once per category.
    Other run and topic columns come in long stretches of one value, so they are run-length
    encoded first and each stretch is looked up once.
    """
    if isinstance(values.dtype, pd.CategoricalDtype):
        lookup = pd.Index(categories).get_indexer(values.cat.categories.astype(str))
        return np.append(lookup, -1).astype(np.int32)[values.cat.codes.to_numpy()]
    ends, stretch_values = [], []
    offset = 0
    for chunk in as_large_strings(values).chunks:
        if not len(chunk):
            continue
        encoded = pc.run_end_encode(chunk)
        ends.append(encoded.run_ends.to_numpy().astype(np.int64) + offset)
        stretch_values += encoded.values.to_pylist()
        offset += len(chunk)
    if not ends:
        return np.zeros(0, np.int32)
    lengths = np.diff(np.concatenate([[0], *ends]))
    return np.repeat(pd.Index(categories).get_indexer(stretch_values).astype(np.int32), lengths)


def _stretch_values(values: pd.Series) -> list[str]:
    """The value of each stretch of equal values, in order."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes = values.cat.codes.to_numpy()
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else []
        return [str(values.cat.categories[code]) for code in codes[starts]]
    found: list[str] = []
    for chunk in as_large_strings(values).chunks:
        if len(chunk):
            found += pc.run_end_encode(chunk).values.to_pylist()
    return found


def run_order(values: pd.Series) -> list[str]:
    """The run names of a run column in their order of first appearance (the grid's rows)."""
    return list(dict.fromkeys(_stretch_values(values)))


def ranking_order(
    cell: np.ndarray, score: np.ndarray, doc: np.ndarray | Callable[[np.ndarray], np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row order by cell, then score descending, then doc code descending (comp_sim_docno);
    with the cells in that order and, per row in that order, whether its cell and score are
    the previous row's (a tie broken by docno), which the sort finds on its way.

    ``doc``: codes in the documents' byte order per row, or a function giving such codes
    for some rows (consistent among them), asked only for the rows tied with another.

    Two stable sorts (score, then cell) order everything but ties; rows tied on cell and
    score are then reordered by doc alone, which touches only the tied rows. Runs are nearly
    always written best first per topic: then the stable sort by cell alone already orders
    the scores, and the costly sort by score is skipped.
    """
    order = stable_order(cell)
    sorted_cell, sorted_score = cell[order], score[order]
    same_cell = sorted_cell[1:] == sorted_cell[:-1]
    if (same_cell & (sorted_score[1:] > sorted_score[:-1])).any():
        by_score = np.argsort(-score, kind="stable")
        order = by_score[stable_order(cell[by_score])]
        sorted_cell, sorted_score = cell[order], score[order]
    tied = np.r_[
        False, (sorted_cell[1:] == sorted_cell[:-1]) & (sorted_score[1:] == sorted_score[:-1])
    ]
    in_tie = np.flatnonzero(tied | np.r_[tied[1:], False])
    if len(in_tie):
        group = np.cumsum(~tied[in_tie])
        tie_doc = doc[order[in_tie]] if isinstance(doc, np.ndarray) else doc(order[in_tie])
        n_docs = int(tie_doc.max()) + 1
        by_doc = np.argsort(group * n_docs + (n_docs - 1 - tie_doc), kind="stable")
        order[in_tie] = order[in_tie][by_doc]  # within ties: their cells and scores stay
    return order, sorted_cell, tied


def judge_rankings(
    runs: pd.DataFrame, qrels: pd.DataFrame, *, depth: int, rel_level: int,
    keep_rows: bool = False, run_names: list[str] | None = None,
) -> JudgedRanking:
    """Sort, cut and judge every ranking of ``runs`` (columns run, topic, doc, score).

    ``keep_rows`` keeps, per ranked row, its row in ``runs`` (``JudgedRanking.row``).
    ``run_names``: the grid's runs (default: those of ``runs``, in order), a superset of them
    (a part of the grid that lacks some runs' lines still has their cells)."""
    topics = sorted(pd.unique(qrels["topic"]))
    run_names = run_order(runs["run"]) if run_names is None else run_names
    run_topic = _codes_in(runs["topic"], topics)
    kept = run_topic >= 0
    run_index = _codes_in(runs["run"], run_names)
    score = runs["score"].to_numpy(dtype=np.float64)
    run_docs = as_large_strings(runs["doc"])
    if not kept.all():  # copies only when some lines are for unjudged topics
        run_topic, run_index, score = run_topic[kept], run_index[kept], score[kept]
        run_docs = run_docs.filter(pa.array(kept))
    qrels_topic = _codes_in(qrels["topic"], topics)
    qrels_rel = qrels["rel"].to_numpy(dtype=np.int64)
    rel = relevance_by_row(run_topic, run_docs, qrels_topic, as_large_strings(qrels["doc"]),
                           qrels_rel)
    cell = run_index * np.int32(len(topics)) + run_topic
    del run_index, run_topic
    # Byte order is needed only between tied rows, and computed for them alone.
    order, cell, tied = ranking_order(
        cell, score, lambda rows: byte_order_codes(take_rows(run_docs, rows)))
    rel = rel[order]
    row = (np.flatnonzero(kept)[order] if not kept.all() else order) if keep_rows else None
    del order, score
    starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]]) if len(cell) else np.zeros(0, int)
    sizes = np.diff(np.r_[starts, len(cell)])
    rank = np.arange(1, len(cell) + 1, dtype=np.int32) - np.repeat(starts.astype(np.int32), sizes)
    within = rank <= depth
    if not within.all():
        cell, rel, rank, tied = cell[within], rel[within], rank[within], tied[within]
        row = row[within] if row is not None else None

    num_rel, num_nonrel, ideal_gains, ideal_start = qrels_counts(
        qrels_topic, qrels_rel, len(topics), rel_level
    )
    return JudgedRanking(
        runs=run_names,
        topics=topics,
        cell=cell,
        rank=rank,
        rel=rel,
        num_rel=num_rel,
        num_nonrel=num_nonrel,
        ideal_gains=ideal_gains,
        ideal_start=ideal_start,
        row=row,
        tied=tied,
    )


def qrels_counts(
    qrels_topic: np.ndarray, qrels_rel: np.ndarray, n_topics: int, rel_level: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per topic code: R (judged >= level), judged non-relevant, and the ideal gains (positive
    relevance values sorted descending per topic, flat) with their start per topic."""
    judged = qrels_rel >= 0
    num_rel = np.bincount(
        qrels_topic, weights=judged & (qrels_rel >= rel_level), minlength=n_topics
    )
    num_nonrel = np.bincount(
        qrels_topic, weights=judged & (qrels_rel < rel_level), minlength=n_topics
    )
    positive = qrels_rel > 0
    gains, topic = qrels_rel[positive], qrels_topic[positive]
    span = int(gains.max(initial=0)) + 1
    if span * max(n_topics, 1) < 2**62:  # one key, sorted whole: equal gains are alike
        key = np.sort(topic.astype(np.int64) * span + (span - 1 - gains))
        ideal_gains = (span - 1 - key % span).astype(np.float64)
    else:
        ideal_gains = gains[np.lexsort((-gains, topic))].astype(np.float64)
    ideal_counts = np.bincount(topic, minlength=n_topics)
    ideal_start = np.r_[0, np.cumsum(ideal_counts)]
    return num_rel.astype(np.int64), num_nonrel.astype(np.int64), ideal_gains, ideal_start


def judged_only(judged: JudgedRanking, keep: np.ndarray | None = None) -> JudgedRanking:
    """The rankings without their unjudged documents (not in the qrels, or judged negative),
    ranks renumbered: trec_eval's ``-J`` (form_res_rels.c, ties keep their docno order).
    ``keep``: the rows kept instead (``-M 0`` keeps none)."""
    keep = judged.rel >= 0 if keep is None else keep
    cell = judged.cell[keep]
    starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]]) if len(cell) else np.zeros(0, int)
    sizes = np.diff(np.r_[starts, len(cell)])
    rank = np.arange(1, len(cell) + 1, dtype=np.int32) - np.repeat(starts.astype(np.int32), sizes)
    tied = None
    if judged.tied is not None:
        # Ties are between the documents kept: a tie group of the whole ranking, renumbered.
        group = np.cumsum(~judged.tied)[keep]
        tied = np.r_[False, (group[1:] == group[:-1]) & (cell[1:] == cell[:-1])][: len(cell)]
    row = judged.row[keep] if judged.row is not None else None
    return replace(judged, cell=cell, rank=rank, rel=judged.rel[keep], tied=tied, row=row)
