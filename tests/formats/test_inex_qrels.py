"""INEX passage qrels: two tables, unsorted passages, CRLF, non-relevant articles."""

from __future__ import annotations

import pytest

from builder.formats.inex.qrels import NO_BEP, QrelsError, parse_inex_qrels

QRELS = (
    "2 Q0 z 4 40 1 30:4 \r\n"
    "1 Q0 b 12 100 5 50:5 0:4 3:3  \r\n"
    "1 Q0 a 0 70\r\n"
)


def test_articles_and_passages():
    qrels = parse_inex_qrels(QRELS)
    assert qrels.articles.to_dict("list") == {
        "topic": ["1", "1", "2"],
        "file": ["a", "b", "z"],
        "rel_chars": [0, 12, 4],
        "doc_chars": [70, 100, 40],
        "bep": [NO_BEP, 5, 1],
    }
    assert qrels.passages.to_dict("list") == {
        "topic": ["1", "1", "1", "2"],
        "file": ["b", "b", "b", "z"],
        "offset": [0, 3, 50, 30],
        "length": [4, 3, 5, 4],
    }
    assert qrels.topics == ["1", "2"]


def test_overlapping_passages_are_kept_and_reported():
    qrels = parse_inex_qrels(QRELS)
    # [0,4) and [3,6) share a character: inex_eval counts it twice, so we keep both
    assert len(qrels.passages) == 4
    assert any("overlap" in f.message for f in qrels.findings)


def test_rel_chars_disagreeing_with_passages_is_a_warning():
    qrels = parse_inex_qrels("1 Q0 a 9 50 0 0:5\n")
    assert [f.severity for f in qrels.findings] == ["warning"]
    assert "rel_chars" in qrels.findings[0].message


def test_unreadable_lines():
    with pytest.raises(QrelsError, match="q:2: error: fewer than 5 fields"):
        parse_inex_qrels("1 Q0 a 5 50 0 0:5\n1 Q0 b 5\n", "q")
    with pytest.raises(QrelsError, match="q:1: error: passage length"):
        parse_inex_qrels("1 Q0 a 5 50 0 0:x\n", "q")
    with pytest.raises(QrelsError, match="q:2: error: article judged twice"):
        parse_inex_qrels("1 Q0 a 5 50 0 0:5\n1 Q0 a 0 50\n", "q")


def test_real_qrels(shared_data):
    from builder.formats.inex.qrels import read_inex_qrels

    qrels = read_inex_qrels(shared_data / "inex_ipcs" / "INEX_Qrels.txt")
    assert len(qrels.articles) == 10329
    assert len(qrels.topics) == 120
    assert (qrels.articles["rel_chars"] > 0).all()
