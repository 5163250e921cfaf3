"""HiXEval (seed 003, section 3): rval for not seen, fully seen and partly seen passages."""

from __future__ import annotations

import io

import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels
from builder.measures.inex.ranking import article_keys, highlight_index, rank_passages
from builder.measures.inex.thorough.hixeval import hixeval_table, seen_rsize

# article a: [0,10) and [20,30) highlighted, Trel = 20
QRELS = "1 Q0 a 20 100 0 0:10 20:10\n"
# r=1 [0,15):  NS, rsize 10, seen 0   size 15
# r=2 [0,15):  FS, rsize 10, seen 10  size 15
# r=3 [5,30):  PS, rsize 15, seen 5   size 25
RUN = "1 Q0 a 1 1 t 0 15\n1 Q0 a 2 1 t 0 15\n1 Q0 a 3 1 t 5 25\n"


def measures(alpha: float):
    table, _ = read_fol_run(io.StringIO(RUN), name="r")
    qrels = parse_inex_qrels(QRELS)
    ranked = rank_passages(table, qrels)
    seen = seen_rsize(ranked, highlight_index(qrels))
    return seen, hixeval_table(ranked, seen, alpha, cutoffs=(1, 2, 3)).iloc[0]


def test_seen_text_of_each_case():
    seen, _ = measures(1.0)
    assert seen.tolist() == [0, 10, 5]


@pytest.mark.parametrize(
    ("alpha", "rvals"),
    [(0.0, (10, 10, 15)), (1.0, (10, 0, 10)), (0.5, (10, 5, 12.5))],
)
def test_precision_and_recall_at_ranks(alpha, rvals):
    _, m = measures(alpha)
    sizes = (15, 15, 25)
    for r in (1, 2, 3):
        p = sum(v / s for v, s in zip(rvals[:r], sizes[:r])) / r
        rec = sum(rvals[:r]) / 20
        assert m[f"P@{r}"] == pytest.approx(p)
        assert m[f"R@{r}"] == pytest.approx(rec)
        assert m[f"F@{r}"] == pytest.approx(2 * p * rec / (p + rec))


def test_overlap_on_hand_worked():
    _, m = measures(1.0)
    # P@1 = 2/3, P@2 = 1/3, P@3 = (2/3 + 0 + 10/25) / 3 = 16/45; R = 1/2, 1/2, 1
    assert m["P@3"] == pytest.approx(16 / 45)
    assert m["MAP"] == pytest.approx(2 / 3 * 0.5 + 16 / 45 * 0.5)
    assert m["iMAP"] == pytest.approx((6 * 2 / 3 + 5 * 16 / 45) / 11)


def test_not_seen_in_another_article():
    table, _ = read_fol_run(io.StringIO("1 Q0 a 1 1 t 0 15\n1 Q0 b 2 1 t 0 15\n"), name="r")
    qrels = parse_inex_qrels(QRELS + "1 Q0 b 5 9 0 0:5\n")
    ranked = rank_passages(table, qrels)
    assert seen_rsize(ranked, highlight_index(qrels)).tolist() == [0, 0]


def test_article_keys_number_each_group_epoch_and_file_at_its_first_line():
    import numpy as np

    group = np.array([0, 0, 1, 0, 0, 1])
    epoch = np.array([1, 1, 1, 2, 1, 1])
    file = np.array([5, 7, 5, 5, 5, 5])
    # (0,1,5) (0,1,7) (1,1,5) (0,2,5) (0,1,5) again (1,1,5) again
    assert article_keys(group, epoch, file).tolist() == [0, 1, 2, 3, 0, 2]
    assert article_keys(group[:0], epoch[:0], file[:0]).tolist() == []
