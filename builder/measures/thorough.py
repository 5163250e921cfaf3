"""The thorough family (inex_eval 3.1 ``-t``, and HiXEval, seed 003): its measures and its
score table.

Results may overlap. The inex_eval part (counts, iP[x], AiP, MAiP) is the focused
computation without the overlap rule: every result counts its full size and highlighted text,
as inex_eval 3.1 ``-t`` prints the same numbers as ``-f`` on runs without overlap. The HiXEval
part (P@r, R@r, F@r, MAP, iMAP; ``builder.measures.hixeval``) weighs text seen again by
``alpha``; its summary rows are the mean over the averaged topics, as the focused ones.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from builder.formats.inex_qrels import InexQrels
from builder.measures import hixeval
from builder.measures.focused import declare_inex_eval_measures
from builder.measures.focused_scores import (
    focused_score_table,
    focused_wide,
    summary_rows,
    topic_sums,
)
from builder.measures.hixeval_elements import (
    derive_element_assessments,
    element_seen_rsize,
    trel_across_elements,
)
from builder.measures.passage_ranking import RankedPassages, highlight_index
from builder.measures.registry import Aggregation
from builder.scores import SCORE_COLUMNS

FAMILY = hixeval.FAMILY

declare_inex_eval_measures(FAMILY)
hixeval.declare()


def hixeval_inputs(ranked: RankedPassages, qrels: InexQrels, alpha: float,
                   corpus: Path | None) -> tuple[np.ndarray, np.ndarray | None]:
    """What HiXEval takes off each result, and its per-line Trel (None: across documents).

    Passages: the union of the text seen before (``hixeval.seen_rsize``). Element results:
    the element tree's rule, and with alpha < 1 Trel across all elements of the judged
    articles of the corpus (``hixeval_elements``)."""
    seen = hixeval.seen_rsize(ranked, highlight_index(qrels))
    element = ranked.lines["element"]
    if not element.any():
        return seen, None
    seen = np.where(element, element_seen_rsize(ranked), seen)
    if alpha >= 1 or corpus is None:
        return seen, None
    from builder.formats.xml_corpus import open_index  # lxml and processes: only when asked

    across = trel_across_elements(derive_element_assessments(qrels, open_index(corpus)),
                                  ranked.topics)
    topic = ranked.lines["topic_code"]
    return seen, np.where(element, across[topic], ranked.total_rsize[topic])


def thorough_score_table(
    ranked: RankedPassages, qrels: InexQrels, complete: bool, alpha: float,
    corpus: Path | None = None,
) -> pd.DataFrame:
    """The long score table (``SCORE_COLUMNS``): the focused measures, then HiXEval's."""
    scores = focused_score_table(ranked, complete, FAMILY)
    seen, trel = hixeval_inputs(ranked, qrels, alpha, corpus)
    measures = hixeval.hixeval_table(ranked, seen, alpha, trel=trel)
    keys = ["run", "topic", "run_code", "topic_code"]
    wide = pd.concat([ranked.groups[keys], measures], axis=1)
    if complete:
        frame = focused_wide(ranked, True)[keys]
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
