"""The uninterpolated precision-recall curve and the ROC curve on the lecture's example lists,
with values worked by hand from the lecture's tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from builder.measures.adhoc.curves import curve_points
from builder.measures.adhoc.judged.ranking import judge_rankings


def judged_list(marks: str, num_rel: int, extra_nonrel: int = 0):
    """A run retrieving ``marks`` (R relevant, N judged non-relevant) for topic 1 whose qrels
    hold ``num_rel`` relevant documents and ``extra_nonrel`` non-relevant ones not retrieved."""
    qrels = [("1", f"rel{i}", 1) for i in range(num_rel)]
    qrels += [("1", f"other{i}", 0) for i in range(extra_nonrel)]
    run, found = [], 0
    for rank, mark in enumerate(marks, 1):
        doc = f"rel{found}" if mark == "R" else f"non{rank}"
        found += mark == "R"
        if mark == "N":
            qrels.append(("1", doc, 0))
        run.append(("r", "1", doc, float(100 - rank)))
    qrels_table = pd.DataFrame(qrels, columns=["topic", "doc", "rel"])
    run_table = pd.DataFrame(run, columns=["run", "topic", "doc", "score"])
    return judge_rankings(run_table, qrels_table, depth=1000, rel_level=1)


def test_lecture_list_uninterpolated_curve():
    # RNNRR NNRNR with R = 20: the lecture's table, "max precision at that recall level".
    points = curve_points(judged_list("RNNRRNNRNR", 20), rel_level=1)
    relevant = points[points["point"] == "relevant"]
    assert relevant["recall"].tolist() == pytest.approx([0.05, 0.10, 0.15, 0.20, 0.25])
    assert relevant["precision"].tolist() == pytest.approx([1.0, 0.5, 0.6, 0.5, 0.5])
    assert relevant["rank"].tolist() == [1, 4, 5, 8, 10]


def test_lecture_list_roc_curve_with_a_collection_size():
    # 100 documents, 20 relevant: 80 negatives. The non-relevant documents above each relevant
    # one: 0, 2, 2, 4, 5 (and 5 at the end), so fallout 0, 2/80, 2/80, 4/80, 5/80.
    points = curve_points(judged_list("RNNRRNNRNR", 20), rel_level=1, collection_size=100)
    assert points["point"].tolist() == ["relevant"] * 5 + ["end"]
    assert points["fallout"].tolist() == pytest.approx([0, 0.025, 0.025, 0.05, 0.0625, 0.0625])
    assert points["recall"].tolist() == pytest.approx([0.05, 0.1, 0.15, 0.2, 0.25, 0.25])


def test_second_lecture_list_with_judged_negatives_only():
    # [N, N, N, R, N, N, R, N, R], R = 10: precision 1/4, 2/7, 3/9 at recall 0.1, 0.2, 0.3.
    # No collection size: fallout divides by the judged non-relevant documents, here the 6
    # retrieved and 4 more: 3/10, 5/10, 6/10 at the relevant documents and the end.
    points = curve_points(judged_list("NNNRNNRNR", 10, extra_nonrel=4), rel_level=1)
    relevant = points[points["point"] == "relevant"]
    assert relevant["precision"].tolist() == pytest.approx([1 / 4, 2 / 7, 3 / 9])
    assert relevant["recall"].tolist() == pytest.approx([0.1, 0.2, 0.3])
    assert points["fallout"].tolist() == pytest.approx([0.3, 0.5, 0.6, 0.6])


def test_third_lecture_list_ends_on_non_relevant_documents():
    # L = 1110010001110000110 (1 relevant), R = 12: precision at the 9 relevant documents.
    marks = "".join("R" if c == "1" else "N" for c in "1110010001110000110")
    points = curve_points(judged_list(marks, 12), rel_level=1, collection_size=50)
    relevant = points[points["point"] == "relevant"]
    ranks = [1, 2, 3, 6, 10, 11, 12, 17, 18]
    assert relevant["rank"].tolist() == ranks
    assert relevant["precision"].tolist() == pytest.approx([(i + 1) / r for i, r in enumerate(ranks)])
    end = points[points["point"] == "end"].iloc[0]
    # 19 retrieved, 9 relevant: 10 non-relevant of 50 - 12 = 38.
    assert (end["rank"], end["recall"], end["fallout"]) == (19, pytest.approx(0.75), pytest.approx(10 / 38))
    assert np.isnan(end["precision"])
