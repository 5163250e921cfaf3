"""Validation rules over a read TREC run table (columns topic, doc, tag, line): findings only.

Errors (the run is not evaluated): an empty run, a docno twice for one topic (trec_eval
stops on it). Warnings (evaluated as trec_eval would): more than one run tag, topics the qrels
do not judge (ignored), qrels topics the run lacks (score 0 under ``-c``), more results for a
topic than the depth cut (the lowest-scored are dropped).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode
from builder.formats.source import release_read_memory
from builder.formats.trec.repeated_pairs import as_chunked, repeated_rows
from builder.formats.trec.repeated_pairs import repeats as _repeats  # noqa: F401 (its old name)

LISTED = 10
"""How many topic ids a finding names before it says "and N more"."""


def _some(values) -> str:
    values = sorted(map(str, values))
    shown = ", ".join(values[:LISTED])
    return shown + (f" and {len(values) - LISTED} more" if len(values) > LISTED else "")


def _present(series: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Codes of a column of few distinct values (a run's topics or tags) and the values that
    occur, in the order of the codes; categorical as read, so no line is hashed again."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        categorical = series.array
    else:
        categorical = pd.Categorical(series)
    codes, categories = categorical.codes, categorical.categories.tolist()
    used = np.flatnonzero(np.bincount(codes, minlength=len(categories)))
    if len(used) == len(categories):  # as read: every category occurs, no renumbering
        return codes, [str(c) for c in categories]
    renumbered = np.full(len(categories), -1, dtype=np.int64)
    renumbered[used] = np.arange(len(used))
    return renumbered[codes], [str(categories[i]) for i in used]


def validate_trec_run(
    table: pd.DataFrame, file: str, qrels_topics: set[str], *, depth: int,
    complete: bool = True, unscored: frozenset[str] = frozenset(),
) -> list[Finding]:
    """The findings of one run file's table against the qrels' topics (``file_findings``)."""
    if table.empty:
        return [Finding(file, None, "error", FindingCode.EMPTY, "empty run: no result lines")]
    topic_codes, topics = _present(table["topic"])
    findings = _duplicates(table, file, topic_codes)
    _, tags = _present(table["tag"])
    sizes = np.bincount(topic_codes, minlength=len(topics))
    return findings + file_findings(file, topics, sizes, tags, qrels_topics, depth=depth,
                                    complete=complete, unscored=unscored)


def duplicate_findings(table: pd.DataFrame, file: str) -> list[Finding]:
    """The errors of lines repeating a (topic, docno) pair of an earlier line (the check of
    ``validate_trec_run`` that reads each topic's lines alone: a file read by topic ranges
    is checked range by range)."""
    if table.empty:
        return []
    return _duplicates(table, file, _present(table["topic"])[0])


def file_findings(file: str, topics: list[str], sizes: np.ndarray, tags: list[str],
                  qrels_topics: set[str], *, depth: int, complete: bool = True,
                  unscored: frozenset[str] = frozenset()) -> list[Finding]:
    """The checks of a whole run file from its ``topics`` (with ``sizes`` lines each) and
    its ``tags``: more than one tag, topics the qrels do not judge, qrels topics without
    results, topics deeper than ``depth``. A qrels topic without results is scored 0 when
    ``complete`` and left out of the means otherwise, or always when the kind scores no run on
    it (``unscored``: eprum-documents' topics without a document judged ideal), and the
    warning says which."""
    findings = []
    if len(tags) > 1:
        findings.append(
            Finding(file, None, "warning", FindingCode.NAMING,
                    f"{len(tags)} run tags ({_some(tags)}); expected one")
        )
    unjudged = set(topics) - qrels_topics
    if unjudged:
        findings.append(
            Finding(
                file,
                None,
                "warning",
                FindingCode.UNKNOWN_TOPIC,
                f"{len(unjudged)} topics not in the qrels, ignored: {_some(unjudged)}",
            )
        )
    missing = qrels_topics - set(topics)
    never = missing & unscored
    outcomes = ((missing - never, "scored 0" if complete else "left out of the means"),
                (never, "left out of the means, as every run is (no document judged ideal)"))
    findings += [Finding(file, None, "warning", FindingCode.MISSING_TOPIC,
                         f"{len(group)} qrels topics without results, {outcome}: {_some(group)}")
                 for group, outcome in outcomes if group]
    deep = np.flatnonzero(sizes > depth)
    if len(deep):
        findings.append(
            Finding(
                file,
                None,
                "warning",
                FindingCode.LIMIT,
                f"{len(deep)} topics have more than {depth} results (up to {sizes.max()}); "
                f"only the {depth} best-scored count: {_some(topics[i] for i in deep)}",
            )
        )
    return findings


def _duplicates(table: pd.DataFrame, file: str, topic_codes: np.ndarray) -> list[Finding]:
    """One error per line repeating a (topic, docno) pair of an earlier line."""
    repeated = repeated_rows(topic_codes, as_chunked(table["doc"]))
    release_read_memory(len(table))  # the docnos' encodings
    if not len(repeated):  # taking no row still joins the docno column's chunks
        return []
    rows = table.iloc[repeated]
    return [
        Finding(file, int(line), "error", FindingCode.DUPLICATE,
                f"document {doc} appears twice for topic {topic}")
        for line, topic, doc in zip(rows["line"], rows["topic"], rows["doc"])
    ]
