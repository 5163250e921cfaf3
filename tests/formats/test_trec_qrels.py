"""Reading TREC qrels: any iteration token, comments, negative relevance, fatal problems."""

from __future__ import annotations

import pytest

from builder.formats.trec.qrels import QrelsError, read_trec_qrels


def test_iteration_token_is_ignored_and_relevance_read_like_atol(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("1 0.5  d1 2\n1 Q0 d2 -1\n2\t0\td#3\t1.0\n")
    qrels = read_trec_qrels(path)
    assert qrels.to_dict("list") == {
        "topic": ["1", "1", "2"],
        "doc": ["d1", "d2", "d#3"],
        "rel": [2, -1, 1],
    }


def test_comment_lines_are_skipped(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("# comment\n301 0 A 1\n# and comment here\n301 0 CR#93 0\n")
    assert read_trec_qrels(path)["doc"].tolist() == ["A", "CR#93"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 0 a 1\n1 0 b\n", "qrels:2: error: 3 fields, expected 4"),
        ("1 0 a 1\n1 0 b 1 x\n", "qrels:2: error: 5 fields, expected 4"),
        ("1 0 a yes\n", "qrels:1: error: relevance is not an integer"),
        ("1 0 a 1\n1 0 a 0\n", "qrels:2: error: document a judged twice for topic 1"),
    ],
)
def test_malformed_qrels_raise_with_file_and_line(tmp_path, text, message):
    path = tmp_path / "qrels"
    path.write_text(text)
    with pytest.raises(QrelsError) as caught:
        read_trec_qrels(path)
    assert str(caught.value) == message.replace("qrels:", f"{path}:", 1)


def test_relevance_read_like_atol_with_a_sign(tmp_path):
    """``+2`` is 2 for C's atol (found by the reader fuzzing: Arrow's parser refused it)."""
    path = tmp_path / "q.txt"
    path.write_text("1 0 a +2\n1 0 b -1\n1 0 c 2.0x\n")
    assert read_trec_qrels(path)["rel"].tolist() == [2, -1, 2]
