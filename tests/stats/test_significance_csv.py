"""The significance table's CSV text against pandas' ``to_csv``, which it replaces for speed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from builder.stats.significance.tables import SIGNIFICANCE_COLUMNS, format_significance


def awkward_table(rows: int = 500, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)

    def floats() -> np.ndarray:
        scaled = rng.normal(0, 1, rows - 8) * 10.0 ** rng.integers(-9, 9, rows - 8)
        return np.concatenate([scaled, [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, 123456.5,
                                        999999.5]])

    names = ['a,"b"\tc' if i % 7 == 0 else f"run {i}\n" if i % 11 == 0 else f"r{i}"
             for i in range(rows)]
    table = pd.DataFrame({"run_a": names, "run_b": names[::-1], "measure": "map",
                          "test": "t-test"})
    for column in SIGNIFICANCE_COLUMNS[4:-1]:
        table[column] = floats()
    table["significant"] = rng.random(rows) < 0.5
    return table


@pytest.mark.parametrize("sep", [",", "\t"])
def test_csv_text_is_pandas_to_csv_byte_for_byte(sep) -> None:
    for table in (awkward_table(), awkward_table().astype({"run_a": "string"}),
                  awkward_table().iloc[:0]):
        expected = table.to_csv(sep=sep, index=False, float_format="%.6g", lineterminator="\n")
        assert format_significance(table, sep=sep) == expected


def test_missing_names_go_through_pandas() -> None:
    table = awkward_table(20)
    table.loc[3, "run_b"] = None
    expected = table.to_csv(index=False, float_format="%.6g", lineterminator="\n")
    assert format_significance(table) == expected
