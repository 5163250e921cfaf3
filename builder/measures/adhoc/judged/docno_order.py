"""Docnos as integer codes in their byte order, for breaking ties as trec_eval does (docno
descending, ``comp_sim_docno``): computed only for the rows tied with another, which are taken
from the run's docno column without joining its chunks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.formats.trec.repeated_pairs import as_chunked


def as_large_strings(values: pd.Series | pa.Array | pa.ChunkedArray) -> pa.ChunkedArray:
    """A text column as an Arrow chunked array of large strings (not copied when it is one)."""
    array = as_chunked(values)
    return array.cast(pa.large_string()) if array.type != pa.large_string() else array


def dictionary_codes(values: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """Dictionary indices (int32) of all chunks, and the shared dictionary."""
    encoded = pc.dictionary_encode(values)
    if encoded.num_chunks == 0:
        return np.zeros(0, np.int32), pa.array([], pa.large_string())
    indices = np.concatenate([c.indices.to_numpy() for c in encoded.chunks])
    return indices.astype(np.int32, copy=False), encoded.chunks[-1].dictionary


ENCODE_THREADS = 2
"""Parts of a string column hashed at once (Arrow releases the GIL while it hashes)."""


def byte_order_codes(values: pa.ChunkedArray) -> np.ndarray:
    """Integer codes of the strings whose order is the strings' byte order.

    The chunks are split into ``ENCODE_THREADS`` parts encoded in parallel; their (small)
    dictionaries are then merged and sorted once.
    """
    parts = _split_chunks(values, ENCODE_THREADS)
    with ThreadPoolExecutor(len(parts)) as pool:
        encoded = list(pool.map(dictionary_codes, parts))
    merged, dictionary = dictionary_codes(pa.chunked_array([d for _, d in encoded], values.type))
    order = pc.sort_indices(dictionary).to_numpy()
    position = np.empty(len(order), np.int32)
    position[order] = np.arange(len(order), dtype=np.int32)
    codes = np.empty(len(values), np.int32)
    row, first = 0, 0
    for indices, part_dictionary in encoded:
        codes[row:row + len(indices)] = position[merged[first:first + len(part_dictionary)]][indices]
        row, first = row + len(indices), first + len(part_dictionary)
    return codes


def _split_chunks(values: pa.ChunkedArray, parts: int) -> list[pa.ChunkedArray]:
    """``values`` cut into at most ``parts`` runs of whole chunks of about equal length."""
    sizes = np.cumsum([len(c) for c in values.chunks])
    if not len(sizes) or parts <= 1:
        return [values]
    bounds = np.searchsorted(sizes, np.arange(1, parts) * sizes[-1] / parts) + 1
    edges = [0, *sorted(set(bounds.tolist()) - {0, len(sizes)}), len(sizes)]
    return [pa.chunked_array(values.chunks[a:b], values.type) for a, b in pairwise(edges)]


def take_rows(values: pa.ChunkedArray, rows: np.ndarray) -> pa.ChunkedArray:
    """``values[rows]``, taken chunk by chunk: Arrow's take on a chunked array first joins all
    of its chunks (TREC-COVID round 1's 143 run files: 0.17 s of copying the docnos for the
    few rows tied)."""
    if values.num_chunks == 0:
        return pa.chunked_array([pa.array([], values.type).take(pa.array(rows, pa.int64()))])
    if values.num_chunks == 1:
        return pa.chunked_array([values.chunk(0).take(pa.array(rows, pa.int64()))])
    ends = np.cumsum([len(chunk) for chunk in values.chunks])
    chunk_of = np.searchsorted(ends, rows, side="right")
    order = np.argsort(chunk_of, kind="stable")
    by_chunk = chunk_of[order]
    bounds = np.searchsorted(by_chunk, np.arange(values.num_chunks + 1))
    pieces = [values.chunk(c).take(pa.array(rows[order[a:b]] - (ends[c] - len(values.chunk(c)))))
              for c, (a, b) in enumerate(pairwise(bounds)) if b > a]
    joined = pa.concat_arrays(pieces) if pieces else pa.array([], values.type)
    back = np.empty(len(rows), np.int64)
    back[order] = np.arange(len(rows))
    return pa.chunked_array([joined.take(pa.array(back))])
