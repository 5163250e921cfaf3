"""The focused rescorer computes the measures a study asks, and each as the whole table does."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from builder.measures.inex.focused.precision import IP_NAMES, RATIO_MEASURES
from builder.measures.inex.focused.scores import focused_wide
from builder.measures.inex.focused.xcg import XCG_NAMES
from builder.measures.inex.ranking import rank_passages
from builder.stats.reliability.inex_rejudge import FocusedRescorer
from builder.stats.reliability.sampling import pool_sample
from builder.tasks import get_kind
from tests.conftest import ROOT

KIND = get_kind("focused")
INEX = ROOT / "data" / "inex"


@pytest.fixture(scope="module")
def focused():
    qrels = KIND.read_qrels(INEX / "qrels.txt")
    options = KIND.options_model()
    reads = KIND.read_runs(sorted((INEX / "focused").glob("*.txt"))[:3], qrels, options)
    runs = pd.concat([r.table for r in reads if r.table is not None], ignore_index=True)
    return rank_passages(runs, qrels), qrels


def test_only_the_measures_asked_are_computed(focused):
    ranked, _ = focused
    everything = focused_wide(ranked, True)
    asked = focused_wide(ranked, True, measures=["iP[0.01]"])
    assert not {"AiP", "AP", *XCG_NAMES, *RATIO_MEASURES} & set(asked.columns)
    assert {*IP_NAMES, "AiP", "AP", *XCG_NAMES, *RATIO_MEASURES} <= set(everything.columns)
    pd.testing.assert_frame_equal(asked, everything[asked.columns])
    assert "AiP" not in focused_wide(ranked, False, measures=["MAnxCG"]).columns


@pytest.mark.parametrize("complete", [False, True])
def test_one_measure_rescored_alone_scores_as_with_all_the_others(focused, complete):
    ranked, qrels = focused
    alone = FocusedRescorer(ranked, qrels, complete, ["MAiP"])
    together = FocusedRescorer(ranked, qrels, complete, ["iP[0.01]", "MAiP", "AP", "MAnxCG"])
    rng = np.random.default_rng(3)
    for keep in [None, *pool_sample(alone.unit_topic, len(alone.topics), 0.5, 2, 1, rng)]:
        one, all_ = alone.score(keep), together.score(keep)
        np.testing.assert_array_equal(one.per_topic[0], all_.per_topic[1])
        np.testing.assert_array_equal(one.summary[0], all_.summary[1])
        np.testing.assert_array_equal(one.evaluated, all_.evaluated)
