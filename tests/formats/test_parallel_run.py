"""One run file parsed on every core (Arrow's reader in blocks) gives the table one thread gives:
same rows, values, line numbers and findings, irregular lines and CRLF included."""

from __future__ import annotations

import pandas as pd
import pytest

from builder.formats.text import reader as trec_text
from builder.formats.trec.run import read_trec_run


def _both(path, monkeypatch):
    one = read_trec_run(path)
    # Blocks of 4 KB and every file parallel: many byte ranges, cut at line ends.
    monkeypatch.setattr(trec_text, "BLOCK_BYTES", 1 << 12)
    monkeypatch.setattr(trec_text, "PARALLEL_BYTES", 0)
    many = read_trec_run(path)
    monkeypatch.undo()
    return one, many


def _same(one, many) -> None:
    # The same frame: categories in the order first met, codes as narrow, the same dtypes
    # (a file in many blocks is converted column by column, one in a single block by Arrow).
    pd.testing.assert_frame_equal(one.table, many.table)
    assert [one.table[c].cat.codes.dtype for c in ("topic", "tag")] == \
        [many.table[c].cat.codes.dtype for c in ("topic", "tag")]
    assert [f.format() for f in one.findings] == [f.format() for f in many.findings]


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_generated_run_with_irregular_lines(tmp_path, monkeypatch, line_end):
    lines = []
    for i in range(6000):
        topic = 1 + i // 1000
        line = f"{topic} Q0 doc{i} {i % 1000 + 1} {100 - i * 0.01:.4f} tag{topic % 2}"
        if i % 997 == 0:
            line += " extra"  # an extra field, ignored as trec_eval does
        if i % 1499 == 0:
            line = line.rsplit(" ", 2)[0]  # too few fields: an error finding
        if i % 1777 == 0:
            line = line.replace(" 1", " nan", 1) if " 1" in line else line
        lines.append(line)
        if i % 2500 == 0:
            lines += ["", "# a comment"]
    path = tmp_path / "run.txt"
    path.write_bytes((line_end.join(lines) + line_end).encode())
    one, many = _both(path, monkeypatch)
    assert len(one.table) > 5900 and one.findings  # the irregular lines were met
    _same(one, many)


def test_robust03_runs(shared_data, monkeypatch):
    paths = sorted((shared_data / "robust03" / "runs").iterdir(), key=lambda p: p.stat().st_size)
    for path in paths[-2:] + paths[:1]:
        one, many = _both(path, monkeypatch)
        assert len(one.table) > 1_000
        _same(one, many)
