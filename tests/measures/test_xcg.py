"""The xCG measures (Kazai and Lalmas, ACM TOIS 2006) on hand-worked passage rankings and
against their definitions, written out rank by rank in plain Python."""

from __future__ import annotations

import io
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels
from builder.measures.inex.focused.xcg import MANXCG_DEPTH, xcg_table
from builder.measures.inex.ranking import rank_passages
from tests.measures.test_focused import QRELS, RUN, random_rankings, scores


def test_hand_case():
    # two highlighted passages (n = 2); gains 20/20 = 1, 0/50, 10/40 = 0.25
    s = scores()
    assert s[("1", "nxCG[5]")] == 1.25 / 2 and s[("1", "nxCG[10]")] == 1.25 / 2
    assert s[("1", "MAnxCG")] == pytest.approx(
        (1 / 1 + 1 / 2 + 1.25 / 2 + 1.25 * (MANXCG_DEPTH - 3) / 2) / MANXCG_DEPTH, rel=1e-14)
    # gains at rank 1 (xCG 1: the ideal needs 1 rank) and 3 (xCG 1.25: the ideal needs 2)
    assert s[("1", "MAep")] == pytest.approx((1 / 1 + 2 / 3) / 2, rel=1e-15)
    assert s[("all", "MAep")] == s[("1", "MAep")]


def test_a_passage_cut_in_pieces_gains_more_than_the_ideal():
    # b's highlighted [0, 20) returned as four fully specific pieces: gains 1, 1, 1, 1
    run = "".join(f"1 Q0 b {r} 1 t {5 * (r - 1)} 5\n" for r in range(1, 5))
    s = scores(run)
    assert s[("1", "nxCG[5]")] == 4 / 2  # xCG 4 against the ideal's 2
    # ranks 1..4 gain; the ideal reaches xCG 1 at rank 1, 2 and more at its last rank 2
    assert s[("1", "MAep")] == pytest.approx((1 / 1 + 2 / 2 + 2 / 3 + 2 / 4) / 2, rel=1e-15)


def _definitions(gains: list[float], n: int) -> dict[str, float]:
    """nxCG[k], MAnxCG and MAep rank by rank, as the module docstring states them."""
    xcg = list(np.cumsum(gains))
    def at(i: int) -> float:  # xCG[i], constant after the list
        return xcg[min(i, len(xcg)) - 1]
    out = {f"nxCG[{k}]": at(k) / min(k, n) for k in (5, 10, 25, 50)}
    out["MAnxCG"] = sum(at(i) / min(i, n) for i in range(1, MANXCG_DEPTH + 1)) / MANXCG_DEPTH
    efforts = []
    for i, g in enumerate(gains, start=1):
        if g > 0:
            ideal = next((j for j in range(1, n + 1) if min(j, n) >= xcg[i - 1] - 1e-12), n)
            efforts.append(ideal / i)
    out["MAep"] = sum(efforts) / n
    return out


def test_equal_to_the_definitions_on_random_rankings():
    for ranked, lines, _ in random_rankings(11, 25, 5, min_trel=5):
        values = xcg_table(ranked, ranked.total_passages)
        expected = _definitions([rsize / size for size, rsize in lines], 1)
        for name, value in expected.items():
            assert values[name][0] == pytest.approx(value, rel=1e-12, abs=1e-15), name
            assert math.isfinite(values[name][0])


def test_the_hand_case_table_directly():
    table, _ = read_fol_run(io.StringIO(RUN), name="r")
    ranked = rank_passages(table, parse_inex_qrels(QRELS))
    assert ranked.total_passages.tolist() == [2, 1]
    assert xcg_table(ranked, ranked.total_passages)["nxCG[5]"].tolist() == [0.625]


