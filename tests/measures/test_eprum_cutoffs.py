"""EPRUM at a rank cut-off (Piwowarski and Dupret, SIGIR 2006, section 8: E[F_k] / k) against
a brute force over the users' navigation outcomes, trec_eval's P_k under the classical model,
and the values above 1 of the paper's factorisation, flagged."""

from __future__ import annotations

import io
import itertools
from contextlib import redirect_stdout

import numpy as np
import pytest

from builder.cli import main
from builder.measures.eprum.idealism import evaluate_topic
from builder.measures.eprum.precision_recall import precision_at_cutoffs


def brute_found(rows: np.ndarray, k: int) -> float:
    """E[number of distinct elements seen in the first k ranks], outcome by outcome."""
    rows = rows[:k]
    cells = [(i, x) for i in range(len(rows)) for x in range(rows.shape[1]) if rows[i, x] > 0]
    expected = 0.0
    for outcome in itertools.product((False, True), repeat=len(cells)):
        probability, seen = 1.0, set()
        for (i, x), hit in zip(cells, outcome):
            probability *= rows[i, x] if hit else 1 - rows[i, x]
            if hit:
                seen.add(x)
        expected += probability * len(seen)
    return expected


@pytest.mark.parametrize("n,t", [(n, t) for n in range(1, 6) for t in range(1, 5)])
def test_precision_at_cutoffs_equals_the_brute_force(n, t):
    rng = np.random.default_rng(10 * n + t)
    rows = rng.choice([0.0, 0.25, 0.5, 1.0], size=(n, t))
    if np.count_nonzero(rows) > 12:
        rows[rows < 1] = 0.0
    cutoffs = (1, 2, 3, 5, 7)
    values = precision_at_cutoffs(rows, cutoffs)
    for k, value in zip(cutoffs, values):
        assert value == pytest.approx(brute_found(rows, min(k, n)) / k, abs=1e-12)


def test_classical_model_gives_trec_eval_s_precision_at_k():
    # relevant at ranks 1, 3, 4 of 6 (one ideal element each), 2 relevant never retrieved
    rows = np.zeros((6, 5))
    rows[0, 0] = rows[2, 1] = rows[3, 2] = 1.0
    result = evaluate_topic(rows)
    assert dict(zip(result.cutoff_points, result.cutoffs)) == {5: 3 / 5, 10: 3 / 10,
                                                               20: 3 / 20, 50: 3 / 50}


def test_graded_idealism_averages_the_cutoffs_over_satisfaction_levels():
    rows = np.array([[1.0, 0.0], [0.0, 1.0]])
    result = evaluate_topic(rows, idealism=np.array([1.0, 0.5]))
    # s in (0.5, 1]: one ideal element (found at rank 1); s in (0, 0.5]: both
    assert result.cutoffs[0] == pytest.approx((0.5 * 1 / 5 + 0.5 * 2 / 5) / 1.0, abs=1e-15)


def test_values_above_one_are_flagged(tmp_path, capsys):
    # the paper's list (a^, b^, c^), a^ reaching b and c with probability 0.9, against itself
    path = tmp_path / "nav.tsv"
    rows = "1 1 b 0.9\n1 1 c 0.9\n1 2 b 1\n1 3 c 1\n"
    path.write_text(rows + rows.replace(" 1 b", " ideal:1 b").replace(" 1 c", " ideal:1 c")
                    .replace(" 2 b", " ideal:2 b").replace(" 3 c", " ideal:3 c"))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eprum", str(path), "--format", "tsv"]) == 0
    values = {m: float(v) for t, m, v in (line.split("\t") for line in out.getvalue().splitlines())
              if t == "1"}
    assert values["P[r=2]"] == pytest.approx(1.29 * (0.81 + 0.09 / 2 + 0.1 / 3), abs=1e-12)
    assert values["P[r=2]"] > 1.14
    err = capsys.readouterr().err
    assert f"{path}: warning: topic 1: P[r=2] = 1.1460 is above 1" in err
    assert "P[r=1]" not in err
