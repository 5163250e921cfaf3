"""Score tables printed as text by whole columns (Arrow kernels), not by a Python loop per row.

``appendix evaluate --format tsv`` prints every value at full precision, as Python's ``repr``
of a float64 (the shortest text that reads back to the same number). Arrow's float-to-string
cast gives the same shortest digits, written the same way for magnitudes in [1e-4, 1e9) and
zero, except that it leaves out ``.0`` on whole numbers; values outside that range (rare:
tiny, huge, NaN, infinite) are written by ``repr`` one by one. ``tests/commands/
test_score_text.py`` checks the equality on values of every magnitude.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_POSITIONAL = (1e-4, 1e9)
"""The magnitudes Arrow and ``repr`` both write without an exponent."""


def float_texts(values: np.ndarray) -> pa.Array:
    """``repr(float(v))`` of every value, as an Arrow string array."""
    values = np.asarray(values, dtype=np.float64)
    magnitude = np.abs(values)
    fast = (values == 0) | ((magnitude >= _POSITIONAL[0]) & (magnitude < _POSITIONAL[1]))
    texts = pc.cast(pa.array(values), pa.string())
    whole = pc.invert(pc.match_substring(texts, "."))
    texts = pc.if_else(whole, pc.binary_join_element_wise(texts, ".0", ""), texts)
    if fast.all():
        return texts
    rare = np.flatnonzero(~fast)
    slow = pa.array([repr(v) for v in values[rare].tolist()], pa.string())
    index = np.arange(len(values))
    index[rare] = len(values) + np.arange(len(rare))
    return pa.concat_arrays([texts, slow]).take(pa.array(index))


def joined_lines(columns: list, separator: str = "\t") -> bytes:
    """The rows of ``columns`` (string arrays or scalars, no separator or line end inside)
    joined by ``separator``, one line each, ``\\n``-ended: one buffer built by Arrow."""
    lines = pc.binary_join_element_wise(*columns, separator)
    if not len(lines):
        return b""
    return _concatenated(pc.binary_join_element_wise(lines, "\n", ""))


def _concatenated(texts: pa.Array) -> bytes:
    """The bytes of every string of ``texts`` one after the other (its data buffer)."""
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    texts = texts.cast(pa.large_string()) if not isinstance(texts, pa.LargeStringArray) else texts
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset:
                                                                 texts.offset + len(texts) + 1]
    return texts.buffers()[2].to_pybytes()[offsets[0]:offsets[-1]]
