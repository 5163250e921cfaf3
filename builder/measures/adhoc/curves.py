"""The curves of the ad hoc run pages (the lecture on precision and recall, with the NIST
appendix pages' reading list): uninterpolated precision per recall level over topics, and per
topic the uninterpolated precision-recall curve and the ROC curve.

Uninterpolated precision at recall r: the precision at the first relevant document where
recall reaches r (unlike interpolated precision, ``iprec_at_recall_*``, the best precision at
any recall at or above the level): the curve as measured, with its saw teeth. It is the highest
precision at that recall level (the documents after the relevant one, not relevant, only lower
it), so a topic's curve is the points (recall, precision) at its relevant retrieved documents.
The mean over topics is taken on 101 levels (0, 0.01 .. 1); trec_eval prints none of it, so it
lives here as a curve rather than in the registry.

ROC curve (true-positive rate against false-positive rate; the recall-fallout view of the
TREC-2 appendices): after rank k, TPR = relevant retrieved / R (recall) and FPR = non-relevant
retrieved / non-relevant documents (fallout). The non-relevant documents are the collection's
(``collection_size`` - R; every retrieved document not judged relevant counts) when the
collection size is known, else the topic's judged non-relevant documents (only those retrieved
count). The curve is a staircase: it goes right at each non-relevant document and up at each
relevant one, so its corners are the points at the relevant documents and the end point.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from builder.measures.adhoc.judged.ranking import JudgedRanking

UNINTERPOLATED_STEPS = 100
RECALL_AXIS = [round(i / UNINTERPOLATED_STEPS, 2) for i in range(UNINTERPOLATED_STEPS + 1)]
"""The recall levels of the curve: 0, 0.01 .. 1."""


def uninterpolated_precision(points: pd.DataFrame, runs: Sequence[str],
                             topics_per_run: np.ndarray) -> np.ndarray:
    """Mean uninterpolated precision at recall 0, 0.01 .. 1, one row per run of ``runs``.

    Per topic, the uninterpolated precision at recall level r is the precision at the first
    relevant document where recall reaches r (no maximum over higher recall, unlike
    interpolated precision; seed 004), 0 where the run never reaches r. The mean is over the
    run's evaluated topics (``topics_per_run``, the ``num_q`` of each of ``runs``). All runs
    at once: each relevant document covers the levels between the previous relevant
    document's recall and its own. ``points``: precision and recall at the relevant documents
    of each ranking (run, topic, rank, precision, recall, relevant; other rows are skipped).
    """
    steps = UNINTERPOLATED_STEPS
    curves = np.zeros((len(runs), steps + 1))
    relevant = points[points["relevant"] > 0]
    relevant = relevant[relevant["run"].isin(runs)].sort_values(["run", "topic", "rank"],
                                                                  kind="mergesort")
    if relevant.empty:
        return curves
    run_index = pd.Index(runs).get_indexer(relevant["run"])
    recall = relevant["recall"].to_numpy(float)
    run_codes, _ = pd.factorize(relevant["run"])
    topic_codes, topics = pd.factorize(relevant["topic"])
    group = run_codes.astype(np.int64) * len(topics) + topic_codes
    first = np.ones(len(group), dtype=bool)
    first[1:] = group[1:] != group[:-1]
    previous = np.where(first, -1.0, np.roll(recall, 1))
    low = np.where(first, 0, np.floor(previous * steps + 1e-9).astype(int) + 1)
    high = np.minimum(np.floor(recall * steps + 1e-9).astype(int), steps)
    count = np.clip(high - low + 1, 0, None)
    points = np.repeat(np.arange(len(recall)), count)
    offsets = np.arange(len(points)) - np.repeat(np.cumsum(count) - count, count)
    levels = low[points] + offsets
    np.add.at(curves, (run_index[points], levels), relevant["precision"].to_numpy(float)[points])
    return curves / np.maximum(np.asarray(topics_per_run, dtype=float), 1)[:, None]


def curve_points(judged: JudgedRanking, rel_level: int, collection_size: int = 0) -> pd.DataFrame:
    """One row per relevant retrieved document of each ranking (``point`` = "relevant") and one
    per ranking's end (``point`` = "end"): run, topic, rank, recall, precision, fallout.

    ``precision`` is the uninterpolated curve's value (NaN at the end point); ``recall`` and
    ``fallout`` the ROC curve's coordinates there (fallout NaN when there is no non-relevant
    document to divide by).
    """
    rel = judged.rel
    is_rel = (rel >= 0) & (rel >= rel_level)
    if collection_size:
        is_nonrel = ~is_rel  # unjudged documents count as not relevant
    else:
        is_nonrel = (rel >= 0) & (rel < rel_level)
    cell = judged.cell
    n_topics = len(judged.topics)
    start = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]]) if len(cell) else np.zeros(0, int)
    sizes = np.diff(np.r_[start, len(cell)])

    def running(flags: np.ndarray) -> np.ndarray:
        total = np.cumsum(flags, dtype=np.int64)
        return total - np.repeat(total[start] - flags[start], sizes) if len(total) else total

    rel_so_far, nonrel_so_far = running(is_rel), running(is_nonrel)
    last = np.r_[start[1:], len(cell)] - 1 if len(cell) else np.zeros(0, int)
    at = np.flatnonzero(is_rel)
    rows = np.r_[at, last]
    point = np.r_[np.full(len(at), "relevant"), np.full(len(last), "end")]
    order = np.lexsort((point == "end", rows))
    rows, point = rows[order], point[order]
    topic = cell[rows] % n_topics
    R = judged.num_rel[topic].astype(np.float64)
    negatives = (collection_size - R) if collection_size else judged.num_nonrel[topic]
    negatives = np.asarray(negatives, dtype=np.float64)
    found = rel_so_far[rows].astype(np.float64)
    rank = judged.rank[rows]
    fallout = np.full(len(rows), np.nan)
    np.divide(nonrel_so_far[rows], negatives, out=fallout, where=negatives > 0)
    return pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(cell[rows] // n_topics, judged.runs),
            "topic": pd.Categorical.from_codes(topic, judged.topics),
            "rank": rank,
            "recall": np.divide(found, R, out=np.zeros(len(rows)), where=R > 0),
            "precision": np.where(point == "relevant", found / np.maximum(rank, 1), np.nan),
            "fallout": fallout,
            "point": point,
        }
    )
