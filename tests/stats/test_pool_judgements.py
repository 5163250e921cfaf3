"""The judgements page's statistics against a brute force, written here in plain Python, on a
small generated campaign: ties, grades -1..2, runs of 0 to 14 documents a topic, a topic no
run answers, teams, runs not pooled, a judged depth found and one stated."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from builder.stats.pools.judgements import judgement_report

TOPICS = ["1", "2", "3", "10"]
RUNS = {"a1": "A", "a2": "A", "b1": "B", "c1": "C", "d1": "D"}
POOLED = {"a1", "a2", "b1", "c1"}


def campaign(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = random.Random(seed)
    docs = [f"d{n}" for n in range(20)]
    rows = []
    for run in RUNS:
        for topic in TOPICS[:3]:
            for doc in rng.sample(docs, rng.randint(0, 14)):
                rows.append((run, topic, doc, float(rng.choice([1, 2, 3]))))
    runs = pd.DataFrame(rows, columns=["run", "topic", "doc", "score"])
    # the pool the qrels judge: every pooled run's first 3 (so some depth is found), and more
    pooled = set()
    for (run, topic), group in runs.groupby(["run", "topic"]):
        if run in POOLED:
            ranked = sorted(zip(group["score"], group["doc"]), reverse=True)
            pooled |= {(topic, doc) for _, doc in ranked[:3]}
    other = {(t, d) for t in TOPICS for d in rng.sample(docs, 8)} - pooled
    qrels = pd.DataFrame([(t, d, rng.choice([0, 0, 1, 2])) for t, d in sorted(pooled)]
                         + [(t, d, rng.choice([-1, 0, 1, 2])) for t, d in sorted(other)],
                         columns=["topic", "doc", "rel"])
    return runs, qrels


def ranking(runs: pd.DataFrame, run: str, topic: str) -> list[str]:
    rows = runs[(runs["run"] == run) & (runs["topic"] == topic)]
    return [doc for _, doc in sorted(zip(rows["score"], rows["doc"]), reverse=True)]


@pytest.mark.parametrize(("seed", "stated"), [(1, None), (2, None), (3, 2), (4, 5)])
def test_judgement_statistics_equal_the_brute_force(seed: int, stated: int | None) -> None:
    runs, qrels = campaign(seed)
    report = judgement_report(runs, qrels, POOLED, RUNS, rel_level=1, pool_depth=stated)
    grade = {(t, d): r for t, d, r in qrels.itertuples(index=False)}
    topics = sorted(set(qrels["topic"]))  # the qrels' topics, in string order
    judged_depth = {}
    for topic in topics:
        depths = []
        for run in POOLED:
            docs = ranking(runs, run, topic)
            if docs:
                bad = [i for i, d in enumerate(docs) if grade.get((topic, d), -1) < 0]
                depths.append(bad[0] if bad else len(docs))
        judged_depth[topic] = min(depths) if depths else np.nan
        assert report.topics.loc[topic, "judged"] == sum(
            1 for (t, _), r in grade.items() if t == topic and r >= 0)
        for g in (0, 1, 2):
            assert report.topics.loc[topic, f"grade {g}"] == sum(
                1 for (t, _), r in grade.items() if t == topic and r == g)
    assert report.topics["judged_depth"].to_dict() == pytest.approx(judged_depth, nan_ok=True)
    depth = stated if stated is not None else int(np.floor(np.nanmedian(list(judged_depth.values()))))
    assert report.depth == depth and report.depth_found == (stated is None)
    assert depth > 0

    tops = {run: {t: ranking(runs, run, t)[:depth] for t in topics} for run in POOLED}
    brought: dict[tuple[str, str], set[str]] = {}
    for run, top in tops.items():
        for topic, docs in top.items():
            for doc in docs:
                brought.setdefault((topic, doc), set()).add(RUNS[run])
    for run, team in RUNS.items():
        row = report.runs.loc[run]
        for k in (10, 100, 1000):
            ranked = [(t, d) for t in topics for d in ranking(runs, run, t)[:k]]
            share = sum(grade.get(key, -1) < 0 for key in ranked) / len(ranked)
            assert row[f"unjudged@{k}"] == pytest.approx(share)
        assert row["pooled"] == (run in POOLED)
        if run not in POOLED:
            assert np.isnan(row["contributed"])
            continue
        mine = {(t, d) for t, docs in tops[run].items() for d in docs}
        unique = {key for key in mine if brought[key] == {team}}
        assert row["contributed"] == len(mine)
        assert row["unique"] == len(unique)
        assert row["unique_relevant"] == sum(grade.get(key, -1) >= 1 for key in unique)
    assert report.totals["pool"] == len(brought)
    assert report.totals["judged"] == sum(r >= 0 for r in grade.values())


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_rankings_judged_once_for_the_ties_give_the_same_report(seed: int) -> None:
    # The analyse stage sorts and judges the rankings once, uncut, by qrels row, for the tie
    # analysis, and gives the judgements page those rankings cut at its deepest cutoff
    # (builder.pipeline.analysis.shared_judgements): the report is the one it makes alone.
    from builder.stats.pools.judgements import UNJUDGED_CUTOFFS
    from builder.stats.reliability.adhoc_rejudge import cut_at, judge_once, rejudge
    from builder.stats.reliability.ties import UNLIMITED
    from builder.tasks.options.adhoc import AdhocOptions

    runs, qrels = campaign(seed)
    uncut = judge_once(runs, qrels, AdhocOptions(rel_level=1), depth=UNLIMITED, keep_rows=True)
    shared = judgement_report(runs, qrels, POOLED, RUNS, rel_level=1,
                              judged=rejudge(cut_at(uncut, max(UNJUDGED_CUTOFFS))))
    alone = judgement_report(runs, qrels, POOLED, RUNS, rel_level=1)
    pd.testing.assert_frame_equal(shared.topics, alone.topics)
    pd.testing.assert_frame_equal(shared.runs, alone.runs)
    assert (shared.totals, shared.depth, shared.depth_found) == \
        (alone.totals, alone.depth, alone.depth_found)
