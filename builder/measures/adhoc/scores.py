"""Ad hoc (document ranking) measures, as trec_eval 9.0.8 computes them, over all runs at once.

Each measure is declared once, beside its function, in the module of its concept
(``retrieved_set``, ``precision``, ``interpolation``, ``incomplete_judgements``, ``dcg``,
``gains``, ``graded``); ``TREC_EVAL_TABLE`` lists them in the order trec_eval prints them
(``measures.c``'s ``te_trec_measures``, then the measures beyond trec_eval), the order of the
registry, of ``-m all_trec`` and of the score table. Every value is computed per (run, topic)
cell of a ``JudgedRanking`` (score descending, docno descending on ties, cut at depth ``-M``),
through an ``AdhocGrid`` that computes the intermediates the measures share once.

Besides the measures of the TREC appendices, trec_eval 9.0.8's others (``gm_bpref``,
``Rprec_mult_*``, ``map_cut_*``, ``relative_P_*``, ``set_relative_P``, ``set_map``,
``num_nonrel_judged_ret``) follow it too, as do its experimental gain measures (``utility``,
``binG``, ``G``, ``ndcg_rel``, ``Rndcg``) and 10.0's ``rbp``, ``rbp_resid`` and ``unj_*``.
``relstring``, a string (the relevance of the first documents), has its place in the table
but no value here: it is text, made from the judged rankings for the trec layout
(``builder.measures.adhoc.judged.relstring``).

Where we differ from trec_eval 9.0.8: interpolated precision (``iprec_at_recall_*`` and
``11pt_avg``) rounds the recall cutoff exactly, ceil(x * R), as the NIST appendices and
trec_eval 8.1 do; ``trec_eval_9`` and ``lround`` (10.0) are options (see
``builder.measures.adhoc.interpolation``). A duplicate docno within a topic is an error that
rejects the run (trec_eval stops on it too, but only within the depth cut).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from builder.measures.adhoc import (
    dcg,
    gains,
    graded,
    incomplete_judgements,
    interpolation,
    precision,
    retrieved_set,
)
from builder.measures.adhoc.grid import AdhocGrid
from builder.measures.adhoc.interpolation import RECALL_LEVELS
from builder.measures.adhoc.judged.ranking import JudgedRanking
from builder.measures.adhoc.judged.relstring import RELSTRING
from builder.measures.adhoc.trec_eval.params import CUTOFFS, AdhocParams
from builder.measures.adhoc.trec_eval.profiles import Interpolation
from builder.measures.adhoc.trec_measure import (  # noqa: F401 (FAMILY is read from here)
    FAMILY,
    TrecMeasure,
)
from builder.measures.registry import register

TREC_EVAL_TABLE: tuple[TrecMeasure, ...] = (
    retrieved_set.NUM_Q,
    retrieved_set.NUM_RET,
    retrieved_set.NUM_REL,
    retrieved_set.NUM_REL_RET,
    precision.MAP,
    precision.GM_MAP,
    precision.RPREC,
    incomplete_judgements.BPREF,
    precision.RECIP_RANK,
    interpolation.IPREC_AT_RECALL,
    precision.P,
    RELSTRING,
    precision.RECALL,
    incomplete_judgements.INFAP,
    incomplete_judgements.GM_BPREF,
    precision.RPREC_MULT,
    retrieved_set.UTILITY,
    interpolation.ELEVEN_POINT_AVERAGE,
    dcg.BIN_G,
    dcg.G,
    dcg.NDCG,
    dcg.NDCG_REL,
    dcg.RNDCG,
    dcg.NDCG_CUT,
    precision.MAP_CUT,
    precision.RELATIVE_P,
    precision.SUCCESS,
    retrieved_set.SET_P,
    retrieved_set.SET_RELATIVE_P,
    retrieved_set.SET_RECALL,
    retrieved_set.SET_MAP,
    retrieved_set.SET_F,
    retrieved_set.NUM_NONREL_JUDGED_RET,
    gains.RBP,
    gains.RBP_RESID,
    incomplete_judgements.UNJ,
    graded.ERR,
    graded.NERR,
    graded.NDCG,
    incomplete_judgements.JUDGED,
)
"""Every ad hoc measure in trec_eval 10.0's printing order (``te_trec_measures``), then the
measures beyond trec_eval."""

for _measure in TREC_EVAL_TABLE:
    for _entry in _measure.measures:
        register(_entry)

TREC_EVAL_DEFAULT: tuple[str, ...] = (
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    *(f"iprec_at_recall_{level}" for level in RECALL_LEVELS),
    *(f"P_{k}" for k in CUTOFFS),
)
"""What trec_eval prints without ``-m``."""
DEFAULT_PARAMS = AdhocParams()


def compute(
    judged: JudgedRanking,
    *,
    rel_level: int,
    interpolation: Interpolation,
    params: AdhocParams = DEFAULT_PARAMS,
    collection_size: int = 0,
    only: Collection[str] | None = None,
) -> dict[str, np.ndarray]:
    """Every per-topic measure on the flat run x topic grid (``JudgedRanking.cell`` order),
    named as trec_eval prints them with ``params`` (its ``-m FAMILY.PARAMS``);
    ``collection_size`` is trec_eval's ``-N`` (utility's d). ``only``: the names wanted
    (default all); the measures none of them needs are not computed, which is what makes
    re-scoring a few measures under many sampled judgements cheap."""
    grid = AdhocGrid(judged, rel_level=rel_level, interpolation=interpolation, params=params,
                     collection_size=collection_size, only=only)
    values: dict[str, np.ndarray] = {}
    for measure in TREC_EVAL_TABLE:
        if measure.compute is not None and grid.wants(measure.name):
            values.update(measure.compute(grid))
    return values if only is None else {name: values[name] for name in values if name in only}


def ranks_read(names: Collection[str], params: AdhocParams = DEFAULT_PARAMS) -> int | None:
    """The deepest rank the measures ``names`` read, None when one of them reads the whole
    ranking (a pool sample then re-scores rankings cut there, at a fraction of the cost).

    Only the measures that declare ``reads_top_k`` read the first k documents alone: not
    ``judged@k`` (trec_eval breaks its ties by docno across the cut) nor gdeval's ``err@k``,
    ``nerr@k`` (their running sums over all rows round differently on a cut ranking, 1e-14)."""
    cutoff = {name: k for measure in TREC_EVAL_TABLE if measure.reads_top_k
              for k, name in zip(params.long_cutoffs(measure.name), params.names(measure.name))}
    if not names or any(name not in cutoff for name in names):
        return None
    return max(cutoff[name] for name in names)
