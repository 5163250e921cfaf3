"""Rules over a read FOL run: what is evaluated, and what the report says about it.

- a negative offset other than -1 (inex_eval's unknown passage) and a length that is not
  positive (negative, for the entry points of best in context, of length 0): errors naming
  the line (inex_eval scores a negative offset as text before the
  article and counts it twice);
- a passage ending beyond the article's length (``doc_chars`` of the qrels): warning;
- overlapping passages of one article (focused only): error naming both lines. inex_eval
  3.1 misses a passage nested strictly inside an earlier one; we catch every overlap. As in
  inex_eval, the passages of a topic's second block (see below) are checked apart from the first,
  and those of a topic absent from the qrels not at all (inex_eval skips its lines);
- a topic in separate blocks of lines: warning (inex_eval counts the second block's articles
  again, which can push recall above 1; we follow it);
- topics without qrels: warning (inex_eval skips their lines);
- more than 1500 lines for a topic (INEX's limit): warning; inex_eval 3.1 evaluates them all,
  and so do we unless ``max_results`` is set, which cuts the lines after it;
- rank or score disagreeing with the line order: info (the ranking is the line order).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, Severity, counted, listed
from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.measures.inex.overlap import first_overlaps

INEX_RESULT_LIMIT = 1500
"""Results per topic the INEX submission rules allowed (2007-2010)."""
DEFAULT_MAX_RESULTS: int | None = None
"""No cut: inex_eval 3.1 evaluates every line of a topic, however many."""


class _Codes:
    """The run's topics and files as integer codes, computed once for every rule (pandas'
    ``factorize`` of the string columns; a rule then works on integers, and only the lines it
    reports go back to names). Topics are coded in sorted order, as the table sorted
    by its topic column would list them."""

    def __init__(self, table: pd.DataFrame, qrels_topics: list[str]) -> None:
        topic, self.topics = pd.factorize(table["topic"], sort=True)
        self.topic = topic.astype(np.int64)
        self.known = self.topics.isin(qrels_topics)[self.topic]
        file, self.files = pd.factorize(table["file"])
        self.file = file.astype(np.int64)

    def file_name(self, row: int) -> str:
        return str(self.files[self.file[row]])


def validate_fol_run(
    table: pd.DataFrame,
    label: str,
    qrels_topics: list[str],
    max_results: int | None = DEFAULT_MAX_RESULTS,
    reject_overlap: bool = True,
    doc_chars: pd.Series | None = None,
    entry_points: bool = False,
) -> tuple[pd.DataFrame, list[Finding]]:
    """The table to evaluate (cut at ``max_results`` per topic, when given) and the findings.

    ``doc_chars``: the length of each article the qrels know (indexed by file).
    ``entry_points``: the lines are best entry points (best in context), whose length is 0."""
    lines = table["line"].to_numpy()
    codes = _Codes(table, qrels_topics)
    known = codes.known
    findings = _bad_passages(table, label, 0 if entry_points else 1)
    if doc_chars is not None:
        findings += _beyond_article(table, label, doc_chars, codes)
    epoch = topic_epochs(codes.topic, known)
    findings += _topic_blocks(table, label, codes)
    if reject_overlap:
        findings += _overlaps(table, label, codes, epoch)
    unjudged = sorted(set(table.loc[~known, "topic"]))
    if unjudged:
        findings.append(
            Finding(label, None, "warning", FindingCode.UNKNOWN_TOPIC,
                    f"{len(unjudged)} topics not in the qrels, not evaluated: "
                    + ", ".join(unjudged[:10]) + (" ..." if len(unjudged) > 10 else ""))
        )
    order = table["order"].to_numpy()
    over = order > (max_results or INEX_RESULT_LIMIT)
    if over.any():
        first = int(lines[over][0])
        topics = table.loc[over, "topic"].nunique()
        if max_results is None:
            message = (f"{topics} topics have more than {INEX_RESULT_LIMIT} results (INEX's "
                       "limit); every line is evaluated, as inex_eval 3.1 does (option "
                       "max_results cuts)")
        else:
            message = (f"{topics} topics have more than {max_results} results; {int(over.sum())} "
                       f"lines after the {max_results}th of their topic are not evaluated")
        findings.append(Finding(label, first, "warning", FindingCode.LIMIT, message))
    findings += _rank_order(table, label, codes)
    if max_results is None:
        return table, findings
    return table.loc[~over].reset_index(drop=True), findings


def _capped(label: str, lines: np.ndarray, code: FindingCode, message: Callable[[int], str],
            severity: Severity = "error") -> list[Finding]:
    """A finding per line (``listed``: the first ones, then one counting the rest)."""
    return listed(label, lines, severity, code, message,
                  lambda n: f"{counted(n, 'more line')} like line {int(lines[0])}")


def _bad_passages(table: pd.DataFrame, label: str, least_length: int) -> list[Finding]:
    """Negative offsets other than the unknown passage's -1, and lengths below the least."""
    offset, length = table["offset"].to_numpy(), table["length"].to_numpy()
    lines = table["line"].to_numpy()
    negative = np.flatnonzero(offset < UNKNOWN_OFFSET)
    known_empty = np.flatnonzero((offset != UNKNOWN_OFFSET) & (length < least_length))
    return _capped(label, lines[negative], FindingCode.VALUE, lambda i: (
        f"negative offset {offset[negative[i]]}: offsets count characters from 0 (-1 or X "
        "marks an unknown passage)"),
    ) + _capped(label, lines[known_empty], FindingCode.VALUE, lambda i: (
        f"passage length {length[known_empty[i]]} is "
        f"{'negative' if least_length == 0 else 'not positive'}"))


