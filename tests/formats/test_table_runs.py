"""Runs given as tables (``builder.formats.trec.frames``): an identifier the TREC text would
split in two is refused on its row, with Python's idea of white space, checked in Arrow."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from builder.findings import FindingCode, InputError
from builder.formats.trec.frames import PYTHON_WHITE_SPACE, write_run


def test_the_arrow_pattern_holds_exactly_pythons_white_space():
    characters = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    every = pa.array(characters, pa.string())
    arrow = set(pc.filter(every, pc.match_substring_regex(every, PYTHON_WHITE_SPACE)).to_pylist())
    assert arrow == set(re.findall(r"\s", "".join(characters)))
    assert len(arrow) == 29


@pytest.mark.parametrize("doc", ["d\xa0x", "d\u2028x", "d\x1cx", ""])
def test_a_document_holding_white_space_or_empty_is_refused_on_its_row(doc, tmp_path: Path):
    run = pd.DataFrame({"topic": ["1", "1", "2"], "doc": ["a", doc, "b"],
                        "score": [3.0, 2.0, 1.0]})
    with pytest.raises(InputError) as raised:
        write_run(run, "mine", tmp_path / "run.txt", "run 'mine' (table)")
    finding = raised.value.findings[0]
    assert (finding.line, finding.code) == (2, FindingCode.SYNTAX)
    assert finding.message == f"row 1: doc {doc!r} is empty or holds white space"
    assert not (tmp_path / "run.txt").exists()


def test_a_clean_table_is_written_as_trec_text(tmp_path: Path):
    run = pd.DataFrame({"query_id": [1, 1], "doc_id": ["é1", "d2"], "score": [2.5, 1]})
    write_run(run, "mine", tmp_path / "run.txt", "run 'mine' (table)")
    assert (tmp_path / "run.txt").read_text(encoding="utf-8").splitlines() == [
        "1 Q0 é1 0 2.5 mine", "1 Q0 d2 0 1 mine"]
