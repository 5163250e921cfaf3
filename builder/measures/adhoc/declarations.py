"""The ad hoc measures' declarations, in the order trec_eval prints them (``-m all_trec``).

Each is registered once, by name as trec_eval prints it, with its source; computed in
``builder.measures.adhoc.scores``. Measures beyond the issue's list (``gm_bpref``, ``Rprec_mult_*``,
``map_cut_*``, ``relative_P_*``, ``set_relative_P``, ``set_map``, ``num_nonrel_judged_ret``)
follow trec_eval 9.0.8 too, as do its experimental gain measures (``utility``, ``binG``, ``G``,
``ndcg_rel``, ``Rndcg``). Not implemented from ``all_trec``: ``relstring``, a string (the
relevance of the first documents), not a number.
"""

from __future__ import annotations

from builder.measures.adhoc.interpolation import RECALL_LEVELS
from builder.measures.adhoc.trec_eval.params import (
    AT_CUTOFFS,
    CUTOFFS,
    LONG_CUTOFFS,
    RBP_PERSISTENCE,
)
from builder.measures.bibliography import cite
from builder.measures.registry import Aggregation, Measure, register

FAMILY = "adhoc"
SUCCESS_CUTOFFS = LONG_CUTOFFS["success"]
UNJ_CUTOFFS = LONG_CUTOFFS["unj"]
RPREC_MULTIPLES = tuple(f"{i / 5:.2f}" for i in range(1, 11))
INFAP_EPSILON = 0.00001
UTILITY_PARAMS = (1.0, -1.0, 0.0, 0.0)
"""utility's default coefficients p1..p4 (``m_utility.c``)."""

TREC_EVAL = "trec_eval 9.0.8"
TREC_EVAL_10 = "trec_eval 10.0"
TREC_BOOK = cite("buckley2005")
"""Buckley & Voorhees, "Retrieval system evaluation" (the TREC book, 2005): the measures of
the TREC appendix pages."""
INTERPOLATION_DIFFERS = (
    "Cutoff c = ceil(x*R) exactly (trec_eval 8.1, NIST appendices); trec_eval 9.0.8 uses "
    "(long)(x*R+0.9), which gives c = 2 for x = 0.7, R = 3 (float error), and 10.0 uses "
    "lround(x*R), c = 1 for x = 0.1, R = 14. Option interpolation = exact | trec_eval_9 | lround."
)


def _declare(name: str, description: str, source: str = TREC_EVAL, **fields) -> None:
    register(Measure(name=name, family=FAMILY, description=description, source=source, **fields))


_declare("num_q", "Number of topics averaged over.", aggregation=Aggregation.COUNT)
_declare("num_ret", "Documents retrieved (after the depth cut).", aggregation=Aggregation.SUM)
_declare(
    "num_rel",
    "Relevant documents in the qrels (relevance >= level).",
    aggregation=Aggregation.SUM,
    differs="As trec_eval, the summary under -c counts every qrels line of grade > 0, "
    "whatever the level -l (the per-topic rows use the level).",
)
_declare("num_rel_ret", "Relevant documents retrieved.", aggregation=Aggregation.SUM)
_declare(
    "map",
    "Average precision: sum of precision at each relevant retrieved rank, divided by R.",
    f"{TREC_BOOK}, average precision; {TREC_EVAL} m_map.c",
)
_declare(
    "gm_map",
    "Geometric mean over topics of average precision, each floored at 0.00001.",
    f"{TREC_EVAL} m_gm_map.c",
    aggregation=Aggregation.GMEAN,
)
_declare("Rprec", "Precision after R documents retrieved.", f"{TREC_BOOK}, R-precision; m_Rprec.c")
_declare(
    "bpref",
    "Binary preference: 1 - (judged non-relevant above it, capped at R) / min(R, non-relevant), "
    "averaged over the relevant documents.",
    f"{cite('buckley2004')}; {TREC_EVAL} m_bpref.c",
    differs="Negative qrels relevance counts neither as relevant nor as judged non-relevant.",
)
_declare(
    "recip_rank", "Reciprocal rank of the first relevant document.", f"{TREC_EVAL} m_recip_rank.c"
)
for _level in RECALL_LEVELS:
    _declare(
        f"iprec_at_recall_{_level}",
        f"Interpolated precision at recall {_level}: best precision at or after the "
        f"ceil({_level}*R)-th relevant document.",
        f"{TREC_BOOK}, interpolated recall-precision table; trec_eval 8.1",
        params={"recall": float(_level)},
        differs=INTERPOLATION_DIFFERS,
    )
