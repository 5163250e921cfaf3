"""trec_eval's ``-m`` requests: measure families, nicknames and parameters, and what is printed.

trec_eval marks *measures* (families: ``P``, ``ndcg_cut``, ``runid``) by name or nickname
(``official`` without ``-m``, ``all_trec``, ``set``), takes parameters after the first dot
(``P.5,7``; the first parameters given for a family win, as its ``meas_arg`` list is searched
from the front) and prints the marked families in its own table order (``measures.c``), not in
the order asked. We also accept a single printed name (``P_10``, ``iprec_at_recall_0.10``).
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.measures.adhoc.scores import TREC_EVAL_TABLE
from builder.measures.adhoc.trec_eval.params import AdhocParams

FAMILY_ORDER = ("runid", *(measure.name for measure in TREC_EVAL_TABLE))
"""``runid``, then the measures of ``TREC_EVAL_TABLE`` in its order: trec_eval 10.0's
``te_trec_measures`` order (``relstring``, text, is printed by the trec layout only), then the
measures beyond trec_eval."""
TREC_EVAL_FAMILIES = FAMILY_ORDER[: FAMILY_ORDER.index("unj") + 1]
NEW_IN_10 = ("rbp", "rbp_resid", "unj")
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": FAMILY_ORDER[:12],
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F",
    ),
    "all_trec": TREC_EVAL_FAMILIES,
    "all": FAMILY_ORDER,
}  # fmt: skip


@dataclass(frozen=True)
class TrecRequest:
    """What to compute (``params``) and print (``names``, in trec_eval's order)."""

    params: AdhocParams
    names: tuple[str, ...]
    runid: bool


def parse_requests(requests: list[str], *, trec_10: bool = True) -> TrecRequest:
    """The families and parameters that ``-m`` arguments ask for (trec_eval's ``mark_measure``).

    ``trec_10``: whether ``all_trec`` holds 10.0's rbp, rbp_resid and unj (profiles before
    10.0 leave them out; naming them still computes them). ValueError on an unknown name.
    """
    families: set[str] = set()
    single: dict[str, set[str]] = {}
    given: dict[str, str] = {}
    for request in requests or ["official"]:
        named = _family_of(request)
        if named:  # one printed name, P_10 or iprec_at_recall_0.10
            single.setdefault(named, set()).add(request)
            continue
        family, dot, text = request.partition(".")
        if "@" in request:  # err@5,20: the family err@, the cutoffs 5,20
            family, dot, text = request.partition("@")
            family += "@"
        if dot and family not in given:
            given[family] = text
        if family in NICKNAMES:
            members = NICKNAMES[family]
            families |= {f for f in members if trec_10 or f not in NEW_IN_10}
        elif family in FAMILY_ORDER:
            families.add(family)
        else:
            raise ValueError(f"unknown measure {request!r}; known: {', '.join(FAMILY_ORDER)}")
    params = AdhocParams.of({f: t for f, t in given.items() if f in families})
    names: list[str] = []
    for family in FAMILY_ORDER[1:]:
        if family in families:
            names += params.names(family)
        elif family in single:
            names += [n for n in params.names(family) if n in single[family]]
    return TrecRequest(params=params, names=tuple(names), runid="runid" in families)


def _family_of(name: str) -> str | None:
    """The family whose default names include ``name`` (``P_10`` -> ``P``), else None."""
    default = AdhocParams()
    for family in FAMILY_ORDER:
        if name.startswith(f"{family}_") and name in default.names(family):
            return family
    return None
