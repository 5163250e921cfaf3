"""Focused measures on hand-worked rankings (seed 001 eq. 1-2, seed 002 iP[x]/AiP)."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels
from builder.measures.inex.focused.precision import (
    average_interpolated_precision,
    average_precision,
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


def _brute_force(sizes: list[tuple[int, int]], trel: int) -> tuple[list[Fraction], Fraction]:
    """iP[i/100] and AP of a ranking of (size, rsize) results, from the definitions in exact
    fractions (Kamps et al. 2008, eq. 1-3): iP[x] = max P[r] over R[r] >= x, 0 when none."""
    ret = rel = 0
    points, precisions_at_hits = [], []
    for size, rsize in sizes:
        ret, rel = ret + size, rel + rsize
        precision = Fraction(rel, ret)
        points.append((Fraction(rel, trel), precision))
        if rsize > 0:
            precisions_at_hits.append(precision)
    curve = [max((p for r, p in points if r >= Fraction(i, 100)), default=Fraction(0))
             for i in range(101)]
    ap = (sum(precisions_at_hits, Fraction(0)) / len(precisions_at_hits) * Fraction(rel, trel)
          if precisions_at_hits else Fraction(0))
    return curve, ap


def _ranked_case(results: list[tuple[int, int]], trel: int):
    """A topic whose qrels article ``h`` has ``trel`` highlighted characters at [0, trel), and a
    run of non-overlapping results: result i of (size, rsize) covers rsize highlighted
    characters of ``h`` and size - rsize of the non-relevant article ``n``."""
    qrels = f"1 Q0 h {trel} {trel + 1000} 0 0:{trel}\n1 Q0 n 0 100000\n"
    lines, h_at, n_at = [], 0, 0
    for rank, (size, rsize) in enumerate(results, 1):
        if rsize:
            lines.append(f"1 Q0 h {rank} 1 t {h_at} {rsize}\n")
            h_at += rsize
        if size > rsize:
            lines.append(f"1 Q0 n {rank} 1 t {n_at} {size - rsize}\n")
            n_at += size - rsize
    return "".join(lines), qrels


def random_rankings(seed: int, count: int, results: int, min_trel: int = 1):
    """``count`` random cases of ``_ranked_case``: (ranked passages, the lines' (size, rsize)
    in rank order (a result holding both kinds of text is two lines), Trel)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        trel = int(rng.integers(min_trel, 120))
        rsizes = rng.multinomial(int(rng.integers(0, trel + 1)), np.ones(results) / results)
        cases = [(int(r) + int(rng.integers(0 if r else 1, 30)), int(r)) for r in rsizes]
        run, qrels = _ranked_case(cases, trel)
        lines = [(int(line.split()[-1]), int(line.split()[-1]) if " h " in line else 0)
                 for line in run.splitlines()]
        table, _ = read_fol_run(io.StringIO(run), name="r")
        yield rank_passages(table, parse_inex_qrels(qrels)), lines, trel


def test_ip_recall_definition_and_ap_equal_brute_force_on_random_rankings():
    for ranked, lines, trel in random_rankings(7, 40, 4):
        curve_exact, ap = _brute_force(lines, trel)
        curve, _ = interpolated_precision(ranked, "definition")
        assert curve[0].tolist() == [float(v) for v in curve_exact]
        assert average_precision(ranked)[0] == pytest.approx(float(ap), rel=1e-12)


def test_ip_recall_at_an_exact_boundary_inex_eval_buckets_against_the_definition():
    # Trel = 100; r=1 retrieves 29 highlighted characters alone: P = 1, R = 29/100, and
    # 100 * (29/100) is 28.999999999999996 in doubles, inex_eval's bucket 28
    run, qrels = _ranked_case([(29, 29), (40, 0), (41, 41)], 100)
    table, _ = read_fol_run(io.StringIO(run), name="r")
    ranked = rank_passages(table, parse_inex_qrels(qrels))
    inex_eval, _ = interpolated_precision(ranked)
    definition, _ = interpolated_precision(ranked, "definition")
    assert definition[0][29] == 1.0 and inex_eval[0][28] == 1.0
    assert inex_eval[0][29] == 70 / 110  # the next point with R >= 0.29: r=3
    assert np.flatnonzero(inex_eval[0] != definition[0]).tolist() == [29]


def test_average_precision_eq_3_and_its_mean():
    s = scores()
    # P at the ranks with highlighted text: 1 (r=1), 3/11 (r=3); final recall 30/30
    assert s[("1", "AP")] == pytest.approx((1 + 3 / 11) / 2, rel=1e-15)
    assert s[("all", "MAP")] == s[("1", "AP")]
    # half the relevant text never retrieved: AP scaled by R[|R|] = 20/30
    half = scores("1 Q0 b 1 1 t 0 20\n")
    assert half[("1", "AP")] == pytest.approx(2 / 3, rel=1e-15)
