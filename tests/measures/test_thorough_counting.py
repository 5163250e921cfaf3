"""inex_eval 3.1 -t counts the text of a relevant article once, however many results retrieve
it; the issue's repro and the cases found by the differential test, with the program's values
(``tests/oracle/test_differential_inex_eval.py`` checks random campaigns against it)."""

from __future__ import annotations

import pytest

from tests.oracle.inex_eval_program import ours

QRELS = "1 Q0 10 1000 2000 0 0:1000\n1 Q0 11 0 500\n"


def summary(tmp_path, run_text: str, **options) -> dict[str, float]:
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "r.txt").write_text(run_text)
    scores, _ = ours("thorough", tmp_path / "q.txt", tmp_path / "r.txt", **options)
    rows = scores[scores["topic"].astype(str) == "all"]
    return dict(zip(rows["measure"], rows["value"]))


def test_overlapping_passages_count_their_text_once(tmp_path):
    values = summary(tmp_path, "1 Q0 10 1 1 r 0 300\n1 Q0 10 2 2 r 150 300\n")
    assert values["ret_size"] == 450 and values["rel_ret_size"] == 450
    assert values["char_rec"] == pytest.approx(0.45)
    assert values["MAiP"] == pytest.approx(0.45544554455445546, abs=1e-12)
    each = summary(tmp_path, "1 Q0 10 1 1 r 0 300\n1 Q0 10 2 2 r 150 300\n", overlap="each")
    assert each["ret_size"] == 600 and each["MAiP"] == pytest.approx(61 / 101)


@pytest.mark.parametrize(("run", "size"), [
    ("1 Q0 10 1 9 r 100 100\n1 Q0 10 2 8 r 0 300\n", 300),  # a later result holds an earlier one
    ("1 Q0 10 1 9 r 0 100\n1 Q0 10 2 8 r 200 100\n1 Q0 10 3 7 r 0 300\n", 300),
    ("1 Q0 10 1 9 r -1 0\n", 0),  # unknown offset in a relevant article: 0 (18 under -f)
    ("1 Q0 11 1 9 r -1 0\n", 18),  # in an article without highlighted text: 18
    ("1 Q0 11 1 9 r 0 300\n1 Q0 11 2 8 r 150 300\n", 600),  # not relevant: every result in full
    ("1 Q0 99 1 9 r 0 300\n1 Q0 99 2 8 r 150 300\n", 600),  # not in the qrels: in full
])
def test_what_inex_eval_adds_up(tmp_path, run, size):
    assert summary(tmp_path, run)["ret_size"] == size
