"""EPRUM's ideal list per recall and the minimum expected search length (Piwowarski and
Dupret, SIGIR 2006, sections 2 and 5) against a brute force over every order of the ideal
list's ranks and every outcome of the users' navigation, on tables of up to 4 elements and 5
ranks; the paper's example; the stated bound above the exact limit; the greedy order
against its statement; the ideal list of disjoint and of nested highlighted passages."""

from __future__ import annotations

import io
import itertools
from contextlib import redirect_stdout

import numpy as np
import pandas as pd
import pytest

from builder.cli import main
from builder.formats.inex.qrels import InexQrels, parse_inex_qrels
from builder.measures.eprum.ideal_lists import greedy_order, minimum_search_length, search_lengths
from builder.measures.eprum.passages import eprum_of_passages


def brute_search_length(rows: np.ndarray, r: int) -> float:
    """E[ML_r] of one list by enumerating which (rank, element) navigations happen: ML_r is
    the first rank after which r distinct elements were seen, N (the list's length) when never
    (eq. 4's convention)."""
    n, t = rows.shape
    cells = [(k, x) for k in range(n) for x in range(t) if 0 < rows[k, x] < 1]
    certain = rows >= 1
    expected = 0.0
    for outcome in itertools.product((False, True), repeat=len(cells)):
        happened = certain.copy()
        probability = 1.0
        for (k, x), hit in zip(cells, outcome):
            happened[k, x] = hit
            probability *= rows[k, x] if hit else 1 - rows[k, x]
        seen = np.cumsum(happened, axis=0) > 0
        counts = seen.sum(axis=1)
        reached = np.flatnonzero(counts >= r)
        expected += probability * (reached[0] + 1 if len(reached) else n)
    return expected


def random_table(rng: np.random.Generator, n: int, t: int) -> np.ndarray:
    values = rng.choice([0.0, 0.0, 1.0, 0.3, 0.5, 0.9], size=(n, t))
    values[rng.random((n, t)) < 0.3] = rng.random()  # some arbitrary probabilities
    if np.count_nonzero((values > 0) & (values < 1)) > 9:  # keep the brute force small
        values = np.where(values >= 0.5, 1.0, 0.0)
    return values


@pytest.mark.parametrize("n,t", [(n, t) for n in range(1, 6) for t in range(1, 5)])
def test_minimum_over_every_order_equals_the_brute_force(n, t):
    rng = np.random.default_rng(100 * n + t)
    for _ in range(3):
        rows = random_table(rng, n, t)
        lengths, orders, exact = minimum_search_length(rows, t)
        assert exact
        for r in range(1, t + 1):
            brute = min(brute_search_length(rows[list(order)], r)
                        for order in itertools.permutations(range(n)))
            assert lengths[r - 1] == pytest.approx(brute, abs=1e-12)
            assert brute_search_length(rows[orders[r - 1]], r) == pytest.approx(brute, abs=1e-12)


def test_the_paper_s_example_one_ideal_list_per_recall():
    # a^ reaches b and c with probability 0.9; b^ and c^ reach their element for certain
    rows = np.array([[0.9, 0.9], [1.0, 0.0], [0.0, 1.0]])
    lengths, orders, _ = minimum_search_length(rows, 2)
    assert lengths == pytest.approx([1.0, 1.29], abs=1e-15)
    assert orders[0][0] in (1, 2)  # r = 1: b^ or c^ first
    assert orders[1][0] == 0  # r = 2: a^ first


def test_appendix_eprum_gives_the_paper_s_ml_star(tmp_path):
    path = tmp_path / "nav.tsv"
    path.write_text("1 1 b 1\n1 2 c 1\n1 ideal:1 b 0.9\n1 ideal:1 c 0.9\n1 ideal:2 b 1\n"
                    "1 ideal:3 c 1\n")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eprum", str(path), "--format", "tsv"]) == 0
    values = {m: float(v) for t, m, v in (line.split("\t") for line in out.getvalue().splitlines())
              if t == "1"}
    assert values["ML*[r=1]"] == 1.0 and values["ML*[r=2]"] == pytest.approx(1.29, abs=1e-15)