for _k in CUTOFFS:
    _declare(
        f"P_{_k}",
        f"Precision after {_k} documents (missing ones count as non-relevant).",
        f"{TREC_BOOK}, precision at cutoff; m_P.c",
        params={"cutoff": _k},
    )
for _k in CUTOFFS:
    _declare(
        f"recall_{_k}",
        f"Recall after {_k} documents.",
        f"{TREC_EVAL} m_recall.c",
        params={"cutoff": _k},
    )
_declare(
    "infAP",
    "Inferred AP (Yilmaz & Aslam CIKM 2006), trec_eval's deterministic formula over judged, "
    "unjudged-in-pool and unpooled documents.",
    f"{cite('yilmaz2006')}; {TREC_EVAL} m_infap.c",
)
_declare(
    "gm_bpref",
    "Geometric mean over topics of bpref, each floored at 0.00001.",
    f"{TREC_EVAL} m_gm_bpref.c",
    aggregation=Aggregation.GMEAN,
)
for _multiple in RPREC_MULTIPLES:
    _declare(
        f"Rprec_mult_{_multiple}",
        f"Precision after {_multiple} x R documents, cutoff (long)({_multiple}*R + 0.9).",
        f"{TREC_EVAL} m_Rprec_mult.c",
        params={"multiple": float(_multiple)},
    )
_declare(
    "utility",
    "Set utility p1*a + p2*b + p3*c + p4*d with a = relevant retrieved, b = other retrieved "
    "(unjudged ones too), c = relevant missed, d = others missed; default p = (1, -1, 0, 0), "
    "so a - b. Averaged over topics, as trec_eval does.",
    f"{TREC_EVAL} m_utility.c",
    params=dict(zip(("p1", "p2", "p3", "p4"), UTILITY_PARAMS)),
)
_declare(
    "11pt_avg",
    "Mean of the interpolated precision at the 11 recall levels 0.0 ... 1.0.",
    f"{TREC_BOOK}; {TREC_EVAL} m_11pt_avg.c",
    differs=INTERPOLATION_DIFFERS,
)
_declare(
    "binG",
    "Binary G: sum over relevant retrieved of 1 / log2(2 + non-relevant or unjudged above it), "
    "divided by R.",
    f"{TREC_EVAL} m_binG.c (experimental)",
)
_declare(
    "G",
    "Normalized gain: sum over retrieved documents of gain / log2(2 + cost(r) - gained(r)), "
    "gained(r) = gain of ranks 1..r, cost(r) = ideal gain of the first min(r, P) positions + 1 "
    "per rank beyond P (P = documents of positive gain); divided by the total ideal gain. "
    "Gain = qrels relevance value.",
    f"{TREC_EVAL} m_G.c (experimental)",
)
_declare(
    "ndcg",
    "nDCG (Jarvelin & Kekalainen 2002), gain = qrels relevance value, discount log2(rank+1), "
    "ideal ranking from all judged documents.",
    f"{cite('jarvelin2002')}; {TREC_EVAL} m_ndcg.c",
)
_declare(
    "ndcg_rel",
    "nDCG averaged over the P documents of positive gain: DCG(r) / IDCG(min(r, P)) at each one "
    "retrieved (rank r), DCG(N) / IDCG(P) for each one missed; divided by P.",
    f"{TREC_EVAL} m_ndcg_rel.c (experimental)",
)
_declare(
    "Rndcg",
    "nDCG averaged at the R levels: DCG(c) / IDCG(c) at each c where the ideal gain drops "
    "(last c = P), plus DCG(N) / IDCG(P) when N > P + 1; 0 when R = 0.",
    f"{TREC_EVAL} m_Rndcg.c (experimental)",
)
for _k in CUTOFFS:
    _declare(
        f"ndcg_cut_{_k}",
        f"nDCG over the first {_k} documents.",
        f"{TREC_EVAL} m_ndcg_cut.c",
        params={"cutoff": _k},
    )
