"""The square of adjusted p-values against the pandas construction it replaced."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from builder.config.significance import SignificanceSettings
from builder.stats.significance.tables import significance_report
from tests.stats.test_significance_report import campaign_scores


def pivoted(report, measure: str) -> pd.DataFrame:
    """The former ``p_matrix``: the pairs pivoted, filled from their transpose."""
    runs = list(report.matrices[measure].runs)
    pairs = report.pairs(measure)
    square = pd.DataFrame(np.nan, index=runs, columns=runs)
    upper = pairs.pivot(index="run_a", columns="run_b", values="p_adjusted")
    return square.combine_first(upper).combine_first(upper.T).reindex(index=runs, columns=runs)


def test_p_matrix_equals_the_pivot_filled_from_its_transpose_even_with_gaps() -> None:
    settings = SignificanceSettings(test="t-test", correction="bh")
    report = significance_report(campaign_scores(n_runs=7), ["map", "P_10"], settings)
    table = report.table.copy()
    table.loc[[1, 4, 20], "p_adjusted"] = np.nan  # a pair without a p-value stays empty
    report = replace(report, table=table.drop(index=[7]))  # and so does a missing pair
    for measure in ("map", "P_10"):
        pd.testing.assert_frame_equal(report.p_matrix(measure), pivoted(report, measure))
