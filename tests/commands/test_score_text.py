"""Score values printed by whole columns read as Python's repr of each float, at every magnitude."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from builder.pipeline.layouts.text import float_texts, joined_lines


def test_float_texts_equal_repr_at_every_magnitude():
    rng = np.random.default_rng(3)
    values = np.concatenate([
        rng.random(20_000), rng.random(2_000) * 1e-3, rng.random(2_000) * 1e-9,
        rng.random(2_000) * 1e12, -rng.random(1_000), np.arange(2_000, dtype=np.float64),
        10.0 ** np.arange(-8, 20), [0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1e-4, 1e9],
        rng.integers(0, 10**9, 1_000) / 7.0,
    ])  # fmt: skip
    assert float_texts(values).to_pylist() == [repr(v) for v in values.tolist()]


def test_joined_lines():
    columns = [pa.array(["a", "b"]), pa.array(["x", "y"]), float_texts(np.array([0.5, 2.0]))]
    assert joined_lines(columns) == b"a\tx\t0.5\nb\ty\t2.0\n"
    assert joined_lines([pa.array([], pa.string())]) == b""


def test_joined_lines_of_chunked_columns():
    chunked = pa.chunked_array([["a"], ["b", "c"]])
    assert joined_lines([chunked, pa.array(["x", "y", "z"])]) == b"a\tx\nb\ty\nc\tz\n"
