"""Tie bounds and expected scores against every order of the tied documents."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from builder.stats.reliability.adhoc_rejudge import judge_once
from builder.stats.reliability.ties import UNLIMITED, tie_table
from builder.tasks import get_kind
from tests.stats.tie_broken_runs import tie_broken_scores

KIND = get_kind("adhoc")
MEASURES = ["map", "P_5", "P_10", "ndcg_cut_10", "ndcg", "recip_rank"]


def read(tmp_path: Path, qrels_text: str, run_texts: dict[str, str], depth: int = 1000):
    (tmp_path / "qrels").write_text(qrels_text)
    qrels = KIND.read_qrels(tmp_path / "qrels")
    options = KIND.options_model(depth=depth)
    paths = []
    for name, text in run_texts.items():
        paths.append(tmp_path / name)
        paths[-1].write_text(text)
    reads = KIND.read_runs(paths, qrels, options)
    return qrels, pd.concat([r.table for r in reads], ignore_index=True), options


def random_campaign(seed: int, docs: int = 8):
    """One topic, grades 0-2 plus unjudged documents, a run whose scores tie in groups."""
    rng = np.random.default_rng(seed)
    grades = rng.integers(-1, 3, docs)  # -1: not in the qrels
    qrels = "".join(f"1 0 d{i} {g}\n" for i, g in enumerate(grades) if g >= 0)
    qrels += "1 0 extra 2\n"  # relevant, never retrieved
    scores = rng.integers(0, 4, docs)
    run = "".join(f"1 Q0 d{i} {i + 1} {s} tag{seed}\n" for i, s in enumerate(scores))
    return qrels, run, scores


def all_orders(runs: pd.DataFrame) -> pd.DataFrame:
    """One run per order of the tied documents (distinct scores keeping the order between
    different scores), named by its number, all in one table to score them at once."""
    score = runs["score"].to_numpy()
    groups = [np.flatnonzero(score == s) for s in np.unique(score)]
    variants = []
    for number, perms in enumerate(itertools.product(*(itertools.permutations(g) for g in groups))):
        new = score.astype(float).copy()
        for group, perm in zip(groups, perms):
            new[list(perm)] = score[group[0]] + np.arange(len(group)) / (10 * len(group))
        variants.append(runs.assign(score=new, run=f"order{number}"))
    return pd.concat(variants, ignore_index=True)


@pytest.mark.parametrize("seed", range(5))
def test_bounds_and_expectation_over_every_tie_order(tmp_path, seed):
    qrels_text, run_text, _ = random_campaign(seed)
    qrels, runs, options = read(tmp_path, qrels_text, {"r": run_text}, depth=6)
    table = tie_table(runs, qrels, options, MEASURES).set_index("measure")
    scores = KIND.evaluate(qrels, all_orders(runs), options).scores
    summary = scores[scores["topic"] == "all"]
    values = summary.pivot(index="run", columns="measure", values="value")
    monotone = MEASURES  # all of these only grow when a higher grade moves up
    assert table.loc[monotone, "best"].to_numpy() == pytest.approx(values[monotone].max().to_numpy(), abs=1e-12)
    assert table.loc[monotone, "worst"].to_numpy() == pytest.approx(values[monotone].min().to_numpy(), abs=1e-12)
    closed = ["map", "P_5", "P_10", "ndcg_cut_10", "ndcg"]
    assert table.loc[closed, "expected"].to_numpy() == pytest.approx(values[closed].mean().to_numpy(), abs=1e-12)
    assert np.isnan(table.loc["recip_rank", "expected"])


def test_official_is_trec_eval_order_and_ranks_cover_the_ties(tmp_path):
    qrels = "1 0 a 1\n1 0 b 0\n1 0 c 1\n"
    runs = {
        "tied": "1 Q0 a 1 1.0 tied\n1 Q0 b 2 1.0 tied\n1 Q0 c 3 0.5 tied\n",
        "fixed": "1 Q0 b 1 2.0 fixed\n1 Q0 a 2 1.0 fixed\n1 Q0 c 3 0.5 fixed\n",
    }
    qrels, runs, options = read(tmp_path, qrels, runs)
    table = tie_table(runs, qrels, options, ["map"]).set_index("run")
    # trec_eval puts b before a (docno descending): the same ranking as "fixed"
    assert table.loc["tied", "official"] == table.loc["fixed", "official"]
    assert table.loc["tied", "best"] > table.loc["tied", "official"] == table.loc["tied", "worst"]
    assert table.loc["tied", "best_rank"] == 1 and table.loc["tied", "worst_rank"] == 1
    assert table.loc["fixed", "best_rank"] == 1 and table.loc["fixed", "worst_rank"] == 2


def test_rewritten_scores_rank_as_the_bounds(tmp_path):
    qrels_text, run_text, _ = random_campaign(11, docs=12)
    qrels, runs, options = read(tmp_path, qrels_text, {"r": run_text})
    table = tie_table(runs, qrels, options, MEASURES).set_index("measure")
    judgements = judge_once(runs, qrels, options, depth=UNLIMITED, keep_rows=True)
    for highest_first, column in ((True, "best"), (False, "worst")):
        rewritten = runs.assign(score=tie_broken_scores(judgements, runs["score"].to_numpy(), highest_first))
        assert rewritten["score"].nunique() == len(rewritten)
        scores = KIND.evaluate(qrels, rewritten, options).scores
        summary = scores[scores["topic"] == "all"].set_index("measure")["value"]
        assert summary[MEASURES].to_numpy() == pytest.approx(table.loc[MEASURES, column].to_numpy(), abs=0)
