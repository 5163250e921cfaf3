"""Pool samples and tie bounds re-score rankings cut where the measures stop reading them: the same scores as
the whole rankings, on six of robust03's runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from builder.measures.adhoc.scores import ranks_read
from builder.stats.reliability.adhoc_rejudge import AdhocRescorer, judge_once
from builder.stats.reliability.sampling import pool_sample
from builder.stats.reliability.ties import tie_table
from builder.tasks import get_kind

KIND = get_kind("adhoc")
TOP_K = ["ndcg_cut_10", "P_5", "recall_100", "success_5", "map_cut_20", "relative_P_10",
         "unj_10"]


def test_depth_read_by_measures():
    assert ranks_read(["P_5", "ndcg_cut_10"]) == 10
    assert ranks_read(["recall_1000"]) == 1000
    assert ranks_read(["P_5", "map"]) is None  # map reads every relevant document retrieved
    assert ranks_read(["judged@10"]) is None  # ties broken by docno across the cut
    assert ranks_read(["nerr@10"]) is None  # running sums over all rows: not to the last bit
    assert ranks_read([]) is None


@pytest.fixture(scope="module")
def robust03(shared_data):
    folder = shared_data / "robust03"
    qrels = KIND.read_qrels(next(folder.glob("*qrels*")))
    options = KIND.options_model()
    paths = sorted((folder / "runs").iterdir())[:6]
    reads = KIND.read_runs(paths, qrels, options)
    return qrels, pd.concat([r.table for r in reads], ignore_index=True), options


def test_cut_rankings_score_every_sample_as_whole_ones(robust03):
    qrels, runs, options = robust03
    depth = ranks_read(TOP_K)
    assert depth == 100
    whole = AdhocRescorer(judge_once(runs, qrels, options), TOP_K)
    cut = AdhocRescorer(judge_once(runs, qrels, options, depth=depth), TOP_K)
    assert len(cut.judgements.judged.rank) < len(whole.judgements.judged.rank) / 5
    rng = np.random.default_rng(7)
    for keep in [None, *pool_sample(whole.unit_topic, len(whole.topics), 0.4, 3, 10, rng)]:
        expected, got = whole.score(keep), cut.score(keep)
        np.testing.assert_array_equal(got.summary, expected.summary)
        np.testing.assert_array_equal(got.per_topic, expected.per_topic)


def test_tie_bounds_of_top_k_measures_on_the_groups_that_start_in_the_top_k(robust03):
    qrels, runs, options = robust03
    cut = tie_table(runs, qrels, options, TOP_K).set_index(["run", "measure"])
    whole = tie_table(runs, qrels, options, [*TOP_K, "map"]).set_index(["run", "measure"])
    pd.testing.assert_frame_equal(cut, whole.loc[cut.index, cut.columns].astype(cut.dtypes))
