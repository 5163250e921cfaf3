"""INEX passage qrels (FOL): the highlighted characters of each judged article.

One judged article a line, whitespace-separated::

    topic Q0 file rel_chars doc_chars [BEP off:len off:len ...]

``rel_chars`` is the number of highlighted characters (0 for a judged non-relevant article),
``doc_chars`` the article's length, ``BEP`` the best entry point offset. Real files have CRLF
line ends, trailing spaces and passages in any order.

What inex_eval 3.1 does with these numbers, and so what the tables keep:

- the topic's relevant text (the recall base) is the sum of ``rel_chars``, not of the passage
  lengths; an article is relevant when ``rel_chars > 0``, and only then are its passages used;
- the relevant text of a retrieved passage is the sum of its overlaps with each highlighted
  passage, so highlighted passages are *not* merged: overlapping ones count twice, as in the
  program (a warning says so); adjacent ones give the same sums merged or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, InputError
from builder.formats.source import read_text
from builder.formats.text.numbers import whole_numbers

ARTICLE_COLUMNS = ["topic", "file", "rel_chars", "doc_chars", "bep"]
PASSAGE_COLUMNS = ["topic", "file", "offset", "length"]
NO_BEP = -1
"""``bep`` of an article whose line has no BEP field (inex_eval's -1)."""



class QrelsError(InputError):
    """Qrels that cannot be read; the message gives file, line and reason."""


@dataclass
class InexQrels:
    """INEX qrels as two tables.

    articles: one row per judged article (``ARTICLE_COLUMNS``), non-relevant ones with
    ``rel_chars`` 0, sorted by (topic, file).
    passages: one row per highlighted passage (``PASSAGE_COLUMNS``) of a relevant article,
    sorted by (topic, file, offset, length), not merged.
    findings: warnings about the file (overlapping passages, ``rel_chars`` that disagree with
    the passages).
    """

    articles: pd.DataFrame
    passages: pd.DataFrame
    findings: list[Finding] = field(default_factory=list)

    @property
    def doc_chars(self) -> pd.Series:
        """The length of each judged article, by file (the longest, if lines disagree)."""
        return self.articles.groupby("file", sort=False)["doc_chars"].max()

    @property
    def topics(self) -> list[str]:
        """Every topic with a judged article, sorted as inex_eval sorts them (as strings)."""
        return sorted(self.articles["topic"].unique().tolist())


def read_inex_qrels(path: Path | str, label: str | None = None) -> InexQrels:
    """Read INEX passage qrels; raise ``QrelsError`` (file:line: reason) on unreadable lines."""
    label = label or str(path)
    return parse_inex_qrels(read_text(path), label)


def parse_inex_qrels(text: str, label: str = "<qrels>") -> InexQrels:
    """Parse the text of INEX passage qrels (see ``read_inex_qrels``)."""
    lines = pd.Series(text.splitlines(), dtype=object)
    tokens = lines.str.split()
    counts = tokens.str.len().to_numpy()
    line_numbers = np.arange(1, len(lines) + 1)
    keep = counts > 0
    short = keep & (counts < 5)
    if short.any():
        raise QrelsError.at(label, int(line_numbers[short][0]), FindingCode.SYNTAX,
                            "fewer than 5 fields")
    if not keep.any():
        raise QrelsError.at(label, None, FindingCode.EMPTY,
                            "no judgement: the qrels file has no judgement line")
    tokens, counts, line_numbers = tokens[keep], counts[keep], line_numbers[keep]

    articles = pd.DataFrame(
        {
            "topic": tokens.str[0].astype(str).to_numpy(),
            "file": tokens.str[2].astype(str).to_numpy(),
            "rel_chars": _integers(tokens.str[3], line_numbers, label, "rel_chars"),
            "doc_chars": _integers(tokens.str[4], line_numbers, label, "doc_chars"),
            "bep": _integers(tokens.str[5].astype(object).fillna(str(NO_BEP)), line_numbers, label, "BEP"),
        }
    )
    duplicated = articles.duplicated(["topic", "file"]).to_numpy()
    if duplicated.any():
        raise QrelsError.at(label, int(line_numbers[duplicated][0]), FindingCode.DUPLICATE,
                            "article judged twice for its topic")

    passages = _passages(tokens, counts, line_numbers, articles, label)
    findings = _findings(articles, passages, label)
    articles = articles.sort_values(["topic", "file"], kind="stable", ignore_index=True)
    relevant = passages.merge(articles.loc[articles["rel_chars"] > 0, ["topic", "file"]])
    relevant = relevant.sort_values(PASSAGE_COLUMNS, kind="stable", ignore_index=True)
    return InexQrels(articles, relevant[PASSAGE_COLUMNS], findings)


def _passages(
    tokens: pd.Series, counts: np.ndarray, line_numbers: np.ndarray, articles: pd.DataFrame, label: str
) -> pd.DataFrame:
    per_line = np.maximum(counts - 6, 0)
    items = tokens.str[6:].explode().dropna()
    owner = np.repeat(np.arange(len(tokens)), per_line)
    pairs = items.astype(str).str.split(":", n=1, expand=True).reindex(columns=[0, 1])
    item_lines = line_numbers[owner]
    offset = _integers(pairs[0], item_lines, label, "passage offset (off:len)")
    length = _integers(pairs[1], item_lines, label, "passage length (off:len)")
    if (length < 0).any():
        raise QrelsError.at(label, int(item_lines[length < 0][0]), FindingCode.VALUE,
                            "negative passage length")
    return pd.DataFrame(
        {
            "topic": articles["topic"].to_numpy()[owner],
            "file": articles["file"].to_numpy()[owner],
            "offset": offset,
            "length": length,
            "line": item_lines,
            "doc_chars": articles["doc_chars"].to_numpy()[owner],
        }
    )


def _integers(cells: pd.Series, line_numbers: np.ndarray, label: str, what: str) -> np.ndarray:
    """Whole numbers as inex_eval reads them (``whole_numbers``); the first other is an error."""
    values, bad, huge = whole_numbers(cells.fillna(""))
    if bad.any():
        raise QrelsError.at(label, int(line_numbers[bad][0]), FindingCode.VALUE,
                            f"{what} is not an integer")
    if huge.any():
        raise QrelsError.at(label, int(line_numbers[huge][0]), FindingCode.VALUE,
                            f"{what} {cells.to_numpy()[huge][0]} is too large")
    return values


def _findings(articles: pd.DataFrame, passages: pd.DataFrame, label: str) -> list[Finding]:
    findings: list[Finding] = []
    ordered = passages.sort_values(PASSAGE_COLUMNS, kind="stable")
    end = (ordered["offset"] + ordered["length"]).to_numpy()
    same = (ordered["topic"].to_numpy()[1:] == ordered["topic"].to_numpy()[:-1]) & (
        ordered["file"].to_numpy()[1:] == ordered["file"].to_numpy()[:-1]
    )
    running_end = pd.Series(end).groupby([ordered["topic"].to_numpy(), ordered["file"].to_numpy()]).cummax()
    overlapping = same & (ordered["offset"].to_numpy()[1:] < running_end.to_numpy()[:-1])
    if overlapping.any():
        findings.append(
            Finding(
                label,
                None,
                "warning",
                FindingCode.OVERLAP,
                f"{int(overlapping.sum())} highlighted passages overlap an earlier one of their "
                "article; inex_eval counts the shared text once per passage",
            )
        )
    findings += _outside_article(passages, label)
    highlighted = passages.groupby(["topic", "file"], sort=False)["length"].sum()
    declared = articles.set_index(["topic", "file"])["rel_chars"]
    compared = pd.concat([declared, highlighted.rename("highlighted")], axis=1).fillna(0)
    disagree = compared[(compared["rel_chars"] > 0) & (compared["rel_chars"] != compared["highlighted"])]
    if len(disagree):
        findings.append(
            Finding(
                label,
                None,
                "warning",
                FindingCode.INCONSISTENT,
                f"{len(disagree)} relevant articles have rel_chars different from the length of "
                "their passages; inex_eval takes rel_chars as the article's relevant text",
            )
        )
    return findings


def _outside_article(passages: pd.DataFrame, label: str) -> list[Finding]:
    """Passages starting before the article (negative offset) or ending after its
    ``doc_chars``: inex_eval uses them as they are."""
    size = passages["doc_chars"]
    end = (passages["offset"] + passages["length"]).to_numpy()
    cases = (
        (passages["offset"].to_numpy() < 0, "highlighted passages start before their article"),
        (end > size.to_numpy(), "highlighted passages end beyond their article's doc_chars"),
    )
    findings = []
    for flagged, what in cases:
        if flagged.any():
            first = int(passages["line"].to_numpy()[flagged].min())
            findings.append(Finding(label, first, "warning", FindingCode.OUTSIDE,
                                    f"{int(flagged.sum())} {what}, "
                                    "the first on this line; inex_eval counts them as written"))
    return findings