# Three highlighted passages (the ideal recall-base, n = 3): a's [0, 20) and [50, 60), b's
# [0, 20); c has none. Five non-overlapping results, each with its gain worked out by hand
# from its characters (highlighted / size).
RECALL_BASE = "Q0 a 30 100 0 0:20 50:10\n{t} Q0 b 20 50 0 0:20\n{t} Q0 c 0 80\n"
RESULTS = {"A1": ("a", 0, 20, Fraction(1)), "A2": ("a", 40, 30, Fraction(10, 30)),
           "B1": ("b", 0, 10, Fraction(1)), "B2": ("b", 10, 20, Fraction(10, 20)),
           "C1": ("c", 0, 40, Fraction(0))}


def _by_definition(gains: list[Fraction], ideal: list[Fraction]) -> dict[str, float]:
    """The xCG measures as Kazai and Lalmas define them, with nothing folded into closed
    forms: both gain vectors padded with zeros to INEX's 1500 ranks, cumulated; nxCG[k] the
    ratio of the two at k; ep at each rank that gains the ratio of the minimum ranks at which
    the ideal and the run reach its cumulated gain (the ideal's last rank if it never does)."""
    depth = MANXCG_DEPTH
    xg = gains + [Fraction(0)] * (depth - len(gains))
    xi = sorted(ideal, reverse=True) + [Fraction(0)] * (depth - len(ideal))
    xcg = list(itertools.accumulate(xg))
    xci = list(itertools.accumulate(xi))
    out = {f"nxCG[{k}]": float(xcg[k - 1] / xci[k - 1]) for k in (5, 10, 25, 50)}
    out["MAnxCG"] = float(sum(x / i for x, i in zip(xcg, xci)) / depth)
    efforts = Fraction(0)
    for rank, gain in enumerate(xg, start=1):
        if gain > 0:
            reached = xcg[rank - 1]
            i_run = next(j for j, x in enumerate(xcg, 1) if x >= reached)
            i_ideal = next((j for j, x in enumerate(xci, 1) if x >= reached), len(ideal))
            efforts += Fraction(i_ideal, i_run)
    out["MAep"] = float(efforts / len(ideal))
    return out


def test_every_ranking_of_up_to_four_results_equals_the_definitions():
    # 205 rankings (every ordered choice of 1 to 4 of the 5 results), one topic each.
    rankings = [order for size in range(1, 5) for order in itertools.permutations(RESULTS, size)]
    topics = [f"t{i:03d}" for i in range(len(rankings))]
    qrels = "".join(f"{t} " + RECALL_BASE.format(t=t) for t in topics)
    run = "".join(f"{t} Q0 {RESULTS[name][0]} {rank} 1 r {RESULTS[name][1]} {RESULTS[name][2]}\n"
                  for t, order in zip(topics, rankings) for rank, name in enumerate(order, 1))
    table, _ = read_fol_run(io.StringIO(run), name="r")
    ranked = rank_passages(table, parse_inex_qrels(qrels))
    assert ranked.total_passages.tolist() == [3] * len(topics)
    values = xcg_table(ranked, ranked.total_passages)
    assert ranked.groups["topic"].tolist() == topics
    for group, order in enumerate(rankings):
        expected = _by_definition([RESULTS[name][3] for name in order], [Fraction(1)] * 3)
        for name, value in expected.items():
            assert values[name][group] == pytest.approx(value, rel=1e-12), (order, name)


def test_the_ideal_ranking_scores_1_on_every_measure():
    # Returning exactly the recall-base's passages is the optimal ranking the measures compare
    # with: xCG = xCI at every rank, and the run reaches each gain at the ideal's rank.
    run = "1 Q0 a 1 3 r 0 20\n1 Q0 b 2 2 r 0 20\n1 Q0 a 3 1 r 50 10\n"
    table, _ = read_fol_run(io.StringIO(run), name="r")
    ranked = rank_passages(table, parse_inex_qrels("1 " + RECALL_BASE.format(t="1")))
    values = xcg_table(ranked, ranked.total_passages)
    assert {name: values[name].tolist() for name in values} == {
        name: [1.0] for name in ("nxCG[5]", "nxCG[10]", "nxCG[25]", "nxCG[50]", "MAnxCG", "MAep")}
