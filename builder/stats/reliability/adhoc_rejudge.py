"""Ad hoc runs re-scored under changed judgements, without sorting the runs again.

The runs are sorted, cut and looked up in the qrels once (``judge_once``): each ranked row
keeps the *row of the qrels* that judges it (or ``NOT_IN_POOL``). Any variant of the qrels that
only changes relevance values, or drops rows (``rejudge``), is then one gather plus the usual
columnar measures: this is what makes pool sampling, leave-one-team-out and tie bounds cheap.
A variant scored here equals the same qrels written to a file and scored by ``appendix
evaluate`` (the tests check it): the measures and summaries are the evaluator's own.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from builder.measures.adhoc import scores as adhoc_measures
from builder.measures.adhoc.judged.ranking import (
    NOT_IN_POOL,
    UNJUDGED,
    JudgedRanking,
    judge_rankings,
    qrels_counts,
)
from builder.measures.registry import measures_of
from builder.stats.reliability.stability import Scores


@dataclass
class AdhocJudgements:
    """Rankings judged by qrels row. ``judged.rel`` holds the qrels row index per ranked row
    (``NOT_IN_POOL`` when none); ``qrels_topic`` is the topic code of each qrels row.
    ``options``: the ad hoc task's options (``depth``, ``rel_level``, ``complete``,
    ``interpolation``)."""

    judged: JudgedRanking
    qrels: pd.DataFrame
    qrels_topic: np.ndarray
    qrels_rel: np.ndarray
    options: Any

    @property
    def runs(self) -> list[str]:
        return self.judged.runs

    @property
    def topics(self) -> list[str]:
        return self.judged.topics


def judge_once(
    runs: pd.DataFrame, qrels: pd.DataFrame, options: Any, *,
    depth: int | None = None, keep_rows: bool = False,
) -> AdhocJudgements:
    """Sort and cut (at ``depth``, default the options' ``-M``) every ranking once."""
    by_row = qrels.assign(rel=np.arange(len(qrels), dtype=np.int64))
    judged = judge_rankings(
        runs, by_row, depth=depth or options.depth, rel_level=0, keep_rows=keep_rows
    )
    topic_code = pd.Index(judged.topics).get_indexer(qrels["topic"])
    return AdhocJudgements(
        judged=judged, qrels=qrels, qrels_topic=topic_code,
        qrels_rel=qrels["rel"].to_numpy(dtype=np.int64), options=options,
    )


def rows_where(judged: JudgedRanking, keep: np.ndarray) -> JudgedRanking:
    """The rankings with only the rows where ``keep``."""
    return dataclasses.replace(
        judged, cell=judged.cell[keep], rank=judged.rank[keep], rel=judged.rel[keep],
        row=None if judged.row is None else judged.row[keep],
        tied=None if judged.tied is None else judged.tied[keep])


def cut_at(judgements: AdhocJudgements, depth: int) -> AdhocJudgements:
    """``judgements`` of rankings cut at ``depth``: what ``judge_once(..., depth=depth)`` makes,
    without sorting the runs again."""
    judged = judgements.judged
    return dataclasses.replace(judgements, judged=rows_where(judged, judged.rank <= depth))


def qrels_row(judgements: AdhocJudgements) -> np.ndarray:
    """The qrels row behind each ranked row, -1 when the qrels do not list the document."""
    return judgements.judged.rel.astype(np.int64, copy=False)


def rejudge(
    judgements: AdhocJudgements, rel: np.ndarray | None = None,
    present: np.ndarray | None = None,
) -> JudgedRanking:
    """The rankings judged by the qrels with relevance ``rel`` (one value per qrels row,
    default the real ones) and only the rows where ``present`` (default all)."""
    rel = judgements.qrels_rel if rel is None else rel
    by_row = np.where(rel < 0, UNJUDGED, rel)
    if present is not None:
        by_row = np.where(present, by_row, NOT_IN_POOL)
    index = qrels_row(judgements)
    fits = not len(rel) or (rel.min() >= -128 and rel.max() <= 127)
    row_rel = np.where(index >= 0, by_row[np.maximum(index, 0)] if len(by_row) else 0, NOT_IN_POOL)
    kept = slice(None) if present is None else present
    counts = qrels_counts(
        judgements.qrels_topic[kept], rel[kept], len(judgements.topics),
        judgements.options.rel_level,
    )
    num_rel, num_nonrel, ideal_gains, ideal_start = counts
    return dataclasses.replace(
        judgements.judged, rel=row_rel.astype(np.int8 if fits else np.int64),
        num_rel=num_rel, num_nonrel=num_nonrel, ideal_gains=ideal_gains, ideal_start=ideal_start,
    )


def adhoc_scores(
    judged: JudgedRanking, options: Any, measures: list[str],
    present: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-topic values (measure x run x topic) and summaries (measure x run) of ``measures``,
    as ``builder.tasks.adhoc.evaluate`` makes them (same arithmetic, same topics averaged).
    ``present``: per cell, whether the run retrieved something for the topic (default: read
    from ``judged``; given when ``judged`` lost documents the evaluation counted, as ``-J``)."""
    values = adhoc_measures.compute(
        judged, rel_level=options.rel_level, interpolation=options.interpolation,
        params=options.measure_params, collection_size=options.collection_size,
        only=set(measures),
    )
    n_runs, n_topics = len(judged.runs), len(judged.topics)
    if present is None:
        present = judged.per_cell() > 0
    evaluated = np.ones(n_runs * n_topics, bool) if options.complete else present
    run_of_cell = np.repeat(np.arange(n_runs), n_topics)
    num_q = np.bincount(run_of_cell, weights=evaluated, minlength=n_runs)
    how = {m.name: m.aggregation for m in measures_of(adhoc_measures.FAMILY)}
    per_topic = np.stack([values[m].reshape(n_runs, n_topics) for m in measures])
    summary = np.stack([
        how[m].finish(np.bincount(run_of_cell, weights=np.where(evaluated, how[m].terms(values[m]), 0.0),
                                  minlength=n_runs), num_q)
        for m in measures
    ])
    return per_topic, summary


class AdhocRescorer:
    """The ``Rescorer`` of ad hoc runs: units are the qrels' relevant documents (relevance at
    or above the level); a document left out of a sample is judged non-relevant (0)."""

    def __init__(self, judgements: AdhocJudgements, measures: list[str]) -> None:
        self.judgements = judgements
        self.measures = measures
        self.runs, self.topics = judgements.runs, judgements.topics
        level = judgements.options.rel_level
        self.unit_rows = np.flatnonzero(judgements.qrels_rel >= max(level, 0))
        self.unit_topic = judgements.qrels_topic[self.unit_rows]

    def sampled_rel(self, keep: np.ndarray | None) -> np.ndarray:
        rel = self.judgements.qrels_rel.copy()
        if keep is not None:
            rel[self.unit_rows[~keep]] = 0
        return rel

    def score(self, keep: np.ndarray | None) -> Scores:
        judged = rejudge(self.judgements, self.sampled_rel(keep))
        per_topic, summary = adhoc_scores(judged, self.judgements.options, self.measures)
        options = self.judgements.options
        evaluated = np.ones(per_topic.shape[1:], bool) if options.complete else (
            judged.per_cell().reshape(per_topic.shape[1:]) > 0)
        return Scores(per_topic, evaluated, summary)

    def sampled_qrels(self, keep: np.ndarray) -> str:
        qrels = self.judgements.qrels
        return "".join(
            f"{t} 0 {d} {r}\n"
            for t, d, r in zip(qrels["topic"], qrels["doc"], self.sampled_rel(keep).tolist())
        )
