"""Two builds of one site compared file by file (the batched and distributed paths against the
one-shot one)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.site.site_checks import file_hashes

ROUNDING = 1e-12
"""Relative difference allowed in a full-precision score download. The ERR family and the INEX
kernels sum running terms over all the rankings evaluated together (a cumulative sum, then
differences), so a value's last bits depend on which runs share its batch; every other file,
and every value shown on a page, is byte-identical."""


def compare_sites(one: Path, other: Path) -> list[str]:
    """The files of ``other`` that differ from ``one`` beyond the last-bit rounding of full
    precision score CSVs (names of missing, extra or different files)."""
    first, second = file_hashes(one), file_hashes(other)
    problems = sorted(set(first) ^ set(second))
    for name in sorted(set(first) & set(second)):
        if first[name] != second[name] and not _same_numbers(one / name, other / name):
            problems.append(name)
    return problems


def _same_numbers(a: Path, b: Path) -> bool:
    if a.suffix == ".json":
        return _same_json(json.loads(a.read_text(encoding="utf-8")),
                          json.loads(b.read_text(encoding="utf-8")))
    if a.suffix != ".csv":
        return False
    rows_a = list(csv.reader(io.StringIO(a.read_text(encoding="utf-8"))))
    rows_b = list(csv.reader(io.StringIO(b.read_text(encoding="utf-8"))))
    if len(rows_a) != len(rows_b):
        return False
    for row_a, row_b in zip(rows_a, rows_b):
        if len(row_a) != len(row_b):
            return False
        for x, y in zip(row_a, row_b):
            if x != y and not _close(x, y):
                return False
    return True


def _close(x: str, y: str) -> bool:
    try:
        u, v = float(x), float(y)
    except ValueError:
        return False
    return abs(u - v) <= ROUNDING * max(abs(u), abs(v))


def _same_json(x, y) -> bool:
    if isinstance(x, dict) and isinstance(y, dict):
        return list(x) == list(y) and all(_same_json(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_same_json(u, v) for u, v in zip(x, y))
    number = (int, float)
    if isinstance(x, number) and isinstance(y, number) and not isinstance(x, bool):
        return x == y or abs(x - y) <= ROUNDING * max(abs(x), abs(y))
    return x == y
