"""``appendix evaluate``'s text layouts of a score table (trec_eval's, TSV, CSV), built by whole
columns with Arrow kernels and written a slice of rows at a time (a campaign's scores need not
be one string in memory).

- trec: trec_eval's ``%-22s\\t%s\\t%.4f`` lines (counts as integers), per run its per-topic
  lines (``-q``, topics in text order, measures in the order asked), then its ``runid`` line
  and summary lines; text rows (``relstring``) are printed in quotes, ``'10-2>.'``, in their
  measure's place.
- tsv: ``run<TAB>measure<TAB>topic<TAB>value``, the value as Python's ``repr``.
- csv: what pandas' ``to_csv(index=False)`` writes: a header, fields quoted when they hold a
  comma, a quote or a line end, the value as ``repr`` (a NaN as an empty field).

``tests/commands/test_score_layouts.py`` checks each against the row-by-row formatting it
replaced, on values of every magnitude and names that need quoting.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.contract import SUMMARY_TOPIC
from builder.pipeline.layouts.text import float_texts, joined_lines

TREC_NAME_WIDTH = 22
SLICE_ROWS = 1 << 20
"""Rows formatted and written at a time."""
_FIXED_RANGE = 1e6
"""Below it, ``%.4f`` is ``floor(v * 1e4 + 0.5)`` unless v * 1e4 is within ``_HALF_MARGIN`` of
a half (v * 1e4 < 1e10 is computed within 2e-6 of its exact value); the rest by ``format``."""
_HALF_MARGIN = 1e-3


def trec_text(scores: pd.DataFrame, measures: list[str], integral: set[str],
              layout: Any, texts: pd.DataFrame | None = None) -> Iterator[str]:
    """trec_eval's layout of ``scores``, runs in their order of appearance; ``layout``: what
    to print (``builder.pipeline.layouts.official.TrecLayout``); ``texts``: per-topic rows whose
    value is text (run, topic, measure, text), printed quoted as trec_eval prints them."""
    quoted = None  # per row of scores, the text printed instead of its value ("": none)
    if texts is not None and len(texts):
        quoted = np.r_[np.full(len(scores), "", object),
                       ("'" + texts["text"].astype(str) + "'").to_numpy(object)]
        scores = pd.concat([scores, texts[["run", "topic", "measure"]].assign(value=np.nan)],
                           ignore_index=True)
    runs = np.asarray(pd.unique(scores["run"]), dtype=object)
    run = pd.Index(runs).get_indexer(scores["run"])
    measure = pd.Index(measures).get_indexer(scores["measure"])  # -1: not printed
    summary = (scores["topic"] == SUMMARY_TOPIC).to_numpy()
    shown = measure >= 0
    per_topic = shown & ~summary if layout.per_topic else np.zeros(len(scores), bool)
    if layout.answered is not None and per_topic.any():
        pairs = pd.MultiIndex.from_arrays([scores["run"].astype(str), scores["topic"].astype(str)])
        per_topic &= pairs.isin(list(layout.answered))
    rows = np.flatnonzero(per_topic | (shown & summary) if layout.summary else per_topic)
    topic = scores["topic"].iloc[rows].astype(str).to_numpy(object)  # text of the rows printed
    topic_rank = pd.Index(sorted(set(topic[~summary[rows]]))).get_indexer(topic)
    # Lines of rows (section 0 per topic, 2 summary), then one runid line per run (section 1).
    section = np.where(summary[rows], 2, 0)
    with_runid = layout.summary and layout.runid
    ids = np.arange(len(runs)) if with_runid else np.zeros(0, np.int64)
    order = np.lexsort((np.r_[measure[rows], np.zeros(len(ids), np.int64)],
                        np.r_[topic_rank, np.zeros(len(ids), np.int64)],
                        np.r_[section, np.ones(len(ids), np.int64)],
                        np.r_[run[rows], ids]))
    padded = pc.utf8_rpad(pa.array([*measures, "runid"], pa.string()), TREC_NAME_WIDTH, " ")
    topics = pa.array(topic, pa.string())
    values = scores["value"].to_numpy(np.float64)[rows]
    counts = np.isin(measure[rows], [i for i, m in enumerate(measures) if m in integral])
    quoted = None if quoted is None else quoted[rows]
    for start in range(0, len(order), SLICE_ROWS):
        part = order[start:start + SLICE_ROWS]
        line = part < len(rows)
        at = np.where(line, part, 0)
        names = padded.take(pa.array(np.where(line, measure[rows][at], len(measures))))
        where = pc.if_else(pa.array(line), topics.take(pa.array(at)), SUMMARY_TOPIC)
        texts = _values(values[at], counts[at])
        if quoted is not None:
            given = pa.array(quoted[at], pa.string())
            texts = pc.if_else(pc.and_(pa.array(line), pc.not_equal(given, "")), given, texts)
        run_names = pa.array(runs[np.where(line, 0, part - len(rows))].astype(str), pa.string())
        texts = pc.if_else(pa.array(line), texts, run_names)
        yield joined_lines([names, where, texts]).decode("utf-8")


def _values(values: np.ndarray, counts: np.ndarray) -> pa.Array:
    """``%.4f`` of each value, ``round`` of the counts."""
    texts = fixed_texts(values)
    if counts.any():
        whole = np.zeros(len(values), np.int64)
        whole[counts] = [round(v) for v in values[counts].tolist()]
        texts = pc.if_else(pa.array(counts), pc.cast(pa.array(whole), pa.string()), texts)
    return texts


def fixed_texts(values: np.ndarray, digits: int = 4) -> pa.Array:
    """``f"{v:.4f}"`` of every value, as an Arrow string array (C's correctly rounded printf)."""
    values = np.asarray(values, np.float64)
    scale = 10**digits
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = values * scale
        fraction = scaled - np.floor(scaled)
        fast = (~np.signbit(values) & (values < _FIXED_RANGE)
                & (np.abs(fraction - 0.5) > _HALF_MARGIN))
    units = np.floor(np.where(fast, scaled, 0.0) + 0.5).astype(np.int64)
    decimals = pc.utf8_lpad(pc.cast(pa.array(units % scale), pa.string()), digits, "0")
    texts = pc.binary_join_element_wise(pc.cast(pa.array(units // scale), pa.string()),
                                        decimals, ".")
    if fast.all():
        return texts
    rare = np.flatnonzero(~fast)
    slow = pa.array([f"{v:.{digits}f}" for v in values[rare].tolist()], pa.string())
    index = np.arange(len(values))
    index[rare] = len(values) + np.arange(len(rare))
    return pa.concat_arrays([texts, slow]).take(pa.array(index))


def tsv_text(table: pd.DataFrame) -> Iterator[str]:
    """``run<TAB>measure<TAB>topic<TAB>value`` lines at full precision."""
    for start in range(0, len(table), SLICE_ROWS):
        part = table.iloc[start:start + SLICE_ROWS]
        columns = [pa.array(part[name].astype(str), pa.string())
                   for name in ("run", "measure", "topic")]
        yield joined_lines([*columns, float_texts(part["value"].to_numpy())]).decode("utf-8")


def csv_text(table: pd.DataFrame) -> Iterator[str]:
    """``table.to_csv(index=False)``, by columns."""
    yield ",".join(_quoted(pa.array(list(table.columns), pa.string())).to_pylist()) + "\n"
    for start in range(0, len(table), SLICE_ROWS):
        part = table.iloc[start:start + SLICE_ROWS]
        columns = []
        for name in table.columns:
            column = part[name]
            if pd.api.types.is_float_dtype(column.dtype):
                values = column.to_numpy(np.float64)
                texts = pc.if_else(pa.array(np.isnan(values)), "", float_texts(values))
            else:
                texts = pa.array(column.astype(str), pa.string())
            columns.append(_quoted(texts))
        yield joined_lines(columns, ",").decode("utf-8")


def _quoted(texts: pa.Array) -> pa.Array:
    """The csv module's minimal quoting: a field with a comma, a quote or a line end in
    quotes, its quotes doubled."""
    needs = pc.match_substring_regex(texts, '[,"\r\n]')
    if not pc.any(needs).as_py():
        return texts
    inner = pc.replace_substring(texts, '"', '""')
    return pc.if_else(needs, pc.binary_join_element_wise('"', inner, '"', ""), texts)
