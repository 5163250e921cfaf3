"""``appendix correlate`` against scipy on the means ``appendix evaluate`` prints, and tau_ap
against a brute-force reading of Yilmaz, Aslam and Robertson's definition (SIGIR 2008)."""

from __future__ import annotations

import io
import itertools
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, pearsonr, spearmanr

from builder.cli import main
from builder.stats.agreement import coefficients

INEX = Path(__file__).resolve().parents[2] / "data" / "inex"
MEASURES = ["MAiP", "MAP", "iP[0.01]"]


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def brute_tau_ap(reference: np.ndarray, estimated: np.ndarray) -> float:
    """tau_ap = 2/(n-1) sum_{i=2..n} C(i)/(i-1) - 1: walk down the estimated ranking; C(i) is
    how many of the i-1 systems above the i-th the reference also puts above it (no ties)."""
    order = sorted(range(len(estimated)), key=lambda s: -estimated[s])
    n = len(order)
    total = 0.0
    for i in range(1, n):
        above = sum(reference[order[j]] > reference[order[i]] for j in range(i))
        total += above / i
    return 2 / (n - 1) * total - 1


def test_tau_ap_equals_the_definition_on_every_ordering_of_five_systems():
    reference = np.array([0.5, 0.4, 0.3, 0.2, 0.1])
    for permutation in itertools.permutations(range(5)):
        estimated = np.array(permutation, dtype=float)
        assert coefficients(reference, estimated)[1] == pytest.approx(
            brute_tau_ap(reference, estimated), abs=1e-12)


def test_correlate_equals_scipy_on_the_means_evaluate_prints():
    runs = [str(p) for p in sorted((INEX / "focused").iterdir()) if "Fusion" not in p.name]
    flags = [f for m in MEASURES for f in ("-m", m)]
    status, out = cli("correlate", str(INEX / "qrels.txt"), *runs, "--task", "focused", *flags,
                      "--format", "csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out))
    _, evaluated = cli("evaluate", str(INEX / "qrels.txt"), *runs, "--task", "focused",
                       *flags, "--format", "tsv")
    rows = pd.DataFrame([line.split("\t") for line in evaluated.splitlines()],
                        columns=["run", "measure", "topic", "value"])
    means = rows[rows["topic"] == "all"].pivot(index="run", columns="measure", values="value")
    means = means.astype(float)
    systems = table[table["level"] == "systems"].set_index(["measure_a", "measure_b"])
    assert len(systems) == 3 and set(systems["n"]) == {len(runs)}
    for a, b in itertools.combinations(MEASURES, 2):
        x, y = means[a].to_numpy(), means[b].to_numpy()
        row = systems.loc[(a, b)]
        assert row["kendall_tau"] == pytest.approx(kendalltau(x, y)[0], abs=1e-15)
        assert row["pearson"] == pytest.approx(pearsonr(x, y)[0], abs=1e-15)
        assert row["spearman"] == pytest.approx(spearmanr(x, y)[0], abs=1e-15)
        if len(set(x)) == len(x) and len(set(y)) == len(y):
            assert row["tau_ap"] == pytest.approx(brute_tau_ap(x, y), abs=1e-12)
    topics = table[table["level"] == "topics"]
    assert (topics["n"] > len(runs)).all()


def test_correlate_needs_two_measures(capsys):
    runs = [str(p) for p in sorted((INEX / "focused").iterdir()) if "Fusion" not in p.name]
    assert cli("correlate", str(INEX / "qrels.txt"), *runs, "--task", "focused",
               "-m", "MAiP")[0] == 2
    assert "two measures" in capsys.readouterr().err


def test_correlate_takes_measures_as_evaluate_does_and_scores_only_those():
    """trec_eval's requests and ir_measures' spelling name the same measures: the same
    coefficients, each row under the name given; a measure of another relevance level
    (``P(rel=2)@5``, an evaluation of its own) is compared too."""
    adhoc = INEX.parent / "adhoc"
    runs = [str(p) for p in sorted((adhoc / "runs").iterdir())
            if p.stem not in ("irisBroken", "kestrelDup")]  # rejected: exit status 1
    qrels = str(adhoc / "qrels.txt")
    _, trec = cli("correlate", qrels, *runs, "-m", "map", "-m", "P.10", "-m", "ndcg_cut.10",
                  "--format", "csv")
    _, named = cli("correlate", qrels, *runs, "-m", "AP", "-m", "P@10", "-m", "nDCG@10",
                   "--format", "csv")
    assert len(trec.splitlines()) == len(named.splitlines()) == 7  # 3 pairs x 2 levels
    trec, named = pd.read_csv(io.StringIO(trec)), pd.read_csv(io.StringIO(named))
    assert list(named["measure_a"].unique()) == ["AP", "P@10"]
    assert list(trec["measure_a"].unique()) == ["map", "P_10"]
    numbers = ["n", "kendall_tau", "tau_ap", "pearson", "spearman"]
    pd.testing.assert_frame_equal(trec[numbers], named[numbers])
    status, out = cli("correlate", qrels, *runs, "-m", "P@5", "-m", "P(rel=2)@5",
                      "--format", "csv")
    assert status == 0 and list(pd.read_csv(io.StringIO(out))["measure_b"]) == [
        "P(rel=2)@5", "P(rel=2)@5"]


def test_a_mean_and_its_own_per_topic_measure_are_compared_on_the_topics():
    """MAiP is compared on the topics through AiP: asked together, both keep their per-topic
    values (the topics level of the pair is AiP against itself, so every coefficient is 1)."""
    runs = [str(p) for p in sorted((INEX / "focused").iterdir()) if "Fusion" not in p.name]
    status, out = cli("correlate", str(INEX / "qrels.txt"), *runs, "--task", "focused",
                      "-m", "MAiP", "-m", "AiP", "-m", "iP[0.01]", "--format", "csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out)).set_index(["measure_a", "measure_b", "level"])
    topics = table.xs("topics", level="level")
    assert (topics["n"] > len(runs)).all()
    pair = topics.loc[("MAiP", "AiP")]
    assert pair["pearson"] == pytest.approx(1.0) and pair["kendall_tau"] == pytest.approx(1.0)
    assert topics.loc[("MAiP", "iP[0.01]"), "pearson"] == pytest.approx(
        topics.loc[("AiP", "iP[0.01]"), "pearson"])
