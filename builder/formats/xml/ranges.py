"""Character ranges of every element and text node of many articles at once, from their
serialisation by libxml2: columnar (numpy and Arrow), no Python call per node.

lxml parses each article (well-formedness, encodings, entities, CDATA, line ends) and writes
it back as UTF-8 (``etree.tostring``: one C call). That serialisation is regular enough to be
read with array operations over the bytes of a whole chunk of articles:

- every ``<`` and ``>`` outside comments and processing instructions is a tag's delimiter
  (libxml2 escapes both in text and in attribute values, and writes CDATA as escaped text);
- every ``&`` outside them starts an entity (``&amp;``, ``&lt;``, ``&gt;``, ``&#13;``, or an
  entity the parser left unexpanded), which stands for one character;
- a character is a byte that is not a UTF-8 continuation byte.

Tags then give, by cumulative sums, each text run's length and each element's depth; an
element's parent and its closing tag are found with one sort and ``searchsorted``; positions
among same-named siblings by a stable sort on (parent, name). Paths are dictionary-encoded:
only a chunk's distinct paths (articles share most of theirs) are joined as strings, level by
level, with Arrow's string kernels. Comments and processing instructions (rare) are found with
one regular expression; they split text nodes and hold no text, as in the XPath data model
(``builder.formats.xml.article`` states the conventions).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

_LT, _GT, _AMP, _SEMI, _SLASH = (ord(c) for c in "<>&;/")
_OTHER_MARKUP = re.compile(rb"<!--.*?-->|<\?.*?\?>", re.DOTALL)
_SPECIAL = bytes(int(b in (_LT, _GT, _AMP, _SEMI) or 0x80 <= b < 0xC0)  # continuation bytes
                 for b in range(256))
_OTHER_FIRST = np.array([ord("!"), ord("?")], dtype=np.uint8)
_NAME_END = np.zeros(256, dtype=bool)
_NAME_END[[ord(c) for c in " \t\n\r/>"]] = True


@dataclass(frozen=True)
class ChunkNodes:
    """The nodes of a chunk of articles in document order, article after article:
    ``article[i]`` is the position of the node's article in the chunk, ``path``/``start``/
    ``end``/``is_text`` as ``builder.formats.xml.article.ArticleNodes``."""

    article: np.ndarray
    path: pa.Array
    start: np.ndarray
    end: np.ndarray
    is_text: np.ndarray
    text_length: np.ndarray
    """Per article, the length of its text content."""


def _other_markup(data: bytes) -> np.ndarray:
    """Start and end (exclusive) of every comment and processing instruction, shape (n, 2)."""
    return np.array([m.span() for m in _OTHER_MARKUP.finditer(data)],
                    dtype=np.int64).reshape(-1, 2)


def _outside(positions: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """``positions`` not strictly inside a span: of a span, only its first and last bytes
    stay (the ``<`` and ``>`` that make it one token)."""
    if not len(spans):
        return positions
    at = np.searchsorted(spans[:, 0], positions, side="right") - 1
    first, last = spans[np.maximum(at, 0), 0], spans[np.maximum(at, 0), 1] - 1
    inside = (at >= 0) & (positions < last) & (positions > first)
    return positions[~inside]


def _ranks(group: np.ndarray) -> np.ndarray:
    """1-based position of each item among the items of its group, in the given order."""
    if not len(group):
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(group, kind="stable")
    ordered = group[order]
    new = np.ones(len(group), dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    starts = np.flatnonzero(new)
    first = np.repeat(starts, np.diff(np.append(starts, len(group))))
    rank = np.empty(len(group), dtype=np.int64)
    rank[order] = np.arange(len(group)) - first + 1
    return rank


def _last_at_or_before(keys: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Index into sorted ``keys`` of the last key <= each query."""
    return np.searchsorted(keys, queries, side="right") - 1


