"""Validation of TREC run tables: which problems reject a run, which only warn."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from builder.formats.trec.run import read_trec_run
from builder.validate.trec_run import _repeats, validate_trec_run

QRELS_TOPICS = {"1", "2"}


def findings(tmp_path: Path, text: str, depth: int = 1000):
    path = tmp_path / "run"
    path.write_text(text)
    table = read_trec_run(path).table
    return [
        (f.line, f.severity, f.message)
        for f in validate_trec_run(table, "run", QRELS_TOPICS, depth=depth)
    ]


def test_clean_run_has_no_findings(tmp_path):
    assert findings(tmp_path, "1 Q0 a 1 2 t\n2 Q0 a 1 2 t\n") == []


def test_duplicate_docno_in_a_topic_is_an_error_on_the_repeating_line(tmp_path):
    found = findings(tmp_path, "1 Q0 a 1 2 t\n2 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n")
    assert found == [(4, "error", "document a appears twice for topic 1")]


def test_repeated_keys_are_found_by_table_and_by_sort():
    """Small key ranges are marked in a table, large ones sorted: both find a repeat."""
    for bound in (100, 1 << 40):
        assert _repeats(np.array([3, 7, 99, 7]), bound)
        assert not _repeats(np.array([3, 7, 99, 0]), bound)


def test_empty_run_is_an_error(tmp_path):
    assert findings(tmp_path, "") == [(None, "error", "empty run: no result lines")]


def test_warnings_for_tags_topics_and_depth(tmp_path):
    found = findings(tmp_path, "1 Q0 a 1 2 t\n1 Q0 b 2 1 u\n1 Q0 c 3 0 t\n9 Q0 a 1 1 t\n", depth=2)
    assert found == [
        (None, "warning", "2 run tags (t, u); expected one"),
        (None, "warning", "1 topics not in the qrels, ignored: 9"),
        (None, "warning", "1 qrels topics without results, scored 0: 2"),
        (
            None,
            "warning",
            "1 topics have more than 2 results (up to 3); only the 2 best-scored count: 1",
        ),
    ]
