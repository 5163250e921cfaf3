from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from builder.config.significance import SignificanceSettings
from builder.stats.significance.tables import (
    SIGNIFICANCE_COLUMNS,
    format_significance,
    resolution_warning,
    significance_report,
)


def campaign_scores(n_runs: int = 6, n_topics: int = 25, seed: int = 0) -> pd.DataFrame:
    """A long score table: run r0 best, r5 worst, on map and P_10, with summary rows."""
    rng = np.random.default_rng(seed)
    ease = rng.beta(2, 3, size=n_topics)
    rows = []
    for measure, spread in (("map", 0.3), ("P_10", 0.02)):
        for r in range(n_runs):
            values = np.clip(ease + spread * (1 - r / n_runs) + rng.normal(0, 0.05, n_topics), 0, 1)
            rows += [(f"r{r}", str(t + 1), measure, round(v, 4)) for t, v in enumerate(values)]
            rows.append((f"r{r}", "all", measure, round(values.mean(), 4)))
    return pd.DataFrame(rows, columns=["run", "topic", "measure", "value"])


@pytest.fixture(scope="module")
def report():
    settings = SignificanceSettings(test="randomization", correction="holm", resamples=2_000)
    return significance_report(campaign_scores(), ["map", "P_10"], settings)


def test_table_has_one_row_per_pair_and_measure(report) -> None:
    table = report.table
    assert list(table.columns) == SIGNIFICANCE_COLUMNS
    assert len(table) == 2 * 15
    assert set(table["measure"]) == {"map", "P_10"}
    assert (table["mean_diff"] >= 0).all()  # run_a is the higher one
    assert (table["p_adjusted"] >= table["p_value"]).all()
    assert (
        (table["ci_low"] <= table["mean_diff"]) & (table["mean_diff"] <= table["ci_high"])
    ).all()
    pair = table[(table["run_a"] == "r0") & (table["run_b"] == "r5") & (table["measure"] == "map")]
    assert pair["significant"].item() and pair["p_value"].item() < 0.001


def test_same_seed_same_table_and_other_seed_other_p_values() -> None:
    scores = campaign_scores()
    settings = SignificanceSettings(resamples=500, seed=3)
    first = significance_report(scores, ["P_10"], settings).table
    again = significance_report(scores, ["P_10"], settings).table
    pd.testing.assert_frame_equal(first, again)
    other = significance_report(scores, ["P_10"], SignificanceSettings(resamples=500, seed=4))
    assert not np.array_equal(first["p_value"], other.table["p_value"])


def test_p_matrix_is_symmetric_in_leaderboard_order(report) -> None:
    square = report.p_matrix("map")
    assert list(square.index) == list(report.matrices["map"].runs) == list(square.columns)
    np.testing.assert_array_equal(square.to_numpy(), square.to_numpy().T)
    assert np.isnan(np.diag(square.to_numpy())).all()
    assert (
        square.loc["r0", "r3"]
        == report.pairs("map").set_index(["run_a", "run_b"]).loc[("r0", "r3"), "p_adjusted"]
    )


def test_top_group(report) -> None:
    pairs = report.pairs("map")
    top = report.matrices["map"].runs[0]
    group = report.top_group("map")
    assert group[0] == top
    for run in report.matrices["map"].runs[1:]:
        significant = pairs.loc[(pairs["run_a"] == top) & (pairs["run_b"] == run), "significant"]
        assert (run in group) == (not significant.item())


def test_discriminative_power(report) -> None:
    power = report.discriminative_power().set_index("measure")
    assert list(power.index) == ["map", "P_10"]
    for measure in ("map", "P_10"):
        pairs = report.pairs(measure)
        assert power.loc[measure, "pairs"] == 15
        assert power.loc[measure, "power"] == pytest.approx(pairs["significant"].mean())
    assert power.loc["map", "power"] > power.loc["P_10", "power"]  # map's runs are further apart


@pytest.mark.parametrize("test", ["bootstrap", "t-test", "wilcoxon", "sign", "tukey-hsd"])
def test_every_test_runs_and_tukey_needs_no_correction(test: str) -> None:
    settings = SignificanceSettings(test=test, resamples=500)
    table = significance_report(campaign_scores(), ["map"], settings).table
    assert (table["test"] == test).all() and table["p_value"].between(0, 1).all()
    if test == "tukey-hsd":
        np.testing.assert_array_equal(table["p_adjusted"], table["p_value"])


def test_csv_round_trip(report) -> None:
    back = pd.read_csv(io.StringIO(format_significance(report.table)))
    assert list(back.columns) == SIGNIFICANCE_COLUMNS
    np.testing.assert_allclose(back["p_adjusted"], report.table["p_adjusted"], rtol=1e-5)
    tsv = pd.read_csv(io.StringIO(format_significance(report.table, sep="\t")), sep="\t")
    assert len(tsv) == len(back)


def test_resolution_warning() -> None:
    many = 143 * 142 // 2
    settings = SignificanceSettings(resamples=10_000)
    assert "raise B to at least 203,060" in resolution_warning(settings, many, 30)
    assert resolution_warning(settings, 15, 30) is None
    assert resolution_warning(SignificanceSettings(correction="bh"), many, 30) is None
    assert resolution_warning(SignificanceSettings(test="t-test"), many, 30) is None
    # exact enumeration of 2^4 sign vectors: the smallest p is 2/16 whatever B
    assert "use --correction bh" in resolution_warning(settings, 1, 4)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown test"):
        SignificanceSettings(test="anova")
    with pytest.raises(ValueError, match="alpha"):
        SignificanceSettings(alpha=5)
