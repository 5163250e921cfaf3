"""A plain file is mapped into memory, not copied: the readers see the same bytes, counted the
same way; gzip and empty files are read as before."""

from __future__ import annotations

import gzip
import mmap

import pytest

from builder.formats.source import map_input, read_input
from builder.formats.text import fields as text_fields
from builder.formats.text.fields import count_of, single_delimiter
from builder.formats.trec.run import read_trec_run

TEXT = b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 t\r\n\r\n1 Q0 c 3 0 t\r\n"


def test_plain_mapped_gzip_and_empty_read(tmp_path):
    plain, packed, empty = tmp_path / "run", tmp_path / "run.gz", tmp_path / "empty"
    plain.write_bytes(TEXT)
    packed.write_bytes(gzip.compress(TEXT))
    empty.write_bytes(b"")
    assert isinstance(map_input(plain), mmap.mmap) and map_input(plain)[:] == TEXT
    assert map_input(packed) == TEXT == read_input(packed)
    assert map_input(empty) == b""
    mapped, read = read_trec_run(plain), read_trec_run(packed)
    assert mapped.table.astype({"topic": str, "tag": str}).equals(
        read.table.astype({"topic": str, "tag": str}))


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 1 << 24])
def test_counts_of_a_mapped_file_in_pieces(tmp_path, monkeypatch, piece):
    """Pieces of any size, a CRLF cut between two pieces included, count what bytes count."""
    path = tmp_path / "run"
    path.write_bytes(TEXT)
    monkeypatch.setattr(text_fields, "COUNT_BYTES", piece)
    data = map_input(path)
    for text in (b"\r\n", b"\n", b"\r", b" 1 ", b"x"):
        assert count_of(data, text) == TEXT.count(text)
    assert count_of(data, b"\n", 3, 30) == TEXT.count(b"\n", 3, 30)
    assert single_delimiter(data) == single_delimiter(TEXT) == " "
    path.write_bytes(TEXT.replace(b"\r\n", b"\r", 1))  # a lone carriage return
    assert single_delimiter(map_input(path)) is None
