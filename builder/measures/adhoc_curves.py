"""Uninterpolated precision at recall levels, the curve of the ad hoc run pages (seed 004).

Unlike interpolated precision (``iprec_at_recall_*``, the best precision at any recall at or
above the level), the uninterpolated precision at recall r is the precision at the first
relevant document where recall reaches r: the curve as measured, with its saw teeth. It is a
measure over topics like the others, only on 101 levels (0, 0.01 .. 1) and not printed by
trec_eval, so it lives here as a curve rather than in the registry.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

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
