"""Docnos taken chunk by chunk for tie breaking: the same values as Arrow's own take."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.measures.adhoc.judged.docno_order import byte_order_codes, take_rows

chunks = st.lists(st.lists(st.text("ab\u00e9", max_size=3), max_size=6), max_size=5)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(chunks, st.data())
def test_take_rows_equals_arrows_take(parts: list[list[str]], data: st.DataObject):
    values = pa.chunked_array([pa.array(p, pa.large_string()) for p in parts], pa.large_string())
    rows = np.array(data.draw(st.lists(st.integers(0, max(len(values) - 1, 0)),
                                       max_size=12 if len(values) else 0)), dtype=np.int64)
    taken = take_rows(values, rows)
    assert taken.to_pylist() == values.take(pa.array(rows, pa.int64())).to_pylist()
    # Codes in byte order: equal docnos share a code, and the codes sort as the bytes do.
    codes = byte_order_codes(taken)
    texts = [t.encode() for t in taken.to_pylist()]
    for i in range(len(texts)):
        for j in range(len(texts)):
            assert (codes[i] < codes[j]) == (texts[i] < texts[j])
