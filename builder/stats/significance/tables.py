"""All-pairs significance tables: one row per pair of runs and measure, with correction and effects.

The table (``SIGNIFICANCE_COLUMNS``) is what ``appendix compare`` prints and what the build writes
to each task's downloads as ``significance.csv``; ``SignificanceReport`` adds the views the site
shows: the matrix of adjusted p-values, the runs indistinguishable from the top run and the
discriminative power of each measure (each run's better / worse / indistinguishable lists are
the site's, ``builder.site.pages.significance``, read from the pairs).

Pairs are ``(run_a, run_b)`` with ``run_a`` at least as high as ``run_b`` on the measure's
leaderboard, so ``mean_diff = mean(a) - mean(b)`` is not negative when higher is better. The
family of a multiple-comparison correction is all the pairs of one measure.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from builder.config.significance import CORRECTION_LABELS, SignificanceSettings
from builder.stats.significance.bootstrap import bootstrap_test
from builder.stats.significance.corrections import adjust
from builder.stats.significance.effect import mean_difference_ci, standardized_difference
from builder.stats.significance.paired import TestResult, sign_test, t_test, wilcoxon_test
from builder.stats.significance.randomization import exact_enumeration, randomization_test
from builder.stats.significance.score_matrix import ScoreMatrix, pair_differences, score_matrix
from builder.stats.significance.tukey import tukey_hsd_test

SIGNIFICANCE_COLUMNS = [
    "run_a", "run_b", "measure", "test", "mean_diff", "ci_low", "ci_high", "effect",
    "statistic", "p_value", "p_adjusted", "significant",
]  # fmt: skip

# Independent random streams, so the confidence intervals do not change with the chosen test.
_TEST_STREAM, _CI_STREAM = 0, 1


def resolution_warning(settings: SignificanceSettings, n_pairs: int, n_topics: int) -> str | None:
    """Why no pair can be significant, if so: a resampled p-value is at least 1 / (B + 1) (2 / 2^n
    when enumerated exactly), and Holm and Bonferroni multiply the smallest one by the m pairs."""
    if settings.applied_correction not in {"holm", "bonferroni"}:
        return None
    if settings.test == "randomization" and exact_enumeration(n_topics, settings.resamples):
        smallest = 2.0 / 2**n_topics
    elif settings.test in {"randomization", "bootstrap"}:
        smallest = 1.0 / (settings.resamples + 1)
    else:
        return None
    if n_pairs * smallest <= settings.alpha:
        return None
    label = CORRECTION_LABELS[settings.applied_correction]
    advice = "use --correction bh or --test tukey-hsd"
    if not exact_enumeration(n_topics, settings.resamples):
        advice = f"raise B to at least {math.ceil(n_pairs / settings.alpha):,}, or " + advice
    return (
        f"{settings.test} test with B = {settings.resamples:,} over {n_topics} topics: its smallest "
        f"p-value is {smallest:.3g}, so after {label} over {n_pairs:,} pairs no pair can be "
        f"significant at alpha = {settings.alpha:g}; {advice}"
    )


def _pair_test(settings: SignificanceSettings) -> Callable[[np.ndarray], TestResult]:
    rng = np.random.default_rng([settings.seed, _TEST_STREAM])
    return {
        "randomization": lambda d: randomization_test(d, settings.resamples, rng),
        "bootstrap": lambda d: bootstrap_test(d, settings.resamples, rng),
        "t-test": t_test,
        "wilcoxon": wilcoxon_test,
        "sign": sign_test,
    }[settings.test]


def compare_runs(matrix: ScoreMatrix, settings: SignificanceSettings) -> pd.DataFrame:
    """The significance table of every pair of runs of one measure (``SIGNIFICANCE_COLUMNS``)."""
    i, j, d = pair_differences(matrix)

    def test() -> TestResult:
        if settings.test == "tukey-hsd":
            rng = np.random.default_rng([settings.seed, _TEST_STREAM])
            return tukey_hsd_test(matrix.values, i, j, settings.resamples, rng)
        return _pair_test(settings)(d)

    # The test and the intervals draw from their own random streams, so they run side by side
    # (numpy does the work outside the GIL) with the results they give one after the other.
    ci_rng = np.random.default_rng([settings.seed, _CI_STREAM])
    with ThreadPoolExecutor(2) as pool:
        tested = pool.submit(test)
        ci_low, ci_high = mean_difference_ci(d, settings.resamples, ci_rng, settings.ci_level)
        result = tested.result()
    p_adjusted = adjust(result.p_value, settings.applied_correction)
    runs = np.asarray(matrix.runs, dtype=object)
    return pd.DataFrame(
        {
            "run_a": runs[i],
            "run_b": runs[j],
            "measure": matrix.measure,
            "test": settings.test,
            "mean_diff": d.mean(axis=1) if d.shape[1] else 0.0,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "effect": standardized_difference(d),
            "statistic": result.statistic,
            "p_value": result.p_value,
            "p_adjusted": p_adjusted,
            "significant": p_adjusted <= settings.alpha,
        },
        columns=SIGNIFICANCE_COLUMNS,
    )


@dataclass
class SignificanceReport:
    """The significance tables of one task, and the views of them the site shows.

    matrices: the aligned score matrix of each measure, runs best first.
    table: ``SIGNIFICANCE_COLUMNS``, all measures, in the order of ``matrices``.
    """

    settings: SignificanceSettings
    matrices: dict[str, ScoreMatrix]
    table: pd.DataFrame = field(repr=False)

    def warnings(self) -> list[str]:
        """Per measure, why no pair can be significant under these settings, if so."""
        found = []
        for measure, matrix in self.matrices.items():
            n_runs = len(matrix.runs)
            text = resolution_warning(self.settings, n_runs * (n_runs - 1) // 2, len(matrix.topics))
            if text:
                found.append(f"{measure}: {text}")
        return found

    def pairs(self, measure: str) -> pd.DataFrame:
        return self.table[self.table["measure"] == measure]

    def p_matrix(self, measure: str) -> pd.DataFrame:
        """Square matrix of adjusted p-values, runs best first (NaN on the diagonal)."""
        runs = list(self.matrices[measure].runs)
        pairs = self.pairs(measure)
        position = pd.Index(runs)
        a = position.get_indexer(pairs["run_a"])
        b = position.get_indexer(pairs["run_b"])
        known = (a >= 0) & (b >= 0)
        # Each pair's p-value at (run_a, run_b), then its mirror where that cell is empty: what
        # pandas' combine_first of the pivot and its transpose gave, at a hundredth of the cost.
        upper = np.full((len(runs), len(runs)), np.nan)
        upper[a[known], b[known]] = pairs["p_adjusted"].to_numpy(dtype=float)[known]
        square = np.where(np.isnan(upper), upper.T, upper)
        return pd.DataFrame(square, index=runs, columns=runs)

    def top_group(self, measure: str) -> list[str]:
        """The top run and the runs not significantly different from it, best first."""
        runs = self.matrices[measure].runs
        if not runs:
            return []
        pairs = self.pairs(measure)
        beaten = set(pairs.loc[(pairs["run_a"] == runs[0]) & pairs["significant"], "run_b"])
        return [run for run in runs if run not in beaten]

    def discriminative_power(self) -> pd.DataFrame:
        """Per measure: pairs, significant pairs and their fraction, the discriminative power
        (Sakai, SIGIR 2006, section 4), the basis for choosing an official measure."""
        grouped = self.table.groupby("measure", sort=False)["significant"]
        power = pd.DataFrame({"pairs": grouped.size(), "significant": grouped.sum()})
        power["power"] = power["significant"] / power["pairs"].where(power["pairs"] > 0)
        power = power.reindex(list(self.matrices)).fillna({"pairs": 0, "significant": 0})
        return power.astype({"pairs": int, "significant": int}).rename_axis("measure").reset_index()


def significance_report(
    scores: pd.DataFrame,
    measures: Sequence[str],
    settings: SignificanceSettings | None = None,
    *,
    runs: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    higher_is_better: Callable[[str], bool] | None = None,
) -> SignificanceReport:
    """Test every pair of runs on each measure of a long score table (run, topic, measure, value).

    runs / topics: the task's runs and topics (missing values score 0); by default those of the
    table. higher_is_better(measure) orders the runs (default: higher is better).
    """
    settings = settings or SignificanceSettings()
    matrices = {
        m: score_matrix(
            scores, m, runs=runs, topics=topics,
            higher_is_better=higher_is_better(m) if higher_is_better else True,
        )
        for m in dict.fromkeys(measures)
    }  # fmt: skip
    tables = [compare_runs(matrix, settings) for matrix in matrices.values()]
    table = (
        pd.concat(tables, ignore_index=True)
        if tables
        else pd.DataFrame(columns=SIGNIFICANCE_COLUMNS)
    )
    return SignificanceReport(settings, matrices, table)


def format_significance(table: pd.DataFrame, sep: str = ",") -> str:
    """The table as CSV (or TSV) text: floats with 6 significant digits, byte-identical per input.

    The text of pandas' ``to_csv(float_format="%.6g")``, written by the csv module from
    columns formatted at once, in a third of the time (a site's 10,153 pairs: 0.16 s in
    pandas); tables with missing names or other column types go through pandas."""
    columns = [_csv_column(table[name]) for name in table.columns]
    if any(column is None for column in columns):
        return table.to_csv(sep=sep, index=False, float_format="%.6g", lineterminator="\n")
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    writer.writerow([str(name) for name in table.columns])
    writer.writerows(zip(*columns))
    return out.getvalue()


def _csv_column(column: pd.Series) -> list[str] | None:
    """The column's cells as ``to_csv(float_format="%.6g")`` writes them (None: not handled)."""
    kind = column.dtype.kind
    if kind == "f":
        return ["" if math.isnan(v) else "%.6g" % v for v in column.tolist()]  # noqa: UP031
    if kind == "b":
        return [str(v) for v in column.tolist()]
    if (kind == "O" or pd.api.types.is_string_dtype(column.dtype)) and not column.isna().any():
        values = column.tolist()
        return values if all(type(v) is str for v in values) else None
    return None
