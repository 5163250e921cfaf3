"""Pool bias: what a team's runs would score had the team not contributed to the pool.

Zobel, "How reliable are the results of large-scale information retrieval experiments?"
(SIGIR 1998), leave one team out: the pool is the top ``pool_depth`` documents of the pooled
runs; the relevant documents that only one team's pooled runs brought into it count as
unjudged (left out of the qrels) when that team's runs are scored again. A large drop means
the collection would judge a similar new system unfairly. The new rank is taken among the other
teams' runs at their official scores.

Also per run: the share of its top 10 documents that the qrels do not judge (Buckley and
Voorhees 2004 point at it as the first sign of an incomplete pool).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from builder.stats.reliability.adhoc_rejudge import (
    AdhocJudgements,
    adhoc_scores,
    qrels_row,
    rejudge,
)

POOL_BIAS_COLUMNS = ["run", "team", "measure", "official", "left_out", "change", "rank",
                     "left_out_rank", "unique_relevant"]


def unjudged_at(judgements: AdhocJudgements, k: int = 10) -> pd.Series:
    """Per run: documents in its top k that the qrels do not judge (absent or negative), over
    the documents in its top k, all topics together."""
    judged = judgements.judged
    top = judged.rank <= k
    index = qrels_row(judgements)[top]
    unjudged = (index < 0) | (judgements.qrels_rel[np.maximum(index, 0)] < 0)
    run = judged.cell[top] // len(judged.topics)
    count = np.bincount(run, minlength=len(judged.runs))
    missing = np.bincount(run, weights=unjudged, minlength=len(judged.runs))
    share = np.divide(missing, count, out=np.full(len(count), np.nan), where=count > 0)
    return pd.Series(share, index=judged.runs, name=f"unjudged_{k}")


def pool_bias(judgements: AdhocJudgements, teams: Mapping[str, str], pooled: set[str],
              pool_depth: int, measures: list[str]) -> pd.DataFrame:
    """``POOL_BIAS_COLUMNS`` for every run of every team with a pooled run."""
    judged = judgements.judged
    options = judgements.options
    runs = judged.runs
    team_of = np.array([teams.get(run, run) for run in runs], dtype=object)
    team_names, team_code = np.unique(team_of, return_inverse=True)
    run_pooled = np.array([run in pooled for run in runs])
    run = judged.cell // len(judged.topics)
    index = qrels_row(judgements)
    relevant = (index >= 0) & (judgements.qrels_rel[np.maximum(index, 0)] >= options.rel_level)
    contributes = relevant & (judged.rank <= pool_depth) & run_pooled[run]
    pairs = np.unique(np.c_[index[contributes], team_code[run[contributes]]], axis=0)
    teams_per_row = np.bincount(pairs[:, 0], minlength=len(judgements.qrels_rel))
    sole = pairs[teams_per_row[pairs[:, 0]] == 1]
    only_team = np.full(len(judgements.qrels_rel), -1)
    only_team[sole[:, 0]] = sole[:, 1]
    official = adhoc_scores(rejudge(judgements), options, measures)[1]
    frames = []
    for code in np.unique(team_code[run_pooled]):
        mine = team_code == code
        left_out = adhoc_scores(rejudge(judgements, present=only_team != code), options,
                                measures)[1]
        others = official[:, ~mine]
        rank = (others[:, None, :] > official[:, mine][:, :, None]).sum(-1) + 1
        new_rank = (others[:, None, :] > left_out[:, mine][:, :, None]).sum(-1) + 1
        n_mine = int(mine.sum())
        frames.append(pd.DataFrame({
            "run": np.tile(np.asarray(runs, dtype=object)[mine], len(measures)),
            "team": team_names[code], "measure": np.repeat(measures, n_mine),
            "official": official[:, mine].ravel(), "left_out": left_out[:, mine].ravel(),
            "change": (left_out[:, mine] - official[:, mine]).ravel(),
            "rank": rank.ravel(), "left_out_rank": new_rank.ravel(),
            "unique_relevant": int((only_team == code).sum()),
        }))
    if not frames:
        return pd.DataFrame(columns=POOL_BIAS_COLUMNS)
    return pd.concat(frames, ignore_index=True)[POOL_BIAS_COLUMNS]
