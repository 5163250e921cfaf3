"""A qrels file read in many byte ranges, and repeats looked for in many pieces, give the table
and the findings one range and one piece give: same rows, same lines, same messages in line
order."""

from __future__ import annotations

import pandas as pd
import pytest

from builder.formats.text import reader as trec_text
from builder.formats.trec import repeated_pairs
from builder.formats.trec.qrels import QrelsError, read_trec_qrels
from builder.formats.trec.run import read_trec_run
from builder.validate.trec_run import validate_trec_run


def _qrels_lines(repeats: bool) -> list[str]:
    """Topics written one after another, a topic back at the end; docnos judged twice within a
    topic when ``repeats`` (and across topics, which is allowed); a comment, a blank line."""
    lines = []
    for i in range(6000):
        topic = 1 + i // 700
        lines.append(f"{topic} 0 doc{i % 900} {i % 3}")
        if repeats and i % 1201 == 5:
            lines.append(f"{topic} 0 doc{i % 900} 1")
        if i % 2500 == 0:
            lines += ["# a comment", ""]
    lines += [f"3 0 doc{n} 1" for n in (2000, 2100, 2200)]
    if repeats:
        lines.append("3 0 doc600 2")  # judged on an earlier line of topic 3
    return lines


def _read_both(path, monkeypatch, read):
    """What ``read(path)`` gives (or raises) in one range and one piece, then in many."""

    def outcome():
        try:
            return read(path), None
        except QrelsError as error:
            return None, [f.format() for f in error.findings]

    one = outcome()
    monkeypatch.setattr(trec_text, "BLOCK_BYTES", 1 << 12)
    monkeypatch.setattr(trec_text, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(repeated_pairs, "PIECE_ROWS", 64)
    many = outcome()
    monkeypatch.undo()
    return one, many


@pytest.mark.parametrize("repeats", [False, True])
def test_qrels_in_ranges_and_pieces(tmp_path, monkeypatch, repeats):
    path = tmp_path / "qrels"
    path.write_text("\n".join(_qrels_lines(repeats)) + "\n")
    (one, one_errors), (many, many_errors) = _read_both(path, monkeypatch, read_trec_qrels)
    assert one_errors == many_errors
    if repeats:
        assert [e.split(": ", 1)[0] for e in one_errors] == [
            f"{path}:{line}" for line in _repeating_lines(path)]
        assert one_errors[-1].endswith("document doc600 judged twice for topic 3")
    else:
        assert len(one) == 6003
        pd.testing.assert_frame_equal(one, many)


def _repeating_lines(path, topic=0, doc=2) -> list[int]:
    """The lines repeating an earlier line's (topic, docno), found by pandas on the text."""
    rows = [(n, line.split()) for n, line in enumerate(path.read_text().splitlines(), 1)
            if line.strip() and not line.startswith("#")]
    table = pd.DataFrame({"line": [n for n, _ in rows], "topic": [f[topic] for _, f in rows],
                          "doc": [f[doc] for _, f in rows]})
    return table["line"][table.duplicated(["topic", "doc"])].tolist()


def test_run_validation_in_pieces(tmp_path, monkeypatch):
    lines = [f"{1 + i // 500} Q0 d{i % 450} {i % 500 + 1} {1000 - i} run" for i in range(5000)]
    lines.append("4 Q0 d7 1 1 run")  # topic 4's d7, many lines after it
    path = tmp_path / "run"
    path.write_text("\n".join(lines) + "\n")

    def findings(path):
        read = read_trec_run(path)
        return [f.format() for f in validate_trec_run(read.table, "run", {"1"}, depth=1000)]

    (one, _), (many, _) = _read_both(path, monkeypatch, findings)
    assert one == many
    repeated = [f for f in one if "appears twice" in f]
    assert [f.split(":")[1] for f in repeated] == [str(n) for n in _repeating_lines(path)]
    assert repeated[-1] == "run:5001: error: document d7 appears twice for topic 4"
