"""Every published number against the number the inputs give again: each score table's CSV
(beside its page) and each download (CSV, JSON, LaTeX, Markdown), row by row.

A difference names the file, the row (its first cell, the run for most tables), the column,
the value the inputs give (expected) and the one published (found). Two values that are the
same number written differently (``0.5`` and ``0.50``) are equal: a number is checked, not
its spelling. The published inputs (``downloads/inputs/``) are inputs, checked by their
SHA-256, not numbers.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NUMBER_FILES = (".csv", ".json", ".tex", ".md")
SKIPPED = ("manifest.json",)


@dataclass(frozen=True)
class Difference:
    """A file, where in it, what was expected and what was found."""

    file: str
    where: str
    expected: str
    found: str

    def format(self) -> str:
        where = f" {self.where}" if self.where else ""
        return f"{self.file}{where}: expected {self.expected}, found {self.found}"


def number_files(site: Path) -> list[str]:
    """The site's files that hold published numbers, by path."""
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*")
                  if path.is_file() and path.suffix in NUMBER_FILES
                  and path.name not in SKIPPED and "/downloads/inputs/" not in
                  f"/{path.relative_to(site).as_posix()}")


def compare_numbers(published: Path, rebuilt: Path) -> list[Difference]:
    """Every difference between the published number files and the rebuilt ones."""
    differences = []
    names = number_files(rebuilt)
    for name in sorted(set(names) | set(number_files(published))):
        if name not in names:
            differences.append(Difference(name, "", "no such file", "a file"))
        elif not (published / name).is_file():
            differences.append(Difference(name, "", "a file", "no such file"))
        else:
            differences += compare_file(name, (rebuilt / name).read_bytes(),
                                        (published / name).read_bytes())
    return differences


def compare_file(name: str, expected: bytes, found: bytes) -> list[Difference]:
    if expected == found:
        return []
    text_expected = expected.decode("utf-8", "replace")
    text_found = found.decode("utf-8", "replace")
    if name.endswith(".csv"):
        return _rows(name, _csv(text_expected), _csv(text_found))
    if name.endswith(".json"):
        try:
            return _rows(name, _json_rows(json.loads(text_expected)),
                         _json_rows(json.loads(text_found)))
        except ValueError:
            pass
    return _rows(name, [[line] for line in text_expected.splitlines()],
                 [[line] for line in text_found.splitlines()], header=False)


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _json_rows(data: Any) -> list[list[str]]:
    """JSON records as rows (a header of their keys first); anything else as one cell."""
    if isinstance(data, list) and all(isinstance(record, dict) for record in data):
        keys = list(dict.fromkeys(key for record in data for key in record))
        return [keys, *([json.dumps(record.get(key)) for key in keys] for record in data)]
    return [[json.dumps(data, sort_keys=True)]]


def _rows(name: str, expected: list[list[str]], found: list[list[str]],
          header: bool = True) -> list[Difference]:
    columns = expected[0] if header and expected else []
    differences = []
    for index in range(max(len(expected), len(found))):
        want = expected[index] if index < len(expected) else None
        got = found[index] if index < len(found) else None
        label = f"row {index}" if header else f"line {index + 1}"
        if want is None or got is None:
            differences.append(Difference(name, label, _row_text(want), _row_text(got)))
            continue
        key = f" ({want[0]})" if header and index and want else ""
        for column in range(max(len(want), len(got))):
            a = want[column] if column < len(want) else ""
            b = got[column] if column < len(got) else ""
            if not _same(a, b):
                column_name = (f", column {columns[column]}" if index and column < len(columns)
                               else "")
                differences.append(Difference(name, f"{label}{key}{column_name}", a or '""',
                                              b or '""'))
    return differences


def _row_text(row: list[str] | None) -> str:
    return "no such row" if row is None else ",".join(row)


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False