def chunk_nodes(articles: Sequence[bytes]) -> ChunkNodes:
    """The nodes of serialised articles (``etree.tostring(root, encoding="UTF-8")`` each:
    the root element alone, no declaration, no tail)."""
    data = b"".join(articles)
    raw = np.frombuffer(data, dtype=np.uint8)
    bounds = np.zeros(len(articles) + 1, dtype=np.int64)
    np.cumsum([len(a) for a in articles], out=bounds[1:])
    # One pass over the bytes: where the delimiters, entities and multi-byte characters are.
    special = np.flatnonzero(np.frombuffer(data.translate(_SPECIAL), dtype=np.bool_))
    kind = raw[special]
    lt = special[kind == _LT]
    if np.isin(raw[lt + 1], _OTHER_FIRST).any():  # comments or processing instructions
        special = _outside(special, _other_markup(data))
        kind = raw[special]
        lt = special[kind == _LT]
    gt = special[kind == _GT]
    if len(lt) != len(gt):  # cannot happen for libxml2's output: say so rather than misindex
        raise ValueError("unbalanced tags in a serialised article")
    # The character index of each special byte, were every byte text: bytes before it, less
    # continuation bytes, less n - 1 for each entity of n bytes (it stands for one character).
    amp = np.flatnonzero(kind == _AMP)
    semi = np.flatnonzero(kind == _SEMI)
    surplus = ((kind & 0xC0) == 0x80).astype(np.int64)
    surplus[amp] += special[semi[np.searchsorted(semi, amp)]] - special[amp]
    index = special - np.cumsum(surplus) + surplus
    # Token i is lt[i]..gt[i]; gap i the text between token i and token i + 1 (the ``>``
    # ending token i is one character of the index).
    tokens = len(lt)
    gap_chars = np.zeros(tokens, dtype=np.int64)
    gap_chars[:-1] = index[kind == _LT][1:] - index[kind == _GT][:-1] - 1
    before = np.zeros(tokens + 1, dtype=np.int64)
    np.cumsum(gap_chars, out=before[1:])  # characters before token i (and after it)
    second = raw[lt + 1]
    closing = second == _SLASH
    other = (second == ord("!")) | (second == ord("?"))
    opening = ~closing & ~other
    empty = opening & (raw[gt - 1] == _SLASH)
    step = opening.astype(np.int64) - closing - empty
    depth = np.cumsum(step)  # after each token
    level = depth + empty  # an element's own level at its opening tag; a closing tag's + 1
    article_of_token = np.searchsorted(bounds, lt, side="right") - 1
    base = before[np.searchsorted(lt, bounds[:-1])]  # characters before each article

    # Elements: tokens that open one.
    element_token = np.flatnonzero(opening)
    element_level = level[element_token]
    stride = tokens + 1
    open_keys = element_level * stride + element_token  # sorted by level, then position
    order = np.argsort(open_keys, kind="stable")
    open_sorted = open_keys[order]
    close_token = np.flatnonzero(closing)
    close_keys = np.sort((depth[close_token] + 1) * stride + close_token)
    matched = np.searchsorted(close_keys, open_keys)
    matched = np.minimum(matched, max(len(close_keys) - 1, 0))
    end_token = np.where(empty[element_token], element_token,
                         close_keys[matched] % stride if len(close_keys) else element_token)
    # The element open after token t is the last opened at t's depth (not empty elements).
    container = np.where(empty[element_token[order]], -1, order)
    open_list = open_sorted[container >= 0]
    open_ids = container[container >= 0]

    def open_after(token: np.ndarray) -> np.ndarray:
        if not len(open_ids):  # only empty elements: nothing is ever open after a token
            return np.full(len(token), -1, dtype=np.int64)
        at = _last_at_or_before(open_list, depth[token] * stride + token)
        found = (depth[token] > 0) & (at >= 0)
        return np.where(found, open_ids[np.maximum(at, 0)], -1)

    parent = np.where(element_level > 1, open_after(np.maximum(element_token - 1, 0)), -1)
    names, name_codes = _names(data, raw, lt[element_token])
    sibling = _ranks(np.where(parent >= 0, parent, -1 - article_of_token[element_token])
                     * len(names) + name_codes)
    # Text nodes: non-empty gaps, each a child of the element open after its token.
    text_gap = np.flatnonzero(gap_chars > 0)
    text_parent = open_after(text_gap)
    text_rank = _ranks(text_parent)
    element_code, text_code, dictionary = _path_codes(
        names, name_codes, sibling, parent, element_level, text_parent, text_rank)

    # Document order: an element at its opening tag, a text node at the gap after its token.
    rows = np.empty(len(element_token) + len(text_gap), dtype=np.int64)
    rows[np.arange(len(element_token)) + np.searchsorted(text_gap, element_token)] = (
        np.arange(len(element_token)))
    rows[np.arange(len(text_gap)) + np.searchsorted(element_token, text_gap, side="right")] = (
        len(element_token) + np.arange(len(text_gap)))
    article = np.concatenate([article_of_token[element_token], article_of_token[text_gap]])[rows]
    start = np.concatenate([before[element_token], before[text_gap]])[rows]
    end = np.concatenate([before[end_token], before[text_gap + 1]])[rows]
    path = pa.DictionaryArray.from_arrays(
        pa.array(np.concatenate([element_code, text_code])[rows].astype(np.int32)), dictionary)
    is_text = (rows >= len(element_token))
    length = before[np.searchsorted(lt, bounds[1:])] - base
    return ChunkNodes(article, path, start - base[article], end - base[article], is_text,
                      length)