for _k in CUTOFFS:
    _declare(
        f"map_cut_{_k}",
        f"Average precision over the first {_k} documents (still divided by R).",
        f"{TREC_EVAL} m_map_cut.c",
        params={"cutoff": _k},
    )
for _k in CUTOFFS:
    _declare(
        f"relative_P_{_k}",
        f"Relevant in the first {_k} / min({_k}, R): precision relative to the best possible.",
        f"{TREC_EVAL} m_rel_P.c",
        params={"cutoff": _k},
    )
for _k in SUCCESS_CUTOFFS:
    _declare(
        f"success_{_k}",
        f"1 if a relevant document is among the first {_k}, else 0.",
        f"{TREC_EVAL} m_success.c",
        params={"cutoff": _k},
    )
_declare("set_P", "Relevant retrieved / retrieved.", f"{TREC_EVAL} m_set_P.c")
_declare(
    "set_relative_P",
    "Relevant retrieved / min(retrieved, R).",
    f"{TREC_EVAL} m_set_rel_P.c",
)
_declare("set_recall", "Relevant retrieved / R.", f"{TREC_EVAL} m_set_recall.c")
_declare(
    "set_map",
    "set_P x set_recall, computed as one division: relevant retrieved^2 / (retrieved x R).",
    f"{TREC_EVAL} m_set_map.c",
)
_declare(
    "set_F",
    "Harmonic mean of set_P and set_recall (beta = 1).",
    f"{TREC_EVAL} m_set_F.c",
    params={"beta": 1.0},
)
_declare(
    "num_nonrel_judged_ret",
    "Judged non-relevant documents retrieved.",
    f"{TREC_EVAL} m_num_nonrel_judged_ret.c",
    aggregation=Aggregation.SUM,
)
_declare(
    "rbp",
    "Rank-biased precision: (1 - p) x sum over ranks i of gain(i) x p^(i-1), persistence "
    "p = 0.9; gains are relevance levels, divided by the topic's highest level when it "
    "exceeds 1.",
    f"Moffat & Zobel, ACM TOIS 2008; {TREC_EVAL_10} m_rbp.c",
    params={"p": RBP_PERSISTENCE},
)
_declare(
    "rbp_resid",
    "RBP's residual: how much rbp could rise if every unjudged retrieved document were "
    "relevant, p^N + (1 - p) x sum over unjudged ranks i of p^(i-1); 0 when none is unjudged.",
    f"Moffat & Zobel, ACM TOIS 2008; {TREC_EVAL_10} m_rbp_resid.c",
    params={"p": RBP_PERSISTENCE},
)
for _k in UNJ_CUTOFFS:
    _declare(
        f"unj_{_k}",
        f"Fraction of the first {_k} documents not judged (missing ranks count as judged).",
        f"{TREC_EVAL_10} m_unjudged.c",
        params={"cutoff": _k},
        higher_is_better=False,
    )
GDEVAL = "gdeval.pl 1.2a (TREC Web track)"
CHAPELLE = "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009"
BEYOND_TREC_EVAL = {
    "err@": (
        ("Expected reciprocal rank over the first {k}: sum of R_i / i x prod_(j<i) (1 - R_j), "
        "R_i = (2^grade - 1) / 16, grades capped at 4."),
        f"{CHAPELLE}, eq. 4; {GDEVAL}",
    ),
    "nerr@": (
        "err@{k} divided by the err@{k} of the ideal ranking (judged grades, best first).",
        f"{CHAPELLE}, normalised by the ideal ranking",
    ),
    "ndcg@": (
        ("nDCG over the first {k} with exponential gains (2^grade - 1) / log(rank + 1), as gdeval "
        "computes it (grades capped at 4)."),
        f"Burges et al., ICML 2005; {GDEVAL}",
    ),
    "judged@": (
        ("Fraction of the first min({k}, retrieved) documents listed in the qrels (score ties "
        "broken by docno ascending, as ir_measures does)."),
        "ir_measures Judged@k (MacAvaney et al.; OpenNIR)",
    ),
}
"""The measures beyond trec_eval: (description with {k}, source) per family, computed in
``builder.measures.adhoc.graded``."""
for _family, (_description, _source) in BEYOND_TREC_EVAL.items():
    for _k in AT_CUTOFFS[_family]:
        _declare(f"{_family}{_k}", _description.format(k=_k), _source, params={"cutoff": _k})

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
