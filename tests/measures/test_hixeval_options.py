"""HiXEval's readings as options (Pehcevski and Thom, INEX 2005, section 3): Trel across
elements or documents, and a partly seen element's rval by the paper's sum or by the union of
the text seen, on hand-worked cases with the values outside [0, 1] the paper's letter gives."""

from __future__ import annotations

import io

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import parse_inex_qrels, read_inex_qrels
from builder.measures.inex.ranking import highlight_index, rank_passages
from builder.measures.inex.thorough.hixeval import seen_before
from builder.measures.inex.thorough.scores import hixeval_inputs, thorough_score_table


def _elements(run: str, qrels_text: str):
    qrels = parse_inex_qrels(qrels_text)
    table, _ = read_fol_run(io.StringIO(run), name="r")
    table["path"] = "/article[1]"  # element results (their ranges are what counts here)
    ranked = rank_passages(table, qrels)
    return qrels, ranked


def test_partly_seen_paper_sum_goes_negative_union_does_not():
    # highlighted [15, 20): a paragraph [10, 20), its section [5, 30), their article [0, 40),
    # ranked paragraph, section, article: all hold the same 5 highlighted characters
    qrels, ranked = _elements("1 Q0 100 1 3 r 10 10\n1 Q0 100 2 2 r 5 25\n1 Q0 100 3 1 r 0 40\n",
                              "1 Q0 100 5 100 15 15:5\n")
    _, seen = seen_before(ranked, highlight_index(qrels))
    rsize = ranked.lines["rsize"]
    assert list(rsize) == [5, 5, 5]
    paper, _ = hixeval_inputs(ranked, qrels, 1.0, None, seen, partly_seen="paper")
    union, _ = hixeval_inputs(ranked, qrels, 1.0, None, seen, partly_seen="union")
    # the article is partly seen: the paper takes off both earlier descendants, 5 + 5
    assert list(rsize - paper) == [5, 0, -5]
    assert list(rsize - union) == [5, 0, 0]


ARTICLE = ("<article><section><p>" + "a" * 40 + "</p><p>" + "b" * 10 + "<b>" + "c" * 10
           + "</b>" + "d" * 40 + "</p></section></article>")


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hixeval-trel")
    (folder / "corpus").mkdir()
    (folder / "corpus" / "100.xml").write_text(ARTICLE)
    (folder / "qrels.txt").write_text("1 Q0 100 40 100 30 30:40\n")
    return folder


def test_trel_across_elements_or_documents_for_a_passage_run(campaign):
    qrels = read_inex_qrels(campaign / "qrels.txt")
    # the highlighted passage retrieved twice: at alpha = 0 both count in full
    run, _ = read_fol_run(io.StringIO("1 Q0 100 1 2 r 30 40\n1 Q0 100 2 1 r 30 40\n"), name="r")
    ranked = rank_passages(run, qrels)

    def recall(trel: str) -> float:
        table = thorough_score_table(ranked, qrels, False, 0.0, campaign / "corpus",
                                     hixeval_trel=trel)
        return table.set_index(["topic", "measure"]).loc[("1", "R@5"), "value"]

    # Trel across documents: 40 highlighted characters, retrieved twice: recall 2
    assert recall("documents") == 80 / 40
    # the paper's Trel at alpha < 1: every element's highlighted characters, article 40,
    # section 40, p1 10, p2 30, b 10
    assert recall("paper") == pytest.approx(80 / 130, rel=1e-15)
    assert np.isfinite(recall("paper"))
