"""Validation rules over a read TREC run table (columns topic, doc, tag, line): findings only.

Errors (the run is not evaluated): an empty run, a docno twice for one topic (trec_eval
stops on it). Warnings (evaluated as trec_eval would): more than one run tag, topics the qrels
do not judge (ignored), qrels topics the run lacks (score 0 under ``-c``), more results for a
topic than the depth cut (the lowest-scored are dropped).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding

LISTED = 10
"""How many topic ids a finding names before it says "and N more"."""


def _some(values) -> str:
    values = sorted(map(str, values))
    shown = ", ".join(values[:LISTED])
    return shown + (f" and {len(values) - LISTED} more" if len(values) > LISTED else "")


def _encoded(series: pd.Series) -> pa.DictionaryArray:
    array = pa.array(series)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return pc.dictionary_encode(array)


def _present(series: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Codes of a column of few distinct values (a run's topics or tags) and the values that
    occur, in the order of the codes; categorical as read, so no line is hashed again."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        categorical = series.array
    else:
        categorical = pd.Categorical(series)
    codes, categories = categorical.codes, categorical.categories.tolist()
    used = np.flatnonzero(np.bincount(codes, minlength=len(categories)))
    renumbered = np.full(len(categories), -1, dtype=np.int64)
    renumbered[used] = np.arange(len(used))
    return renumbered[codes], [str(categories[i]) for i in used]


def validate_trec_run(
    table: pd.DataFrame, file: str, qrels_topics: set[str], *, depth: int
) -> list[Finding]:
    """The findings of one run file's table against the qrels' topics."""
    if table.empty:
        return [Finding(file, None, "error", "empty run: no result lines")]
    topic_codes, topics = _present(table["topic"])
    findings = _duplicates(table, file, topic_codes, _encoded(table["doc"]))
    _, tags = _present(table["tag"])
    if len(tags) > 1:
        findings.append(
            Finding(file, None, "warning", f"{len(tags)} run tags ({_some(tags)}); expected one")
        )
    unjudged = set(topics) - qrels_topics
    if unjudged:
        findings.append(
            Finding(
                file,
                None,
                "warning",
                f"{len(unjudged)} topics not in the qrels, ignored: {_some(unjudged)}",
            )
        )
    missing = qrels_topics - set(topics)
    if missing:
        findings.append(
            Finding(
                file,
                None,
                "warning",
                f"{len(missing)} qrels topics without results, scored 0: {_some(missing)}",
            )
        )
    sizes = np.bincount(topic_codes, minlength=len(topics))
    deep = np.flatnonzero(sizes > depth)
    if len(deep):
        findings.append(
            Finding(
                file,
                None,
                "warning",
                f"{len(deep)} topics have more than {depth} results (up to {sizes.max()}); "
                f"only the {depth} best-scored count: {_some(topics[i] for i in deep)}",
            )
        )
    return findings


def _repeats(keys: np.ndarray, bound: int) -> bool:
    """Whether a value of ``keys`` (integers in ``[0, bound)``) occurs twice: the distinct
    values marked in a table when it is small (a few MB), else sorted."""
    if bound <= 16 * len(keys) + (1 << 24):
        seen = np.zeros(bound, dtype=bool)
        seen[keys] = True
        return int(np.count_nonzero(seen)) < len(keys)
    ordered = np.sort(keys)
    return bool((ordered[1:] == ordered[:-1]).any())


def _duplicates(
    table: pd.DataFrame, file: str, topic_codes: np.ndarray, doc: pa.DictionaryArray
) -> list[Finding]:
    """One error per line repeating a (topic, docno) pair of an earlier line."""
    if len(doc.dictionary) == len(table):  # no docno twice in the whole run
        return []
    pair = topic_codes.astype(np.int64) * len(doc.dictionary) + doc.indices.to_numpy()
    if not _repeats(pair, (int(topic_codes.max()) + 1) * len(doc.dictionary)):
        return []
    rows = table[pd.Series(pair).duplicated().to_numpy()]
    return [
        Finding(file, int(line), "error", f"document {doc} appears twice for topic {topic}")
        for line, topic, doc in zip(rows["line"], rows["topic"], rows["doc"])
    ]
