"""Focused measures on hand-worked rankings (seed 001 eq. 1-2, seed 002 iP[x]/AiP)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels
from builder.measures.inex.focused.precision import (
    average_interpolated_precision,
    interpolated_precision,
)
from builder.measures.inex.focused.scores import focused_score_table
from builder.measures.inex.ranking import rank_passages

# Trel(1) = 30: a has [10,20) highlighted, b has [0,20), c is judged non-relevant.
QRELS = "1 Q0 a 10 100 10 10:10\n1 Q0 b 20 50 0 0:20\n1 Q0 c 0 80\n2 Q0 d 5 10 0 0:5\n"
# r=1: b [0,20)  size 20 rsize 20  P = 20/20 = 1       R = 20/30 = 0.667
# r=2: c [0,50)  size 50 rsize 0   P = 20/70           R = 0.667
# r=3: a [0,40)  size 40 rsize 10  P = 30/110 = 3/11   R = 30/30 = 1
RUN = "1 Q0 b 1 3 t 0 20\n1 Q0 c 2 2 t 0 50\n1 Q0 a 3 1 t 0 40\n"


def scores(run: str = RUN, qrels: str = QRELS, complete: bool = False) -> dict[tuple[str, str], float]:
    table, _ = read_fol_run(io.StringIO(run), name="r")
    table = focused_score_table(rank_passages(table, parse_inex_qrels(qrels)), complete)
    return {(t, m): v for t, m, v in table[["topic", "measure", "value"]].itertuples(index=False)}


def test_interpolated_precision_curve():
    table, _ = read_fol_run(io.StringIO(RUN), name="r")
    curve, impossible = interpolated_precision(rank_passages(table, parse_inex_qrels(QRELS)))
    # iP[x] = max P[r] over R[r] >= x: 1 up to x = 0.66 (R = 2/3), 3/11 beyond
    expected = np.array([1.0] * 67 + [3 / 11] * 34)
    assert curve.shape == (1, 101)
    assert curve[0] == pytest.approx(expected, abs=0)
    assert impossible.tolist() == [0]
    assert average_interpolated_precision(curve)[0] == pytest.approx((67 + 34 * 3 / 11) / 101, rel=1e-12)


def test_counts_and_ratios():
    s = scores()
    assert [s[("1", m)] for m in ("num_ret", "num_rel", "num_rel_ret")] == [3, 2, 2]
    assert [s[("1", m)] for m in ("ret_size", "rel_size", "rel_ret_size")] == [110, 30, 30]
    assert s[("1", "art_prec")] == 2 / 3 and s[("1", "art_rec")] == 1.0
    assert s[("1", "art_f1")] == pytest.approx(2 * (2 / 3) / (2 / 3 + 1))
    assert s[("1", "char_prec")] == 30 / 110 and s[("1", "char_rec")] == 1.0
    assert s[("1", "iP[0.01]")] == 1.0 and s[("1", "iP[0.70]")] == 3 / 11


def test_topics_without_results_and_complete():
    plain = scores()
    assert ("2", "AiP") not in plain
    assert plain[("all", "num_q")] == 1 and plain[("all", "MAiP")] == plain[("1", "AiP")]
    complete = scores(complete=True)
    assert complete[("all", "num_q")] == 2
    assert complete[("2", "AiP")] == 0 and complete[("2", "num_rel")] == 1 and complete[("2", "rel_size")] == 5
    assert complete[("all", "MAiP")] == pytest.approx(plain[("1", "AiP")] / 2)
    assert complete[("all", "rel_size")] == 35 and plain[("all", "rel_size")] == 30


def test_precision_at_each_result_boundary():
    # P[1] = 1 is reached at R = 2/3 only through the second result's bucket: a worse second
    # result at the same recall does not lower iP
    s = scores("1 Q0 b 1 1 t 0 20\n1 Q0 c 2 1 t 0 50\n")
    assert s[("1", "iP[0.66]")] == 1.0 and s[("1", "iP[0.67]")] == 0.0


def test_topic_in_two_blocks_counts_articles_again():
    run = "1 Q0 b 1 1 t 0 20\n2 Q0 d 1 1 t 0 5\n1 Q0 b 2 1 t 0 20\n"
    table, _ = read_fol_run(io.StringIO(run), name="r")
    ranked = rank_passages(table, parse_inex_qrels(QRELS))
    _, impossible = interpolated_precision(ranked)
    s = scores(run)
    assert s[("1", "num_ret")] == 2 and s[("1", "rel_ret_size")] == 40
    assert impossible.tolist() == [1, 0]  # recall 40/30: inex_eval's impossible point


def test_unknown_passage_and_unjudged_topic():
    s = scores("1 Q0 b 1 1 t X X\n9 Q0 b 1 1 t 0 20\n1 Q0 b 1 1 t 0 20\n")
    assert s[("1", "ret_size")] == 18 + 20 and s[("1", "rel_ret_size")] == 20
    assert ("9", "num_ret") not in s
