"""The qrels relevance of each retrieved document: the value the qrels give its (topic, docno)
pair, ``UNJUDGED`` for a negative one (in the pool, not judged), ``NOT_IN_POOL`` when the
qrels do not list the pair (trec_eval's ``form_res_rels.c``).

Docnos are matched by hashing. A run written a topic at a time (nearly all are) is matched a
*piece* of about ``PIECE_ROWS`` lines at a time against the qrels of the piece's topics only:
each piece's hash table (a few hundred KB) stays in the processor's cache, where one table of
every judged docno would not (a 10M-line run against 3M judgements: about 4 CPU s at once,
under one in pieces). Runs whose topics are scattered over their lines, or whose pieces
would gather more qrels lines than there are run lines, are matched at once against the
qrels' docno dictionary. Either way the values are the same.

The pieces are not those of the check for a docno given twice
(``builder.formats.trec.repeated_pairs.group_cuts``), which keeps each topic in one piece: here a
topic may be in many pieces (a group of runs lists each topic once per run, so a cut that
kept topics whole would find no place to cut), each bringing its own copy of the topic's
qrels lines, hence the bound on what the pieces gather.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from builder.formats.trec.repeated_pairs import PIECE_ROWS  # the size a hash table stays in cache
from builder.measures.adhoc.judged.docno_order import dictionary_codes

NOT_IN_POOL = -1
UNJUDGED = -2

DENSE_LOOKUP_LIMIT = 1 << 25
"""Largest topic x document grid judged through a dense table rather than a binary search."""


def relevance_by_row(run_topic: np.ndarray, run_docs: pa.ChunkedArray,
                     qrels_topic: np.ndarray, qrels_docs: pa.ChunkedArray,
                     qrels_rel: np.ndarray) -> np.ndarray:
    """Relevance of each run row (topic code ``run_topic``, docno ``run_docs``) from the qrels
    rows (``qrels_topic``, ``qrels_docs``, ``qrels_rel``), which hold no pair twice; topic
    codes are non-negative and shared by both."""
    judged_rel = np.where(qrels_rel < 0, UNJUDGED, qrels_rel).astype(_rel_type(qrels_rel))
    n_topics = int(max(run_topic.max(initial=-1), qrels_topic.max(initial=-1))) + 1
    by_topic = stable_order(qrels_topic)
    bounds = np.searchsorted(qrels_topic[by_topic], np.arange(n_topics + 1))
    pieces = _pieces(run_topic, np.diff(bounds), len(qrels_topic))
    if pieces is None:
        return _relevance_at_once(run_topic, run_docs, qrels_topic, qrels_docs, judged_rel)
    out = np.empty(len(run_topic), judged_rel.dtype)
    local = np.zeros(n_topics, np.int64)  # a topic's position among its piece's topics
    # Taking from chunks joins them: once here, not once per piece (one chunk: as it is).
    docs = qrels_docs.chunk(0) if qrels_docs.num_chunks == 1 else qrels_docs.combine_chunks()
    for start, end, topics in pieces:
        rows = by_topic[_ranges(bounds[topics], bounds[topics + 1])]
        local[topics] = np.arange(len(topics))
        out[start:end] = _relevance_in_piece(
            local[run_topic[start:end]], run_docs.slice(start, end - start),
            local[qrels_topic[rows]], docs.take(pa.array(rows)), judged_rel[rows],
            len(topics))
    return out


def stable_order(key: np.ndarray) -> np.ndarray:
    """Stable argsort of small non-negative integer keys (radix sort for 16-bit keys)."""
    if len(key) and key.max() < 2**16:
        key = key.astype(np.uint16)
    return np.argsort(key, kind="stable")


def _pieces(run_topic: np.ndarray, qrels_per_topic: np.ndarray, qrels_rows: int
            ) -> list[tuple[int, int, np.ndarray]] | None:
    """Row ranges ``start:end`` of about ``PIECE_ROWS`` lines cut where a topic's stretch of
    lines begins, each with its distinct topics; None when the topics are not written in
    stretches, or the pieces would gather more qrels lines than the whole qrels and run."""
    n = len(run_topic)
    starts = np.flatnonzero(run_topic[1:] != run_topic[:-1]) + 1 if n else np.zeros(0, int)
    if n <= PIECE_ROWS or len(starts) > n // 16:
        return None
    at = np.searchsorted(starts, np.arange(PIECE_ROWS, n, PIECE_ROWS))
    cuts = np.unique(np.r_[0, starts[at[at < len(starts)]], n])
    stretch_start = np.r_[0, starts]
    piece = np.searchsorted(cuts, stretch_start, side="right") - 1
    pairs = np.unique(piece.astype(np.int64) * len(qrels_per_topic) + run_topic[stretch_start])
    piece_of_pair, topic_of_pair = np.divmod(pairs, len(qrels_per_topic))
    if qrels_per_topic[topic_of_pair].sum() > n + qrels_rows:
        return None
    split = np.searchsorted(piece_of_pair, np.arange(1, len(cuts) - 1))
    return [(int(a), int(b), topics) for (a, b), topics in
            zip(pairwise(cuts.tolist()), np.split(topic_of_pair, split))]


def _ranges(first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """The concatenated integer ranges ``first[i]:last[i]``."""
    lengths = last - first
    offsets = np.repeat(first - np.r_[0, np.cumsum(lengths)[:-1]], lengths)
    return np.arange(int(lengths.sum()), dtype=np.int64) + offsets


def _relevance_in_piece(run_topic: np.ndarray, run_docs: pa.ChunkedArray,
                        qrels_topic: np.ndarray, qrels_docs: pa.Array, rel: np.ndarray,
                        n_topics: int) -> np.ndarray:
    """``relevance_by_row`` of one piece, its topics numbered ``0..n_topics - 1``: the qrels'
    docnos hashed, the run's looked up in them, each (topic, docno code) pair in a table."""
    encoded = pc.dictionary_encode(qrels_docs)
    n_docs = len(encoded.dictionary) + 1  # the last code: a docno the piece's qrels lack
    found = pc.fill_null(pc.index_in(run_docs, value_set=encoded.dictionary), n_docs - 1)
    run_doc = _numpy(found)
    qrels_doc = encoded.indices.to_numpy()
    return _relevance_of(run_topic * n_docs + run_doc, qrels_topic * n_docs + qrels_doc, rel,
                         n_topics * n_docs)


