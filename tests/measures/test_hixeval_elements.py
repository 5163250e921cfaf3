"""HiXEval on the element tree, worked by hand on one small article (Pehcevski and Thom,
section 3): an article [0,100) holding a section [0,100) of p1 [0,40) and p2 [40,100), p2
holding b [50,60); the assessor highlighted [30,70). rsize: article 40, section 40, p1 10,
p2 30, b 10. The run: p2 (not seen), b (fully seen: p2 above it), section (partly seen:
p2 and b above it, 40 taken off), p1 (fully seen: the section above it)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from builder.formats.inex.fol_run import read_fol_run
from builder.formats.inex.qrels import read_inex_qrels
from builder.formats.xml.corpus_index import open_index
from builder.measures.inex.ranking import highlight_index, rank_passages
from builder.measures.inex.thorough import hixeval
from builder.measures.inex.thorough.hixeval_elements import (
    derive_element_assessments,
    element_seen_rsize,
    trel_across_elements,
)

QRELS = "1 Q0 100 40 100 30 30:40\n"
RUN = ("1 Q0 100 1 4 r 40 60\n"   # p2
       "1 Q0 100 2 3 r 50 10\n"   # b
       "1 Q0 100 3 2 r 0 100\n"   # section
       "1 Q0 100 4 1 r 0 40\n")   # p1
ARTICLE = ("<article><section><p>" + "a" * 40 + "</p><p>" + "b" * 10 + "<b>" + "c" * 10
           + "</b>" + "d" * 40 + "</p></section></article>")
SIZES = np.array([60, 10, 100, 40])


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hix")
    (folder / "q.txt").write_text(QRELS)
    qrels = read_inex_qrels(folder / "q.txt")
    run, _ = read_fol_run(io.StringIO(RUN), name="r")
    return qrels, rank_passages(run, qrels)


def test_not_fully_and_partly_seen(ranked):
    _, ranking = ranked
    assert list(ranking.lines["rsize"]) == [30, 10, 40, 10]
    assert list(element_seen_rsize(ranking)) == [0, 10, 40, 10]


@pytest.fixture(scope="module")
def assessments(ranked, tmp_path_factory):
    """Element relevance derived from the highlighted passage over the article's tree."""
    folder = tmp_path_factory.mktemp("tree")
    (folder / "corpus").mkdir()
    (folder / "corpus" / "100.xml").write_text(ARTICLE)
    index = open_index(folder / "corpus", cache_dir=folder / "cache", workers=1, progress=None)
    return derive_element_assessments(ranked[0], index)


def test_derived_element_relevance(assessments):
    table = assessments.set_index("path")
    assert table["size"].to_dict() == {
        "/article[1]": 100, "/article[1]/section[1]": 100, "/article[1]/section[1]/p[1]": 40,
        "/article[1]/section[1]/p[2]": 60, "/article[1]/section[1]/p[2]/b[1]": 10}
    assert list(table["rsize"]) == [40, 40, 10, 30, 10]


@pytest.mark.parametrize(("alpha", "rvals"), [(1.0, [30, 0, 0, 0]), (0.5, [30, 5, 20, 5]),
                                              (0.0, [30, 10, 40, 10])])
def test_precision_and_recall_for_alpha(ranked, assessments, alpha, rvals):
    _, ranking = ranked
    trel = None
    expected_trel = 40  # alpha = 1: highlighted characters across documents
    if alpha < 1:
        per_topic = trel_across_elements(assessments, ranking.topics)
        expected_trel = 40 + 40 + 10 + 30 + 10  # every element's highlighted characters
        assert list(per_topic) == [expected_trel]
        trel = per_topic[ranking.lines["topic_code"]]
    table = hixeval.hixeval_table(ranking, element_seen_rsize(ranking), alpha,
                                  cutoffs=(1, 2, 3, 4), trel=trel)
    gains = np.array(rvals) / SIZES
    for r in (1, 2, 3, 4):
        assert table[f"P@{r}"].iloc[0] == pytest.approx(gains[:r].sum() / r)
        assert table[f"R@{r}"].iloc[0] == pytest.approx(sum(rvals[:r]) / expected_trel)


def test_passage_approximation_differs_where_descendants_nest(ranked):
    # The union of the text seen before takes p2's highlight off the section once (30),
    # the paper's sum takes b's again (30 + 10).
    qrels, ranking = ranked
    assert list(hixeval.seen_rsize(ranking, highlight_index(qrels))) == [0, 10, 30, 10]