def _names(data: bytes, raw: np.ndarray, lt: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """The distinct element names (an Arrow string array) and each element's code in it."""
    if not len(lt):
        return pa.array([], pa.string()), np.zeros(0, dtype=np.int64)
    # A name ends at the first blank, ``/`` or ``>`` (every tag has its ``>``): one byte
    # further at a time, for the names not yet ended only.
    name_end = lt + 1
    pending = np.arange(len(lt))
    while len(pending):
        ended = _NAME_END[raw[name_end[pending]]]
        pending = pending[~ended]
        name_end[pending] += 1
    # One string array over the bytes whose items alternate name / what follows it.
    offsets = np.empty(2 * len(lt), dtype=np.int64)
    offsets[0::2] = lt + 1
    offsets[1::2] = name_end
    spans = pa.LargeStringArray.from_buffers(
        len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))
    encoded = pc.dictionary_encode(spans.take(pa.array(np.arange(0, len(offsets) - 1, 2))))
    return (encoded.dictionary.cast(pa.string()),
            encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64))


def _distinct(*columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct combination of the (non-negative integer) columns, and
    each row's number among the distinct ones (numbered in order of first appearance)."""
    radix = [int(c.max()) + 1 if len(c) else 1 for c in columns]
    if float(np.prod(radix, dtype=np.float64)) < 2.0 ** 62:
        key = np.zeros(len(columns[0]), dtype=np.int64)
        for column, size in zip(columns, radix, strict=True):
            key = key * size + column
        number = pd.factorize(key)[0]  # a hash table: several times faster than a sort
    else:
        number = pd.MultiIndex.from_arrays(list(columns)).factorize()[0]
    first = np.flatnonzero(np.diff(np.maximum.accumulate(number), prepend=-1) > 0)
    return first, number.astype(np.int64)


def _numbers(values: np.ndarray) -> pa.Array:
    return pa.array(values).cast(pa.string())


def _path_codes(names: pa.Array, name_codes: np.ndarray, sibling: np.ndarray,
                parent: np.ndarray, level: np.ndarray, text_parent: np.ndarray,
                text_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """Each element's and text node's path as a code into a dictionary of the chunk's
    distinct paths, which alone are written out as strings (articles share most of their
    paths). Level by level: an element's path is its parent's, ``/``, its name and
    ``[position]``; a level's parents are all on the level above."""
    order = np.argsort(level, kind="stable")
    cuts = np.searchsorted(level[order], np.arange(1, int(level.max()) + 2 if len(level) else 1))
    code = np.zeros(len(level), dtype=np.int64)
    parts: list[pa.Array] = []
    above, above_first = None, 0
    for first, last in pairwise(cuts):
        members = order[first:last]
        if above is None:
            distinct, number = _distinct(name_codes[members])
            prefix: pa.Array | str = ""
        else:
            distinct, number = _distinct(code[parent[members]], name_codes[members],
                                         sibling[members])
            prefix = above.take(pa.array(code[parent[members[distinct]]] - above_first))
        shown = members[distinct]
        joined = pc.binary_join_element_wise(
            prefix, "/", names.take(pa.array(name_codes[shown])), "[",
            _numbers(sibling[shown]), "]", "")
        above_first = sum(len(p) for p in parts)
        code[members] = above_first + number
        parts.append(joined)
        above = joined
    elements = pa.concat_arrays(parts) if parts else pa.array([], pa.string())
    distinct, number = _distinct(code[text_parent], text_rank)
    texts = pc.binary_join_element_wise(
        elements.take(pa.array(code[text_parent[distinct]])), "/text()[",
        _numbers(text_rank[distinct]), "]", "")
    return code, len(elements) + number, pa.concat_arrays([elements, texts])
