"""The relevance of each run line found piece by piece is the one found at once, whatever the
cut, and is the qrels' value of the line's (topic, docno) pair."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from builder.measures.adhoc.judged import relevance as adhoc_relevance
from builder.measures.adhoc.judged.relevance import NOT_IN_POOL, UNJUDGED, relevance_by_row


def _campaign(seed: int, stretched: bool = True):
    """Run lines of 30 topics (in stretches, one topic coming back later, or shuffled) and
    qrels judging some of their docnos and others, a docno shared by several topics, some
    judged negative; topics without qrels and qrels topics without lines."""
    rng = np.random.default_rng(seed)
    run_topic = np.repeat(rng.permutation(30), rng.integers(1, 120, 30))
    run_topic = np.r_[run_topic, run_topic[len(run_topic) // 2]]
    if not stretched:
        run_topic = rng.permutation(run_topic)
    run_docs = [f"d{v}" for v in rng.integers(0, 400, len(run_topic))]
    pairs = {(int(t), f"d{v}") for t, v in zip(rng.integers(3, 34, 3000),
                                               rng.integers(0, 500, 3000))}
    qrels_topic = np.array([t for t, _ in pairs], dtype=np.int32)
    qrels_docs = [d for _, d in pairs]
    qrels_rel = rng.integers(-1, 4, len(pairs))
    return run_topic.astype(np.int32), run_docs, qrels_topic, qrels_docs, qrels_rel


def _expected(run_topic, run_docs, qrels_topic, qrels_docs, qrels_rel) -> np.ndarray:
    judged = {(int(t), d): UNJUDGED if r < 0 else int(r)
              for t, d, r in zip(qrels_topic, qrels_docs, qrels_rel)}
    return np.array([judged.get((int(t), d), NOT_IN_POOL) for t, d in zip(run_topic, run_docs)])


def _chunked(values: list[str], cut: int) -> pa.ChunkedArray:
    return pa.chunked_array([pa.array(values[:cut], pa.large_string()),
                             pa.array(values[cut:], pa.large_string())])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("piece_rows", [1, 37, 500, 1 << 16])
@pytest.mark.parametrize("stretched", [True, False])
def test_pieces_give_the_qrels_values(monkeypatch, seed, piece_rows, stretched):
    run_topic, run_docs, qrels_topic, qrels_docs, qrels_rel = _campaign(seed, stretched)
    monkeypatch.setattr(adhoc_relevance, "PIECE_ROWS", piece_rows)
    at_once = []
    whole = adhoc_relevance._relevance_at_once
    monkeypatch.setattr(adhoc_relevance, "_relevance_at_once",
                        lambda *args: at_once.append(1) or whole(*args))
    got = relevance_by_row(run_topic, _chunked(run_docs, len(run_docs) // 3), qrels_topic,
                           _chunked(qrels_docs, 100), qrels_rel)
    expected = _expected(run_topic, run_docs, qrels_topic, qrels_docs, qrels_rel)
    assert got.dtype == np.int8
    assert np.array_equal(got, expected)
    assert (expected == NOT_IN_POOL).any() and (expected == UNJUDGED).any()
    assert (expected > 0).any()
    assert bool(at_once) == (not stretched or piece_rows >= len(run_topic))


def test_a_run_in_stretches_is_matched_in_pieces(monkeypatch):
    """The pieces are taken (not the whole table) for lines in stretches of their topics."""
    run_topic, _, qrels_topic, _, _ = _campaign(5)
    monkeypatch.setattr(adhoc_relevance, "PIECE_ROWS", 100)
    pieces = adhoc_relevance._pieces(run_topic, np.bincount(qrels_topic, minlength=40),
                                     len(qrels_topic))
    assert pieces is not None and len(pieces) > 3
    assert [end for _, end, _ in pieces][-1] == len(run_topic)
    for start, end, topics in pieces:
        assert set(topics.tolist()) == set(run_topic[start:end].tolist())


def test_no_qrels_and_no_lines():
    empty = pa.chunked_array([], pa.large_string())
    docs = pa.chunked_array([pa.array(["a", "b"], pa.large_string())])
    none = np.zeros(0, np.int32)
    got = relevance_by_row(np.array([0, 1], np.int32), docs, none, empty, np.zeros(0, int))
    assert got.tolist() == [NOT_IN_POOL, NOT_IN_POOL]
    assert len(relevance_by_row(none, empty, np.array([0]), docs.slice(0, 1), np.ones(1))) == 0
