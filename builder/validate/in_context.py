"""Rules of the in-context tasks over a FOL run table, as inex_eval 3.1 enforces them.

- An article's results must be contiguous within its topic: inex_eval ranks an article where
  it first appears and rejects a run whose article comes back after another one ("article
  results are interleaved ... not allowed in inContext tasks").
- Best in context allows one entry point per article: a second consecutive line of the same
  article is rejected ("multiple results from single article").

inex_eval stops at the first offence; we report every offending line (up to
``builder.findings.LISTED`` per rule, then a count), each naming where the article was seen
before. Only topics of the qrels are checked, since inex_eval skips the lines of the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, counted, listed
from builder.validate.fol_run import topic_epochs


def validate_in_context(
    table: pd.DataFrame, label: str, topics: Collection[str] | None = None, best: bool = False
) -> list[Finding]:
    """Errors for interleaved articles (and, with ``best``, for a second entry point)."""
    if topics is not None:
        table = table[table["topic"].isin(set(topics))]
    if len(table) == 0:
        return []
    # Topics and files as integer codes (pandas' factorize), names only in messages.
    topic_code, topic_names = pd.factorize(table["topic"])
    file_code, file_names = pd.factorize(table["file"])
    # A topic that starts again after others counts its articles anew (inex_eval's epochs).
    line = table["line"].to_numpy(np.int64)
    by_line = np.argsort(line, kind="stable")
    epoch = np.empty(len(line), dtype=np.int64)
    epoch[by_line] = topic_epochs(topic_code[by_line], np.ones(len(line), bool))
    ordered = np.lexsort((table["order"].to_numpy(), topic_code))  # by topic, then rank
    topic = np.asarray(topic_names, dtype=object)[topic_code[ordered]]
    file = np.asarray(file_names, dtype=object)[file_code[ordered]]
    topic_code, file_code = topic_code[ordered], file_code[ordered]
    line, epoch = line[ordered], epoch[ordered]
    same_article = np.r_[False, (topic_code[1:] == topic_code[:-1])
                         & (file_code[1:] == file_code[:-1]) & (epoch[1:] == epoch[:-1])]

    block = ~same_article
    blocks = pd.DataFrame({"topic": topic[block], "file": file[block], "line": line[block]})
    seen = (pd.Series(line[block])
            .groupby([topic_code[block], epoch[block], file_code[block]], sort=False)
            .transform("first").to_numpy())
    again = blocks["line"].to_numpy() != seen
    a_topic, a_file = blocks["topic"].to_numpy()[again], blocks["file"].to_numpy()[again]
    a_seen = seen[again]
    findings = _capped(
        label,
        blocks["line"].to_numpy()[again],
        FindingCode.ORDER,
        lambda i: f"article results are interleaved in topic {a_topic[i]}, article id: "
        f"{a_file[i]} (first seen on line {a_seen[i]}): interleaved results are not allowed "
        "in in-context tasks",
    )
    if best:
        block_start = np.maximum.accumulate(np.where(~same_article, np.arange(len(line)), 0))
        extra = np.flatnonzero(same_article)
        findings += _capped(
            label,
            line[extra],
            FindingCode.DUPLICATE,
            lambda i: f"multiple results from single article in topic {topic[extra[i]]}, "
            f"article id: {file[extra[i]]} (first on line {line[block_start[extra[i]]]}): "
            "best in context takes one entry point per article",
        )
    return findings


def _capped(label: str, lines: np.ndarray, code: FindingCode, message: Callable[[int], str]
            ) -> list[Finding]:
    """One finding per offending line, in line order (``listed``: the first ones, then a count
    under the rule's name)."""
    order = np.argsort(lines, kind="stable")
    return listed(label, lines[order], "error", code, lambda k: message(order[k]),
                  lambda n: f"{message(0).split(' in topic')[0]}: {counted(n, 'more line')}")
