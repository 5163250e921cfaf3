"""C's atof and atol as glibc reads text (trec_eval's reading of scores and relevance)."""

from __future__ import annotations

import math

import pytest

from builder.formats.text.c_numbers import c_atof, c_atol


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.5abc", 1.5), (".", 0.0), ("0x1A", 26.0), ("0X1f.8", 31.5), ("-0x.8p1", -1.0),
        ("0x", 0.0), ("0xg", 0.0), ("0x1p", 1.0), ("1e", 1.0), ("2.5e+", 2.5), ("+.5x", 0.5),
        ("-", 0.0), ("abc", 0.0), ("", 0.0), ("12.0.1", 12.0), ("1e-3zz", 0.001),
        ("  7", 7.0), ("-.25", -0.25), ("1E2", 100.0),
    ],
)  # fmt: skip
def test_atof_reads_the_leading_number(text, expected):
    assert c_atof(text) == expected


@pytest.mark.parametrize("text", ["inf", "-INF", "Infinity", "infx", "1e999", "0x1p99999"])
def test_atof_reads_infinity(text):
    assert math.isinf(c_atof(text))


@pytest.mark.parametrize("text", ["nan", "NaN(12)", "-nanx", "nan("])
def test_atof_reads_nan(text):
    assert math.isnan(c_atof(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2.0", 2), ("+2", 2), ("-3x", -3), ("+-3", 0), ("0x1A", 0), ("abc", 0), ("1e3", 1)],
)
def test_atol_reads_the_leading_decimal_integer(text, expected):
    assert c_atol(text) == expected
