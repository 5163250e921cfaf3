"""Rank-biased precision: trec_eval 10.0's ``rbp`` and ``rbp_resid`` (Moffat & Zobel,
"Rank-biased precision for measurement of retrieval effectiveness", ACM TOIS 27(1), 2008).
(``ndcg`` and its kin with a gain per level, ``-m ndcg.1=3,2=9``, are
``builder.measures.adhoc.dcg``'s, through ``trec_eval.gain_levels``.)

Gains follow trec_eval's ``setup_gains`` (``gain_init.c``) without parameters: relevance level
i of a topic gains i; documents not in the qrels or judged negative gain 0. ``rbp`` then rescales a topic's gains to [0, 1] when they leave it, g -> (g - min) / (max -
min) over the levels 0 .. the topic's highest level (``m_rbp.c``).
"""

from __future__ import annotations

import numpy as np

from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.judged.ranking import JudgedRanking
from builder.measures.adhoc.trec_eval.params import RBP_PERSISTENCE
from builder.measures.adhoc.trec_measure import TREC_EVAL_10, single_value_measure


def _topic_highest(judged: JudgedRanking) -> np.ndarray:
    """Each topic's highest relevance level in the qrels (0 when none is positive)."""
    counts = np.diff(judged.ideal_start)
    first = np.minimum(judged.ideal_start[:-1], max(len(judged.ideal_gains) - 1, 0))
    top = judged.ideal_gains[first] if len(judged.ideal_gains) else np.zeros(len(counts))
    return np.where(counts > 0, top, 0.0)


def _powers(p: float, depth: int) -> np.ndarray:
    """p^0 .. p^depth, each the previous times p as m_rbp.c's loop multiplies (p ** k rounds
    differently in the last bit, which a 4-decimal mean can show)."""
    return np.cumprod(np.r_[1.0, np.full(depth, p)])


def _depth(grid: AdhocGrid) -> int:
    """The deepest rank of the grid: the powers p^0 .. p^depth cover every rank and N."""
    return int(max(grid.cells.size.max(initial=0), grid.judged.rank.max(initial=0)))


def rank_biased_precision(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """rbp = (1 - p) sum_i g_i p^(i-1) over the retrieved ranks i (m_rbp.c), p the
    persistence (``-m rbp.p=0.95``); gains rescaled to [0, 1] when the levels leave it."""
    judged = grid.judged
    p = grid.params.persistence("rbp")
    # Only the rows of positive gain add to rbp: the others add 0.0, which leaves a sum's
    # bits as they are.
    at = np.flatnonzero(judged.rel > 0)
    cell, rel = judged.cell[at], judged.rel[at]
    highest = _topic_highest(judged)[grid.topic][cell]
    gain = rel.astype(np.float64)
    # Rescaled to [0, 1] when the levels leave it (min is level 0's gain, 0).
    gain = np.where(highest > 1, gain / np.where(highest > 1, highest, 1.0), gain)
    terms = gain * _powers(p, _depth(grid))[judged.rank[at] - 1]
    rbp = (1.0 - p) * np.bincount(cell, weights=terms, minlength=grid.num_cells)
    return {grid.name("rbp"): rbp}


MOFFAT_ZOBEL = "Moffat & Zobel, ACM TOIS 2008"
RBP = single_value_measure(
    "rbp", rank_biased_precision,
    "Rank-biased precision: (1 - p) x sum over ranks i of gain(i) x p^(i-1), persistence "
    "p = 0.9; gains are relevance levels, divided by the topic's highest level when it "
    "exceeds 1.",
    f"{MOFFAT_ZOBEL}; {TREC_EVAL_10} m_rbp.c",
    params={"p": RBP_PERSISTENCE},
    display_name="RBP",
)


def rbp_residual(grid: AdhocGrid) -> dict[str, np.ndarray]:
    """rbp_resid = p^N + (1 - p) sum over the unjudged retrieved of p^(i-1) (m_rbp_resid.c),
    0 when none is unjudged; unjudged: not in the qrels, or judged negative."""
    judged = grid.judged
    p = grid.params.persistence("rbp_resid")
    powers = _powers(p, _depth(grid))
    unjudged = np.flatnonzero(judged.rel < 0)
    cell = judged.cell[unjudged]
    weight = powers[judged.rank[unjudged] - 1]
    any_unjudged = np.bincount(cell, minlength=grid.num_cells) > 0
    tail = powers[grid.cells.size.astype(np.int64)]
    resid_sum = np.bincount(cell, weights=weight, minlength=grid.num_cells)
    return {grid.name("rbp_resid"): np.where(any_unjudged, tail + (1.0 - p) * resid_sum, 0.0)}


RBP_RESID = single_value_measure(
    "rbp_resid", rbp_residual,
    "RBP's residual: how much rbp could rise if every unjudged retrieved document were "
    "relevant, p^N + (1 - p) x sum over unjudged ranks i of p^(i-1); 0 when none is "
    "unjudged.",
    f"{MOFFAT_ZOBEL}; {TREC_EVAL_10} m_rbp_resid.c",
    params={"p": RBP_PERSISTENCE},
    display_name="RBP residual",
)