def test_above_the_exact_limit_the_minimum_is_an_upper_bound():
    rng = np.random.default_rng(3)
    rows = rng.choice([0.0, 0.4, 0.8, 1.0], size=(6, 3))
    exact, _, was_exact = minimum_search_length(rows, 3, exact_items=6)
    bound, _, bounded = minimum_search_length(rows, 3, exact_items=3)
    given = search_lengths(rows[None], 3)[0]
    assert was_exact and not bounded
    assert np.all(bound >= exact - 1e-12) and np.all(bound <= given + 1e-12)


def test_one_ideal_list_for_every_recall_gives_the_paper_s_1_01(tmp_path):
    path = tmp_path / "nav.tsv"
    path.write_text("1 1 b 1\n1 ideal:1 b 0.9\n1 ideal:1 c 0.9\n1 ideal:2 b 1\n1 ideal:3 c 1\n")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eprum", str(path), "--format", "tsv", "--ideal-lists", "one"]) == 0
    values = {m: float(v) for t, m, v in (line.split("\t") for line in out.getvalue().splitlines())
              if t == "1"}
    assert values["ML*[r=1]"] == pytest.approx(1.01, abs=1e-15)


def reference_greedy_order(items: np.ndarray) -> list[int]:
    """The greedy order as the module docstring states it, one rank at a time."""
    left, order, missed = list(range(len(items))), [], np.ones(items.shape[1])
    while left:
        best = max(left, key=lambda i: ((missed * items[i]).sum(), -i))
        order.append(best)
        left.remove(best)
        missed = missed * (1.0 - items[best])
    return order


@pytest.mark.parametrize("seed", range(20))
def test_the_greedy_order_takes_the_rank_that_adds_most_the_first_on_a_tie(seed):
    rng = np.random.default_rng(seed)
    n, t = rng.integers(1, 30, size=2)
    items = rng.choice([0.0, 0.25, 0.5, 1.0], size=(n, t), p=[0.6, 0.1, 0.1, 0.2])
    assert greedy_order(items).tolist() == reference_greedy_order(items)


def passage_campaign(passages: int, overlap: bool) -> tuple[InexQrels, pd.DataFrame]:
    """One topic of ``passages`` highlighted passages of 10 characters, one per article
    (``overlap``: the first article gets a second passage inside the first), and a run that
    returns the first half of them."""
    lines = [f"1 Q0 a{i} 10 100 0 20:10" + (" 22:4" if overlap and i == 0 else "")
             for i in range(passages)]
    qrels = parse_inex_qrels("\n".join(lines) + "\n")
    half = passages // 2
    run = pd.DataFrame({"run": "r", "topic": "1", "file": [f"a{i}" for i in range(half)],
                        "offset": 20, "length": 10, "order": np.arange(1, half + 1)})
    return qrels, run


@pytest.mark.parametrize("model", ["tree", "classical"])
def test_disjoint_ideal_passages_are_found_one_a_rank(model):
    """Highlighted passages that neither overlap nor contain each other: the ideal list finds
    one a rank for certain, E[ML*_r] = r (eq. 4), so a run returning the first half of them
    in the ideal order has precision 1 at each recall point it reaches and 0 beyond. 2,000
    passages: the ideal list's 2,000 x 2,000 navigation is never scored order by order."""
    qrels, run = passage_campaign(2000, overlap=False)
    rows = eprum_of_passages(qrels, run, model, 0.01).set_index("measure")["value"]
    assert rows["ML*[r=1]"] == 1.0 and rows["ML*[r=2000]"] == 2000.0
    assert rows["P[r=1000]"] == 1.0 and rows["P[r=1001]"] == 0.0


def test_a_contained_ideal_passage_makes_an_ideal_list_with_a_shorter_search():
    """One passage inside another (tree model): the outer one's pointer reaches the inner one
    with probability 4/10, so the ideal list may find two elements in one rank: E[ML*_2] < 2."""
    qrels, run = passage_campaign(6, overlap=True)
    rows = eprum_of_passages(qrels, run, "tree", 0.01).set_index("measure")["value"]
    assert rows["ML*[r=1]"] == 1.0 and rows["ML*[r=2]"] == pytest.approx(1.6)
