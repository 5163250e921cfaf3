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
import pyarrow as pa
import pyarrow.compute as pc

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
    """Parse the text of INEX passage qrels (see ``read_inex_qrels``).

    Columnar: the lines, split once by Python's ``splitlines`` (whose line ends the reader has
    always taken), become one Arrow array, split into fields by Arrow's kernels, and the
    fields are found by position in the flat array of every field (line starts from the
    list offsets): no Python per field or per passage.
    """
    fields = _Fields.of(text)
    counts, line_numbers = fields.counts, np.arange(1, len(fields.counts) + 1)
    keep = counts > 0
    short = keep & (counts < 5)
    if short.any():
        raise QrelsError.at(label, int(line_numbers[short][0]), FindingCode.SYNTAX,
                            "fewer than 5 fields")
    if not keep.any():
        raise QrelsError.at(label, None, FindingCode.EMPTY,
                            "no judgement: the qrels file has no judgement line")
    kept = np.flatnonzero(keep)
    lines_kept = line_numbers[kept]
    articles = pd.DataFrame(
        {
            "topic": fields.column(kept, 0).to_numpy(zero_copy_only=False).astype(object),
            "file": fields.column(kept, 2).to_numpy(zero_copy_only=False).astype(object),
            "rel_chars": _integers(fields.column(kept, 3), lines_kept, label, "rel_chars"),
            "doc_chars": _integers(fields.column(kept, 4), lines_kept, label, "doc_chars"),
            "bep": _integers(fields.column(kept, 5, str(NO_BEP)), lines_kept, label, "BEP"),
        }
    )
    # Topics and files coded in sorted order: sorting and grouping by the codes is sorting
    # and grouping by the texts, on integers.
    topic_code, _ = pd.factorize(articles["topic"], sort=True)
    file_code, files = pd.factorize(articles["file"], sort=True)
    duplicated = pd.Series(topic_code * np.int64(len(files)) + file_code).duplicated().to_numpy()
    if duplicated.any():
        raise QrelsError.at(label, int(lines_kept[duplicated][0]), FindingCode.DUPLICATE,
                            "article judged twice for its topic")

    passages, owner = _passages(fields, kept, lines_kept, articles, label)
    findings = _findings(articles, passages, owner, label)
    articles_order = np.lexsort((file_code, topic_code))
    relevant = np.flatnonzero(articles["rel_chars"].to_numpy()[owner] > 0)
    relevant = relevant[np.lexsort((passages["length"].to_numpy()[relevant],
                                    passages["offset"].to_numpy()[relevant],
                                    file_code[owner[relevant]], topic_code[owner[relevant]]))]
    return InexQrels(articles.iloc[articles_order].reset_index(drop=True),
                     passages.iloc[relevant][PASSAGE_COLUMNS].reset_index(drop=True), findings)


@dataclass(frozen=True)
class _Fields:
    """Every whitespace-separated field of a text: ``flat`` (Arrow strings), the position of
    each line's first field in it (``starts``) and each line's number of fields (``counts``,
    0 for a blank line)."""

    flat: pa.Array
    starts: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, text: str) -> _Fields:
        # Trimmed first: Arrow's split gives an empty first or last field for a line that
        # starts or ends with whitespace (CRLF, trailing spaces), where str.split gives none.
        lines = pc.utf8_trim_whitespace(pa.array(text.splitlines(), pa.string()))
        split = pc.utf8_split_whitespace(lines)
        counts = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
        counts[pc.equal(lines, "").to_numpy(zero_copy_only=False)] = 0  # [""]: no field
        return cls(split.flatten(), split.offsets.to_numpy()[:-1].astype(np.int64), counts)

    def column(self, lines: np.ndarray, field: int, missing: str = "") -> pa.Array:
        """Field ``field`` (0-based) of each of ``lines``, ``missing`` where a line is shorter."""
        present = self.counts[lines] > field
        taken = self.flat.take(pa.array(np.where(present, self.starts[lines] + field, 0)))
        return pc.if_else(pa.array(present), taken, missing)

    def after(self, lines: np.ndarray, first: int) -> tuple[pa.Array, np.ndarray]:
        """The fields from ``first`` on of each of ``lines``, and the position in ``lines``
        of the line each comes from."""
        extra = np.maximum(self.counts[lines] - first, 0)
        owner = np.repeat(np.arange(len(lines)), extra)
        within = np.arange(len(owner)) - np.repeat(np.cumsum(extra) - extra, extra)
        return self.flat.take(pa.array(self.starts[lines][owner] + first + within)), owner


def _passages(
    fields: _Fields, kept: np.ndarray, line_numbers: np.ndarray, articles: pd.DataFrame,
    label: str,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The highlighted passages (``off:len`` fields from the seventh on), and the row of
    ``articles`` each belongs to."""
    items, owner = fields.after(kept, 6)
    pairs = pc.split_pattern(items, ":", max_splits=1)
    halves = _Fields(pairs.flatten(), pairs.offsets.to_numpy()[:-1].astype(np.int64),
                     pc.list_value_length(pairs).to_numpy(zero_copy_only=False).astype(np.int64))
    every = np.arange(len(owner))
    item_lines = line_numbers[owner]
    offset = _integers(halves.column(every, 0), item_lines, label, "passage offset (off:len)")
    length = _integers(halves.column(every, 1), item_lines, label, "passage length (off:len)")
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
    ), owner


def _integers(cells: pa.Array, line_numbers: np.ndarray, label: str, what: str) -> np.ndarray:
    """Whole numbers as inex_eval reads them (``whole_numbers``); the first other is an error."""
    values, bad, huge = whole_numbers(cells)
    if bad.any():
        raise QrelsError.at(label, int(line_numbers[bad][0]), FindingCode.VALUE,
                            f"{what} is not an integer")
    if huge.any():
        raise QrelsError.at(label, int(line_numbers[huge][0]), FindingCode.VALUE,
                            f"{what} {cells[int(np.flatnonzero(huge)[0])].as_py()} is too large")
    return values


def _findings(articles: pd.DataFrame, passages: pd.DataFrame, owner: np.ndarray, label: str
              ) -> list[Finding]:
    """Warnings on passages that overlap, lie outside their article, or whose lengths do not
    add up to their article's ``rel_chars``; ``owner``: each passage's row of ``articles``
    (one row per (topic, file): grouping by it is grouping by the pair)."""
    findings: list[Finding] = []
    offset, length = passages["offset"].to_numpy(), passages["length"].to_numpy()
    ordered = np.lexsort((length, offset, owner))
    article, start, end = owner[ordered], offset[ordered], (offset + length)[ordered]
    same = article[1:] == article[:-1]
    running_end = pd.Series(end).groupby(article).cummax().to_numpy()
    overlapping = same & (start[1:] < running_end[:-1])
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
    highlighted = np.bincount(owner, weights=length, minlength=len(articles))
    declared = articles["rel_chars"].to_numpy()
    disagree = np.flatnonzero((declared > 0) & (declared != highlighted))
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
