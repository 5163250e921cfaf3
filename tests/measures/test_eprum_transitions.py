"""EPRUM's navigation composed from user transitions (Piwowarski and Dupret, SIGIR 2006,
section 3.2, Fig. 2): the paper's values, a walk-by-walk reading on small chains, and the
navigation table's ``from:`` rows through ``appendix eprum``."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import numpy as np
import pytest

from builder.cli import main
from builder.formats.eprum.navigation import NavigationError, parse_navigation
from builder.measures.eprum.transitions import composed_navigation, composed_table

# Fig. 2: from rank k every user goes to x; from x, 50 % to y and 30 % to z; from y 80 % go on
# to z, from z 12 % go on to y
FIG_2 = np.array([[0, 0.5, 0.3], [0, 0, 0.8], [0, 0.12, 0]])


def test_figure_2_values():
    reach = composed_navigation(np.array([[1.0, 0, 0]]), FIG_2)
    assert reach[0] == pytest.approx([1, 0.536, 0.7], abs=1e-15)


def _walks(first: np.ndarray, moves: np.ndarray, target: int, depth: int = 2000) -> float:
    """P(a walk from the rank reaches ``target``), summing the probability of every path that
    first reaches it (value iteration over ``depth`` steps: no matrix inverse)."""
    not_yet = first.copy()  # probability of being at u without having met the target
    reached = not_yet[target]
    not_yet[target] = 0.0
    for _ in range(depth):
        not_yet = not_yet @ moves
        reached += not_yet[target]
        not_yet[target] = 0.0
    return reached


def test_composition_equals_the_walks_on_random_small_chains():
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(1, 5))
        moves = rng.random((n, n)) * (rng.random((n, n)) < 0.6)
        np.fill_diagonal(moves, 0.0)
        moves *= rng.uniform(0.2, 0.95) / np.maximum(moves.sum(axis=1, keepdims=True), 1e-12)
        first = rng.random((3, n))
        first /= first.sum(axis=1, keepdims=True) / rng.uniform(0.3, 1.0)
        reach = composed_navigation(first, moves)
        for k in range(3):
            for x in range(n):
                assert reach[k, x] == pytest.approx(_walks(first[k], moves, x), abs=1e-12)


FIG_2_TABLE = """topic rank element probability
1 1 x 1
1 from:x y 0.5
1 from:x z 0.3
1 from:y z 0.8
1 from:z y 0.12
1 idealism x 0
"""


def test_a_table_with_transitions_is_composed():
    table = parse_navigation(FIG_2_TABLE)
    composed = composed_table(table.navigation, table.transitions)
    reach = dict(zip(composed["element"], composed["probability"]))
    assert reach == pytest.approx({"x": 1.0, "y": 0.536, "z": 0.7}, abs=1e-15)
    assert dict(zip(table.elements["element"], table.elements["idealism"])) == {
        "x": 0.0, "y": 1.0, "z": 1.0}


def test_transitions_leaving_an_element_above_one_are_refused_with_their_line():
    with pytest.raises(NavigationError) as error:
        parse_navigation(FIG_2_TABLE + "1 from:x k 0.3\n")
    assert [(f.line, f.code.value) for f in error.value.findings] == [(8, "value")]


def test_appendix_eprum_reads_the_transitions(tmp_path):
    path = tmp_path / "fig2.tsv"
    path.write_text(FIG_2_TABLE)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eprum", str(path), "--format", "tsv"]) == 0
    values = {m: float(v) for t, m, v in (line.split("\t") for line in out.getvalue().splitlines())
              if t == "1"}
    # y and z are the ideal elements, both reachable from the one rank: P(F_1 >= 1) =
    # 1 - (1 - 0.536)(1 - 0.7), reached at rank 1 or never; the ideal list reaches one per rank
    assert values["P[r=1]"] == pytest.approx(1 - 0.464 * 0.3, abs=1e-15)
    assert values["P[r=2]"] == pytest.approx(2 * 0.536 * 0.7, abs=1e-15)
