"""HiXEval for the thorough task (seed 003, section 3), on character passages.

A result e at rank r is not seen (NS), fully seen (FS) or partly seen (PS) by the results
ranked above it. Its relevance value (seed 003, rval_r(e)):

    rval_r(e) = rsize(e)                          if e is NS
              = rsize(e) - alpha * rsize(e)       if e is FS
              = rsize(e) - alpha * sum rsize(e')  if e is PS (e' the earlier results inside e)

On passages the three cases are one formula: ``rval = rsize - alpha * seen_rsize``, where
``seen_rsize`` is the highlighted text of e already covered by earlier results of the same
article (0 for NS, rsize for FS). Taking the union of the earlier passages rather than the sum
of their rsize keeps text seen twice from being taken off twice (the paper's elements
e' are disjoint descendants; overlapping passages need not be).

    P@r = 1/r sum_{i<=r} rval_i / size_i      R@r = 1/Trel sum_{i<=r} rval_i
    F@r = 2 P@r R@r / (P@r + R@r)

alpha = 1 is ``overlap=on``, alpha = 0 ``overlap=off``. Trel: the paper takes the highlighted
characters across documents for alpha = 1 and across all elements for alpha < 1; the latter
needs the element tree, read from the corpus when the task has one (option ``hixeval_trel``:
"paper", or "documents" always). Element results partly seen: the paper's sum over the earlier
descendants, or the union of the highlighted text seen (option ``hixeval_partly_seen``);
``builder.measures.inex.thorough.scores.hixeval_inputs`` applies both.

Values outside [0, 1] (``OUTSIDE``): with Trel across documents and alpha < 1, text retrieved
twice counts twice, so R@r reaches 2 and MAP more than 1 (two copies of the highlighted
passage at alpha = 0: R = 2); with the paper's sum, a partly seen element whose earlier
descendants nest loses their text twice and its rval is negative (paragraph, then its
section, then its article, each holding the same 5 highlighted characters: -5), and so can P@r.
MAP averages P@r at the natural recall levels (sum of P@r times the recall gained at r);
iMAP averages the best P@r with R@r >= x over the 11 levels x = 0.0, 0.1, ..., 1.0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.measures.bibliography import cite
from builder.measures.inex.overlap import HighlightIndex, first_overlaps
from builder.measures.inex.ranking import RankedPassages, article_keys
from builder.measures.registry import Measure, register
from builder.measures.running_sums import segment_cumsum

FAMILY = "thorough"
DEFAULT_CUTOFFS = (1, 5, 10, 25, 50, 100)
STANDARD_LEVELS = np.round(np.arange(11) / 10, 1)
HIXEVAL = cite("pehcevski2006", "section 3")
OUTSIDE = (
    "Can fall outside [0, 1]: at alpha < 1 with Trel across documents (option hixeval_trel: "
    "documents, or no corpus) text retrieved twice counts twice and recall reaches 2; with the "
    "paper's sum for partly seen elements (option hixeval_partly_seen: paper) nested earlier "
    "descendants are taken off twice and rval, so precision, can be negative.")


def declare(cutoffs: tuple[int, ...] = DEFAULT_CUTOFFS) -> None:
    """Declare the HiXEval measures, computed by ``hixeval_table`` (called once by
    ``builder.measures.inex.thorough.scores``, after the inex_eval measures the family shares
    with the focused one)."""
    def hixeval(name: str, description: str, params: dict[str, int] | None = None) -> None:
        register(Measure(name, FAMILY, description, HIXEVAL, params or {}, differs=OUTSIDE,
                         computed_by=hixeval_table))

    for r in cutoffs:
        hixeval(f"P@{r}", f"HiXEval precision at rank {r}: mean of rval/size.", {"rank": r})
        hixeval(f"R@{r}", f"HiXEval recall at rank {r}: sum of rval over Trel.", {"rank": r})
        hixeval(f"F@{r}", f"Harmonic mean of P@{r} and R@{r}.", {"rank": r})
    hixeval("MAP", "HiXEval average precision at natural recall levels.")
    hixeval("iMAP", "HiXEval interpolated precision averaged over 11 recall levels.")


def seen_rsize(ranked: RankedPassages, highlights: HighlightIndex) -> np.ndarray:
    """Highlighted characters of each passage already covered by earlier passages of its article."""
    return seen_before(ranked, highlights)[1]


def seen_before(ranked: RankedPassages, highlights: HighlightIndex) -> tuple[np.ndarray, np.ndarray]:
    """Characters, and highlighted characters, of each passage already covered by earlier
    passages of its article (of its topic, run and epoch), in the articles with highlighted
    text for the topic: inex_eval 3.1 -t keeps what was retrieved of those only (any other
    article counts every passage in full). Passages of unknown offset cover nothing.

    Only articles with overlapping passages are expanded: their passages are cut into
    elementary segments at every boundary, each segment is first covered at the smallest rank
    of the passages over it (``np.minimum.at``), and a passage has seen the segments first
    covered before it. Work is the number of (passage, segment) pairs of those articles.
    """
    lines = ranked.lines
    n = len(lines["start"])
    seen, seen_highlighted = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    known = lines["relevant"] & (lines["start"] >= 0)
    article_key = article_keys(lines["group"], lines["epoch"], lines["file_code"])
    later, _ = first_overlaps(np.where(known, article_key, -1), lines["start"], lines["end"])
    later = later[known[later]]
    involved = np.isin(article_key, np.unique(article_key[later])) & known
    rows = np.flatnonzero(involved)
    if not len(rows):
        return seen, seen_highlighted
    key, start, end = article_key[rows], lines["start"][rows], lines["end"][rows]
    cuts = np.unique(np.concatenate([np.stack([key, start], 1), np.stack([key, end], 1)]), axis=0)
    cut_key = cuts[:, 0] * (np.int64(1) << 32) + cuts[:, 1]
    first_cut = np.searchsorted(cut_key, key * (np.int64(1) << 32) + start)
    last_cut = np.searchsorted(cut_key, key * (np.int64(1) << 32) + end)
    spans = last_cut - first_cut
    owner = np.repeat(np.arange(len(rows)), spans)
    segment = np.arange(spans.sum()) - np.repeat(np.cumsum(spans) - spans, spans) + first_cut[owner]
    first_rank = np.full(len(cuts), np.iinfo(np.int64).max)
    np.minimum.at(first_rank, segment, rows[owner])
    article = lines["article"][rows][owner]
    a, b = cuts[segment, 1], cuts[segment + 1, 1]
    segment_rsize = highlights.covered_before(article, b) - highlights.covered_before(article, a)
    earlier = first_rank[segment] < rows[owner]
    seen[rows] = np.bincount(owner[earlier], weights=(b - a)[earlier],
                             minlength=len(rows)).astype(np.int64)
    seen_highlighted[rows] = np.bincount(owner[earlier], weights=segment_rsize[earlier],
                                         minlength=len(rows)).astype(np.int64)
    return seen, seen_highlighted


def hixeval_table(
    ranked: RankedPassages, seen: np.ndarray, alpha: float, cutoffs: tuple[int, ...] = DEFAULT_CUTOFFS,
    trel: np.ndarray | None = None,
) -> pd.DataFrame:
    """HiXEval measures per (run, topic) group, one column per measure; ``trel`` per line
    (default: the highlighted characters across documents, inex_eval's recall base)."""
    lines = ranked.lines
    group = lines["group"]
    first = ranked.groups["first"].to_numpy()
    n_groups = len(first)
    rank = np.arange(len(group)) - first[group] + 1
    rval = lines["rsize"] - alpha * seen
    size = lines["size"].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(size > 0, rval / size, 0.0)
    if trel is None:
        trel = ranked.total_rsize[lines["topic_code"]]
    trel = np.asarray(trel, dtype=np.float64)
    precision = _group_cumsum(gain, group) / rank
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(trel > 0, _group_cumsum(rval, group) / trel, 0.0)
    columns: dict[str, np.ndarray] = {}
    counts = np.bincount(group, minlength=n_groups)
    last = first + counts - 1
    for r in cutoffs:
        at = np.minimum(first + r - 1, last)
        p = _group_cumsum(gain, group)[at] / r
        rec = recall[at]
        columns[f"P@{r}"] = p
        columns[f"R@{r}"] = rec
        with np.errstate(divide="ignore", invalid="ignore"):
            columns[f"F@{r}"] = np.where(p + rec > 0, 2 * p * rec / (p + rec), 0.0)
    gained = np.diff(np.concatenate([[0.0], recall]))
    gained[first] = recall[first]
    columns["MAP"] = np.bincount(group, weights=precision * gained, minlength=n_groups)
    best = np.zeros((n_groups, len(STANDARD_LEVELS)))
    for j, level in enumerate(STANDARD_LEVELS):
        reach = recall >= level
        np.maximum.at(best[:, j], group[reach], precision[reach])
    columns["iMAP"] = best.mean(axis=1)
    return pd.DataFrame(columns)


def _group_cumsum(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Running sums within each (run, topic) group: its own values only (``running_sums``)."""
    return segment_cumsum(np.asarray(values, np.float64), group)