def _beyond_article(table: pd.DataFrame, label: str, doc_chars: pd.Series, codes: _Codes
                    ) -> list[Finding]:
    """Passages ending after the end of their article, where the qrels give its length."""
    size = pd.Series(codes.files).map(doc_chars).to_numpy(dtype=np.float64,
                                                           na_value=np.nan)[codes.file]
    end = (table["offset"] + table["length"]).to_numpy()
    beyond = np.flatnonzero((table["offset"].to_numpy() >= 0) & (end > size))
    lines = table["line"].to_numpy()[beyond]
    return _capped(label, lines, FindingCode.OUTSIDE, lambda i: (
        f"passage ends at character {end[beyond[i]]}, beyond the end of article "
        f"{codes.file_name(beyond[i])} ({int(size[beyond[i]])} characters in the qrels)"),
        "warning")


def topic_epochs(topic: np.ndarray, known: np.ndarray) -> np.ndarray:
    """inex_eval's article table of each line (in file order): a new one at the first line of
    each topic of the qrels, so a topic that starts again later has its articles counted anew."""
    first = np.zeros(len(topic), dtype=bool)
    first[np.unique(topic, return_index=True)[1]] = True
    return np.cumsum(first & known)


def _overlaps(table: pd.DataFrame, label: str, codes: _Codes, epoch: np.ndarray
              ) -> list[Finding]:
    # Lines of topics in the qrels that are known passages, grouped by (topic, file, epoch)
    # from the columns' codes: no tuple per line.
    start = table["offset"].to_numpy()
    rows = np.flatnonzero(codes.known & (start >= 0))
    pair = codes.topic[rows] * np.int64(len(codes.files)) + codes.file[rows]
    group = pd.factorize(pair)[0].astype(np.int64) * (np.int64(epoch.max(initial=0)) + 1) \
        + epoch[rows]
    start = start[rows]
    later, earlier = first_overlaps(group, start, start + table["length"].to_numpy()[rows])
    lines = table["line"].to_numpy()[rows]
    files = codes.files[codes.file[rows]]
    topics = codes.topics[codes.topic[rows]]
    pairs = sorted(zip(np.maximum(lines[later], lines[earlier]), np.minimum(lines[later], lines[earlier]), later))
    return listed(label, [second for second, _, _ in pairs], "error", FindingCode.OVERLAP,
                  lambda k: (f"passage overlaps the passage of line {int(pairs[k][1])} "
                             f"(topic {topics[pairs[k][2]]}, article {files[pairs[k][2]]})"),
                  lambda n: counted(n, "more overlapping passage"))


def _topic_blocks(table: pd.DataFrame, label: str, codes: _Codes) -> list[Finding]:
    topic = codes.topic
    starts = np.concatenate([[True], topic[1:] != topic[:-1]]) if len(topic) else np.zeros(0, bool)
    block_topics = pd.Series(codes.topics[topic[starts]])
    again = block_topics.duplicated().to_numpy() & codes.known[starts]
    lines = table["line"].to_numpy()[starts][again]
    names = block_topics[again].to_numpy()
    return listed(label, lines, "warning", FindingCode.ORDER,
                  lambda i: (f"topic {names[i]} starts again here after other topics; it is "
                             "scored as inex_eval 3.1 reads it (in the in-context tasks the ranks "
                             "go on from the topic before)"),
                  lambda n: (f"{counted(n, 'more topic')} start{'s' if n == 1 else ''} again "
                             "after other topics"))


def _rank_order(table: pd.DataFrame, label: str, codes: _Codes) -> list[Finding]:
    findings = []
    ordered = np.lexsort((table["order"].to_numpy(), codes.topic))  # by topic, then order
    topic = codes.topic[ordered]
    same = topic[1:] == topic[:-1]
    for column, bad_step, what in (("rank", lambda d: d <= 0, "increase"), ("score", lambda d: d > 0, "decrease")):
        step = np.diff(table[column].to_numpy()[ordered])
        bad = same & (bad_step(step) | np.isnan(step))
        if bad.any():
            line = int(table["line"].to_numpy()[ordered][1:][bad][0])
            findings.append(
                Finding(label, line, "info", FindingCode.ORDER, f"{column} does not {what} with the line order; "
                        "the ranking is the line order (as in inex_eval)")
            )
    return findings
