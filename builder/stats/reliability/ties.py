"""How much a run's score owes to the order of its tied documents.

trec_eval orders documents of equal score by docno (descending), an order that carries no
information; that score stays the official one. Here, per run and measure:

- best / worst: the score when, inside every group of tied documents of a ranking, the highest
  grades come first / last (then trec_eval's docno order among equal grades; documents outside
  the qrels rank with grade -1, judged-unjudged ones with -2). For measures that only grow when
  a higher grade moves up (AP, P@k, nDCG, ...) these are the extreme scores over all tie orders.
  The depth cut (-M) is applied after reordering, so a tie across the cut is reordered whole.
- expected: the mean over all orders of the tied documents, in closed form (McSherry and
  Najork, "Computing information retrieval performance measures efficiently in the presence of
  tied scores", ECIR 2008). For a tied group of n documents, r of them relevant, placed after c
  documents of which Rb are relevant, at positions c + j (j = 1..n):
  P@k and nDCG@k: each position holds on average r/n relevant documents and the group's mean
  gain; AP: the document at c + j is relevant with probability r/n, and then (j-1)(r-1)/(n-1)
  of the ones above it in the group are, so it adds r/n (Rb + 1 + (j-1)(r-1)/(n-1)) / (c + j).
  Other measures have no expected value here (NaN).
- ranks: the leaderboard positions (1 = best) the run can take when every run's ties fall
  either way: best rank 1 + the runs whose worst score beats its best; worst rank 1 + the runs
  whose best score beats its worst.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from builder.measures.adhoc.judged.ranking import JudgedRanking
from builder.measures.adhoc.scores import ranks_read
from builder.stats.reliability.adhoc_rejudge import (
    AdhocJudgements,
    adhoc_scores,
    judge_once,
    rejudge,
    rows_where,
)

TIE_COLUMNS = ["run", "measure", "official", "worst", "best", "expected"]
RANK_COLUMNS = ["rank", "best_rank", "worst_rank"]
UNLIMITED = np.iinfo(np.int32).max


def tie_groups(judged: JudgedRanking, score: np.ndarray) -> np.ndarray:
    """Group number of each ranked row: a new group where the cell or the score changes."""
    new = np.r_[True, (judged.cell[1:] != judged.cell[:-1]) | (score[1:] != score[:-1])]
    return np.cumsum(new) - 1 if len(score) else np.zeros(0, np.int64)


def _reordered(judged: JudgedRanking, group: np.ndarray, grade: np.ndarray, depth: int,
               highest_first: bool | None) -> JudgedRanking:
    """The rankings with each tied group sorted by grade (None: trec_eval's order), cut."""
    rel = judged.rel
    if highest_first is not None:
        key = -grade if highest_first else grade
        rel = rel[np.lexsort((np.arange(len(rel)), key, group))]
    within = judged.rank <= depth
    return dataclasses.replace(judged, cell=judged.cell[within], rank=judged.rank[within],
                               rel=rel[within], row=None)


def expected_scores(judged: JudgedRanking, group: np.ndarray, options: Any,
                    measures: list[str]) -> dict[str, np.ndarray]:
    """Per-cell expected values over all tie orders for the measures with a closed form."""
    depth = options.depth
    rel = judged.rel.astype(np.int64)
    is_rel = ((rel >= 0) & (rel >= options.rel_level)).astype(np.float64)
    gain = np.maximum(rel, 0).astype(np.float64)
    size = np.bincount(group).astype(np.float64)
    r = np.bincount(group, weights=is_rel)[group]
    n = size[group]
    mean_gain = np.bincount(group, weights=gain)[group] / n
    first = np.r_[0, np.flatnonzero(np.diff(group)) + 1] if len(group) else np.zeros(0, int)
    j = np.arange(len(group)) - first[group] + 1.0
    rank = judged.rank.astype(np.float64)
    cell_first = np.r_[True, judged.cell[1:] != judged.cell[:-1]] if len(group) else []
    rel_so_far = np.cumsum(is_rel)
    rel_before_cell = np.maximum.accumulate(np.where(cell_first, rel_so_far - is_rel, 0))
    rel_before_group = (rel_so_far - is_rel)[first][group] - rel_before_cell
    within = judged.rank <= depth
    cell, n_cells = judged.cell, judged.num_cells
    topic = judged.topic_of_cell()
    R = judged.num_rel[topic].astype(np.float64)

    def per_cell(weights: np.ndarray, keep: np.ndarray) -> np.ndarray:
        return np.bincount(cell[keep], weights=weights[keep], minlength=n_cells)

    out: dict[str, np.ndarray] = {}
    others = np.where(n > 1, (j - 1) * (r - 1) / np.maximum(n - 1, 1), 0.0)
    ap_terms = r / n * (rel_before_group + 1 + others) / rank
    if "map" in measures:
        out["map"] = np.divide(per_cell(ap_terms, within), R, out=np.zeros(n_cells), where=R > 0)
    ideal_discounted = judged.ideal_gains / np.log2(
        np.arange(len(judged.ideal_gains)) - np.repeat(judged.ideal_start[:-1],
                                                       np.diff(judged.ideal_start)) + 2.0)
    ideal_topic = np.repeat(np.arange(len(judged.topics)), np.diff(judged.ideal_start))
    ideal_position = np.arange(len(judged.ideal_gains)) - judged.ideal_start[ideal_topic]
    discounted = mean_gain / np.log2(rank + 1.0)
    for name in measures:
        family, _, cut = name.rpartition("_")
        k = int(cut) if cut.isdigit() else UNLIMITED
        if name == "ndcg":
            family = "ndcg_cut"
        if family == "P":
            out[name] = per_cell(r / n, within & (rank <= k)) / k
        elif family == "ndcg_cut":
            top = ideal_position < k
            ideal = np.bincount(ideal_topic[top], weights=ideal_discounted[top],
                                minlength=len(judged.topics))[topic]
            dcg = per_cell(discounted, within & (rank <= k))
            out[name] = np.divide(dcg, ideal, out=np.zeros(n_cells), where=ideal > 0)
    return out


def tie_table(runs: pd.DataFrame, qrels: pd.DataFrame, options: Any,
              measures: list[str]) -> pd.DataFrame:
    """``TIE_COLUMNS`` plus ``RANK_COLUMNS``, one row per run and measure (runs in input
    order, measures as given)."""
    judgements = judge_once(runs, qrels, options, depth=UNLIMITED, keep_rows=True)
    return tie_table_of(judgements, runs["score"].to_numpy(np.float64), measures)


def tie_table_of(judgements: AdhocJudgements, run_scores: np.ndarray,
                 measures: list[str]) -> pd.DataFrame:
    """``tie_table`` on rankings judged uncut (``judge_once(..., depth=UNLIMITED,
    keep_rows=True)``); ``run_scores`` is the run table's score column."""
    options = judgements.options
    judged = rejudge(judgements)
    group = tie_groups(judged, run_scores[judged.row])
    read = ranks_read(measures, options.measure_params)
    if read is not None:
        # Measures that read the first k ranks only see the tied groups that start there,
        # whatever the order inside them: the others are dropped whole.
        starts_at = judged.rank[np.r_[True, group[1:] != group[:-1]]] if len(group) else group
        judged = rows_where(judged, starts_at[group] <= read)
        group = tie_groups(judged, run_scores[judged.row])
    grade = judged.rel.astype(np.int64)
    variants, cut = {}, {}
    for label, order in (("official", None), ("best", True), ("worst", False)):
        cut[label] = _reordered(judged, group, grade, options.depth, order)
        variants[label] = adhoc_scores(cut[label], options, measures)[1]
    per_cell = expected_scores(judged, group, options, measures)
    n_runs, n_topics = len(judged.runs), len(judged.topics)
    present = cut["official"].per_cell() > 0
    evaluated = np.ones(n_runs * n_topics, bool) if options.complete else present
    count = evaluated.reshape(n_runs, n_topics).sum(axis=1)
    expected = np.full((len(measures), n_runs), np.nan)
    for m, name in enumerate(measures):
        if name in per_cell:
            total = np.where(evaluated, per_cell[name], 0.0).reshape(n_runs, n_topics).sum(axis=1)
            expected[m] = np.divide(total, count, out=np.zeros(n_runs), where=count > 0)
    best, worst = variants["best"], variants["worst"]
    official = variants["official"]
    table = pd.DataFrame({
        "run": np.tile(judged.runs, len(measures)),
        "measure": np.repeat(measures, n_runs),
        "official": official.ravel(), "worst": worst.ravel(), "best": best.ravel(),
        "expected": expected.ravel(),
        "rank": _rank_against(official, official).ravel(),
        "best_rank": _rank_against(worst, best).ravel(),
        "worst_rank": _rank_against(best, worst).ravel(),
    })
    return table


def _rank_against(others: np.ndarray, own: np.ndarray) -> np.ndarray:
    """1 + the other runs o with others[m, o] > own[m, i], per measure m and run i."""
    above = others[:, None, :] > own[:, :, None]
    above &= ~np.eye(own.shape[1], dtype=bool)[None]
    return above.sum(axis=-1) + 1
