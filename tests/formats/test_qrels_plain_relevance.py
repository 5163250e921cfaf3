"""Relevance values read by one cast when they are all plain integers, else by ``atol``'s
pattern: both ways give the values and findings ``atol`` gives."""

from __future__ import annotations

import pytest

from builder.formats.trec.qrels import QrelsError, read_trec_qrels


@pytest.mark.parametrize(("rel", "value"), [("2", 2), ("-1", -1), ("007", 7), ("-0", 0),
                                            ("0x1A", 0), ("0X1a", 0), ("+2", 2)])
def test_each_value_as_atol_reads_it(tmp_path, rel, value):
    """``0x1A`` is 0 for atol (Arrow's cast would read 26); a file of plain integers and
    the same file with one other value give the same plain values."""
    path = tmp_path / "qrels"
    path.write_text(f"1 0 a 1\n1 0 b {rel}\n1 0 c 2\n")
    assert read_trec_qrels(path)["rel"].tolist() == [1, value, 2]


def test_length_limit_counts_digits_in_both_ways(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("1 0 a 1\n1 0 b 000000000000000001\n1 0 c -000000000000000001\n")
    assert read_trec_qrels(path)["rel"].tolist() == [1, 1, -1]  # 18 digits: read
    path.write_text("1 0 a 1\n1 0 b 0000000000000000001\n")
    with pytest.raises(QrelsError, match="relevance has more than 18 digits"):
        read_trec_qrels(path)