def _relevance_at_once(run_topic: np.ndarray, run_docs: pa.ChunkedArray,
                       qrels_topic: np.ndarray, qrels_docs: pa.ChunkedArray,
                       judged_rel: np.ndarray) -> np.ndarray:
    """``relevance_by_row`` with one hash table of every judged docno."""
    qrels_doc, dictionary = dictionary_codes(qrels_docs)
    n_docs = len(dictionary) + 1  # the last code: a document the qrels do not list
    run_doc = _numpy(pc.fill_null(pc.index_in(run_docs, value_set=dictionary), n_docs - 1))
    n_topics = int(max(run_topic.max(initial=-1), qrels_topic.max(initial=-1))) + 1
    key_type = np.int32 if n_topics * n_docs < 2**31 else np.int64
    return _relevance_of(run_topic.astype(key_type) * key_type(n_docs) + run_doc,
                         qrels_topic.astype(key_type) * key_type(n_docs) + qrels_doc,
                         judged_rel, n_topics * n_docs)


def _numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Integer codes without nulls as one numpy array."""
    if isinstance(values, pa.ChunkedArray):
        return np.concatenate([np.zeros(0, np.int32), *(c.to_numpy() for c in values.chunks)])
    return values.to_numpy()


def _relevance_of(run_key: np.ndarray, qrels_key: np.ndarray, judged_rel: np.ndarray,
                  n_keys: int) -> np.ndarray:
    """The relevance of each run (topic, doc) key among the qrels' keys (``NOT_IN_POOL``
    for a key they lack): a dense table of every key when small, else a binary search."""
    if n_keys <= DENSE_LOOKUP_LIMIT:
        table = np.full(n_keys, NOT_IN_POOL, dtype=judged_rel.dtype)
        table[qrels_key] = judged_rel
        return table[run_key]
    if not len(qrels_key):
        return np.full(len(run_key), NOT_IN_POOL, dtype=judged_rel.dtype)
    order = np.argsort(qrels_key)
    sorted_keys = qrels_key[order]
    at = np.minimum(np.searchsorted(sorted_keys, run_key), len(sorted_keys) - 1)
    return np.where(sorted_keys[at] == run_key, judged_rel[order][at], NOT_IN_POOL)


def _rel_type(qrels_rel: np.ndarray) -> np.dtype:
    """int8 when the relevance values fit (they nearly always do), else int64: one row of the
    rankings per retrieved document, so the type sets the size of the largest arrays."""
    fits = not len(qrels_rel) or (qrels_rel.min() >= -128 and qrels_rel.max() <= 127)
    return np.dtype(np.int8 if fits else np.int64)
