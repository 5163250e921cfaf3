"""The xCG measures (Kazai and Lalmas, ACM TOIS 2006) on hand-worked passage rankings and
against their definitions, written out rank by rank in plain Python."""

from __future__ import annotations

import io
import math

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
