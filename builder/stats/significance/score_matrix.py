"""Per-topic score vectors of every run on one measure, aligned over the same topics.

The paired tests compare runs topic by topic, so each run needs a value for every topic of the
task. A topic missing from a run scores 0, as it does in the ``all`` averages (trec_eval ``-c``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

SUMMARY_TOPIC = "all"


@dataclass(frozen=True)
class ScoreMatrix:
    """``values[i, t]``: the score of ``runs[i]`` on ``topics[t]`` for ``measure``.

    Runs are ordered best first by their mean over the topics (ties by name), so that pair
    ``(i, j)`` with ``i < j`` has run ``i`` at least as high on the leaderboard as run ``j``.
    """

    measure: str
    runs: tuple[str, ...]
    topics: tuple[str, ...]
    values: np.ndarray

    @property
    def means(self) -> np.ndarray:
        return self.values.mean(axis=1)


def _topic_key(topic: str) -> tuple[int, float, str]:
    """Numeric topics in numeric order, then the others in text order."""
    try:
        return (0, float(topic), topic)
    except ValueError:
        return (1, 0.0, topic)


def score_matrix(
    scores: pd.DataFrame,
    measure: str,
    *,
    runs: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    higher_is_better: bool = True,
) -> ScoreMatrix:
    """Align the per-topic values of ``measure`` from a long score table.

    scores: columns ``run, topic, measure, value`` (the summary topic ``all`` is ignored).
    runs: the runs to include (default: every run with a value for ``measure``); a run listed
    here but absent from the table scores 0 everywhere.
    topics: the task's topics (default: every topic any run has a value for).
    """
    rows = scores[(scores["measure"] == measure) & (scores["topic"].astype(str) != SUMMARY_TOPIC)]
    rows = rows.assign(topic=rows["topic"].astype(str), run=rows["run"].astype(str))
    duplicated = rows.duplicated(["run", "topic"])
    if duplicated.any():
        first = rows[duplicated].iloc[0]
        raise ValueError(
            f"score table has several {measure} values for run {first['run']!r}, "
            f"topic {first['topic']!r}"
        )
    if runs is None:
        runs = sorted(rows["run"].unique())
        if not runs:
            raise ValueError(f"score table has no per-topic values for measure {measure!r}")
    if topics is None:
        topics = rows["topic"].unique()
    topic_order = sorted({str(t) for t in topics}, key=_topic_key)
    wide = rows.pivot(index="run", columns="topic", values="value")
    wide = wide.reindex(index=list(runs), columns=topic_order).fillna(0.0)
    values = wide.to_numpy(dtype=np.float64)
    means = values.mean(axis=1) if topic_order else np.zeros(len(runs))
    by_name = np.argsort(np.asarray(wide.index, dtype=str), kind="stable")
    key = -means[by_name] if higher_is_better else means[by_name]
    order = by_name[np.argsort(key, kind="stable")]
    return ScoreMatrix(
        measure=measure,
        runs=tuple(str(wide.index[i]) for i in order),
        topics=tuple(topic_order),
        values=np.ascontiguousarray(values[order]),
    )


def pair_indices(n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every pair ``i < j``, in row-major order."""
    return np.triu_indices(n_runs, k=1)


def pair_differences(matrix: ScoreMatrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(i, j, d)``: for every pair ``i < j``, ``d[p] = values[i] - values[j]`` (pairs x topics)."""
    i, j = pair_indices(len(matrix.runs))
    return i, j, matrix.values[i] - matrix.values[j]
