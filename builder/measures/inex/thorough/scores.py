"""The thorough family (inex_eval 3.1 ``-t``, and HiXEval, seed 003): its measures and its
score table.

Results may overlap. The inex_eval part (counts, iP[x], AiP, MAiP) is the focused computation on
what each result adds: as inex_eval 3.1 ``-t`` counts them, in an article with highlighted text for
the topic a result's size and highlighted text are its characters not retrieved by an earlier result
(text retrieved twice counts once) and a passage of unknown offset counts 0 characters (18 under
``-f``); in any other article (not relevant, or not in the qrels) every result counts in full.
Option ``overlap: each`` counts every result in full. The HiXEval part (P@r, R@r, F@r, MAP, iMAP;
``builder.measures.inex.thorough.hixeval``) weighs text seen again by ``alpha``; its summary rows
are the mean over the averaged topics, as the focused ones.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from builder.contract import SCORE_COLUMNS
from builder.formats.inex.fol_run import UNKNOWN_OFFSET
from builder.formats.inex.qrels import InexQrels
from builder.measures.inex.focused import xcg
from builder.measures.inex.focused.precision import declare_inex_eval_measures
from builder.measures.inex.focused.scores import (
    focused_score_table,
    focused_wide,
    summary_rows,
    topic_sums,
)
from builder.measures.inex.ranking import RankedPassages, highlight_index
from builder.measures.inex.thorough import hixeval
from builder.measures.inex.thorough.hixeval_elements import (
    derive_element_assessments,
    element_seen_rsize,
    trel_across_elements,
)
from builder.measures.registry import Aggregation

FAMILY = hixeval.FAMILY

declare_inex_eval_measures(FAMILY, sizes=(
    "As inex_eval 3.1 -t: in an article with highlighted text for the topic, text retrieved by "
    "two results counts once and a passage of unknown offset counts 0 characters; option "
    "overlap: each counts every result in full."), with_average_precision=False)
xcg.declare(FAMILY)  # on the results counted once, as the inex_eval measures
hixeval.declare()


def counted_once(ranked: RankedPassages, seen: np.ndarray, seen_highlighted: np.ndarray
                 ) -> RankedPassages:
    """``ranked`` with each result's size and highlighted size cut to what earlier results of
    its article had not retrieved (``hixeval.seen_before``), unknown passages of a relevant
    article sized 0: what inex_eval 3.1 ``-t`` adds up."""
    lines = dict(ranked.lines)
    unknown = (lines["start"] == UNKNOWN_OFFSET) & lines["relevant"]
    lines["size"] = np.where(unknown, 0, lines["size"] - seen)
    lines["rsize"] = lines["rsize"] - seen_highlighted
    return dataclasses.replace(ranked, lines=lines)


def hixeval_inputs(ranked: RankedPassages, qrels: InexQrels, alpha: float,
                   corpus: Path | None, seen: np.ndarray, trel: str = "paper",
                   partly_seen: str = "paper") -> tuple[np.ndarray, np.ndarray | None]:
    """What HiXEval takes off each result, and its per-line Trel (None: across documents).

    Passages: the union of the text seen before (``seen``: ``hixeval.seen_before``), the
    paper's rule being for disjoint descendants only. Element results, ``partly_seen``:
    "paper", the element tree's rule (a partly seen element loses the rsize of every earlier
    descendant, nested ones each time, so rval can go negative), or "union", the highlighted
    text of it seen before, once. ``trel``: "paper", Trel across all elements of the judged
    articles of the corpus when alpha < 1 and a corpus is given (for every result, passages
    included: it is the qrels' and the corpus's, not the run's), else across documents;
    "documents", across documents always (``hixeval_elements``)."""
    element = ranked.lines["element"]
    if element.any() and partly_seen == "paper":
        seen = np.where(element, element_seen_rsize(ranked), seen)
    if alpha >= 1 or corpus is None or trel == "documents":
        return seen, None
    from builder.formats.xml.corpus_index import open_index  # lxml and processes: only when asked

    across = trel_across_elements(derive_element_assessments(qrels, open_index(corpus)),
                                  ranked.topics)
    return seen, across[ranked.lines["topic_code"]]


def thorough_score_table(
    ranked: RankedPassages, qrels: InexQrels, complete: bool, alpha: float,
    corpus: Path | None = None, overlap: str = "once", no_relevant_text: str = "zero",
    ip_recall: str = "inex_eval", hixeval_trel: str = "paper", partly_seen: str = "paper",
) -> pd.DataFrame:
    """The long score table (``SCORE_COLUMNS``): the focused measures (``overlap``: "once"
    counts text retrieved twice once, as inex_eval -t; "each" counts every result in full),
    then HiXEval's (``hixeval_trel``, ``partly_seen``: ``hixeval_inputs``)."""
    seen_chars, seen_highlighted = hixeval.seen_before(ranked, highlight_index(qrels))
    counted = counted_once(ranked, seen_chars, seen_highlighted) if overlap == "once" else ranked
    scores = focused_score_table(counted, complete, FAMILY, no_relevant_text, ip_recall)
    seen, trel = hixeval_inputs(ranked, qrels, alpha, corpus, seen_highlighted, hixeval_trel,
                                partly_seen)
    measures = hixeval.hixeval_table(ranked, seen, alpha, trel=trel)
    keys = ["run", "topic", "run_code", "topic_code"]
    wide = pd.concat([ranked.groups[keys], measures], axis=1)
    if complete:
        frame = focused_wide(ranked, True, measures=())[keys]
        wide = frame.merge(wide, on=keys, how="left").fillna(0.0)
    wide = wide.sort_values(["run_code", "topic_code"])
    names = list(measures.columns)
    per_topic = wide.melt(id_vars=["run", "topic"], value_vars=names, var_name="measure")
    sums, counts = topic_sums(wide, names, len(ranked.runs))
    present = counts > 0
    num_q = np.full(len(counts), len(ranked.topics)) if complete else counts
    summary = summary_rows(list(np.asarray(ranked.runs, dtype=object)[present]), names,
                           Aggregation.MEAN.finish(sums[present], num_q[present, None]))
    return pd.concat([scores, per_topic[SCORE_COLUMNS], summary], ignore_index=True)
