"""trec_eval's measure parameters (``-m P.5,7``, ``-m ndcg.1=3,2=9``) and the names they print.

trec_eval names a *measure* by its family (``P``, ``ndcg_cut``, ``rbp``) and takes its
parameters after the first dot. Four kinds of parameter, as trec_eval 10.0's ``meas_init.c``
reads them (C's ``atol``/``atof`` on each comma-separated item):

- long cutoffs (``P``, ``recall``, ``ndcg_cut``, ``map_cut``, ``relative_P``, ``success``,
  ``unj``): sorted ascending, each > 0 and distinct; one value per cutoff, named ``P_7``;
  likewise the measures beyond trec_eval ``err@``, ``nerr@``, ``ndcg@``, ``judged@``
  (``-m err@5,20`` prints ``err@5`` and ``err@20``).
- double cutoffs (``iprec_at_recall``, ``Rprec_mult``): sorted, distinct; named ``%3.2f``
  (``iprec_at_recall_0.25``, ``Rprec_mult_5.00``).
- double parameters (``utility``, ``11pt_avg``, ``set_F``, ``relstring``): one value, named
  after the parameter text as given (``utility_2,-1,0,0``, ``relstring_3``).
- pairs ``name=value`` (``ndcg``, ``G``, ``ndcg_rel``, ``Rndcg``, ``rbp``, ``rbp_resid``): one
  value, named after the text (``ndcg_1=3,2=9``); for the gain measures a relevance level's
  gain, in the order given (``builder.measures.adhoc.trec_eval.gain_levels``), for ``rbp`` the
  persistence ``p``.
- ``binG`` takes any parameters and ignores them, printed ``binG``, as trec_eval does.

``AdhocParams`` holds the parameter text given per family (none: trec_eval's defaults, the
names the registry declares).
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.formats.text.c_numbers import c_atof, c_atol
from builder.measures.adhoc.trec_eval.gain_levels import GainOrder

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LONG_CUTOFFS: dict[str, tuple[int, ...]] = {
    "P": CUTOFFS,
    "recall": CUTOFFS,
    "ndcg_cut": CUTOFFS,
    "map_cut": CUTOFFS,
    "relative_P": CUTOFFS,
    "success": (1, 5, 10),
    "unj": (5, 10, 20),
}
AT_CUTOFFS: dict[str, tuple[int, ...]] = {
    "err@": (5, 10, 20),
    "nerr@": (5, 10, 20),
    "ndcg@": (5, 10, 20),
    "judged@": (10, 20, 100),
}
"""Measures beyond trec_eval, named ``err@20`` as gdeval and ir_measures print them."""
LONG_CUTOFFS.update(AT_CUTOFFS)
DOUBLE_CUTOFFS: dict[str, tuple[float, ...]] = {
    "iprec_at_recall": tuple(i / 10 for i in range(11)),
    "Rprec_mult": tuple(i / 5 for i in range(1, 11)),
}
DOUBLE_PARAMS: dict[str, tuple[float, ...]] = {
    "utility": (1.0, -1.0, 0.0, 0.0),
    "11pt_avg": tuple(i / 10 for i in range(11)),
    "set_F": (1.0,),
    "relstring": (10.0,),
}
PAIR_PARAMS: dict[str, dict[str, float]] = {
    "G": {}, "ndcg": {}, "ndcg_rel": {}, "Rndcg": {}, "rbp": {"p": 0.9}, "rbp_resid": {"p": 0.9},
}
GAIN_FAMILIES = ("G", "ndcg", "ndcg_rel", "Rndcg")
"""The families whose pairs are gains per relevance level (``setup_gains``)."""
IGNORED_PARAMS = ("binG",)
"""Families trec_eval gives parameters it never reads (``te_init_meas_s_double``): printed
under their own name, whatever the text."""
RBP_PERSISTENCE = 0.9
"""trec_eval 10.0's default persistence p of ``rbp`` and ``rbp_resid`` (``m_rbp.c``)."""


def parse_long_cutoffs(family: str, text: str) -> tuple[int, ...]:
    """Cutoffs as trec_eval reads them: sorted, each > 0 and distinct, else ValueError."""
    values = sorted(c_atol(item) for item in text.split(","))
    if values[0] <= 0:
        raise ValueError(f"{family}.{text}: cutoffs must be positive (trec_eval: negative cutoff)")
    if len(set(values)) < len(values):
        raise ValueError(f"{family}.{text}: duplicate cutoffs")
    return tuple(values)


def parse_double_cutoffs(family: str, text: str) -> tuple[float, ...]:
    values = sorted(c_atof(item) for item in text.split(","))
    if len(set(values)) < len(values):
        raise ValueError(f"{family}.{text}: duplicate cutoffs")
    return tuple(values)


def parse_pairs(family: str, text: str) -> list[tuple[str, float]]:
    """``name=value,...`` pairs (``ndcg.1=3,2=9``) in the order given, a name given twice
    twice; each item must hold one ``=``."""
    pairs = []
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep or not name or "=" in value:
            raise ValueError(f"{family}.{text}: malformed pair parameters (expected NAME=VALUE)")
        pairs.append((name, c_atof(value)))
    return pairs


@dataclass(frozen=True)
class AdhocParams:
    """The parameter text given per measure family; families absent take trec_eval's defaults."""

    given: tuple[tuple[str, str], ...] = ()
    gain_order: GainOrder = "trec_eval"
    """How the gain measures order the levels: trec_eval's comparator (default) or sorted."""
    integer_levels: bool = True
    """Whether a gain pair whose name is not an integer is skipped (10.0), or read with atol
    (9.0.8: ``ndcg.p=3`` gives level 0 a gain of 3)."""

    @classmethod
    def of(cls, given: dict[str, str], *, gain_order: GainOrder = "trec_eval",
           integer_levels: bool = True) -> AdhocParams:
        """Checked parameters (ValueError on a family without parameters or a bad value)."""
        known = {*LONG_CUTOFFS, *DOUBLE_CUTOFFS, *DOUBLE_PARAMS, *PAIR_PARAMS, *IGNORED_PARAMS}
        for family, text in given.items():
            if family not in known:
                raise ValueError(f"measure {family!r} takes no parameters")
            if not text:
                raise ValueError(f"{family}.: empty parameters")
        params = cls(tuple(sorted(given.items())), gain_order, integer_levels)
        for family in given:
            params.names(family)  # parses, so that a bad value fails here
        return params

    def text(self, family: str) -> str | None:
        return dict(self.given).get(family)

    def long_cutoffs(self, family: str) -> tuple[int, ...]:
        text = self.text(family)
        return LONG_CUTOFFS[family] if text is None else parse_long_cutoffs(family, text)

    def double_cutoffs(self, family: str) -> tuple[float, ...]:
        text = self.text(family)
        return DOUBLE_CUTOFFS[family] if text is None else parse_double_cutoffs(family, text)

    def doubles(self, family: str) -> tuple[float, ...]:
        text = self.text(family)
        return DOUBLE_PARAMS[family] if text is None else tuple(map(c_atof, text.split(",")))

    def pairs(self, family: str) -> list[tuple[str, float]]:
        """The ``name=value`` pairs given, in order (none: the family's defaults)."""
        text = self.text(family)
        return list(PAIR_PARAMS[family].items()) if text is None else parse_pairs(family, text)

    def persistence(self, family: str) -> float:
        """``p`` of ``rbp`` / ``rbp_resid`` (the last ``p=`` given, else 0.9)."""
        return dict(self.pairs(family)).get("p", RBP_PERSISTENCE)

    def names(self, family: str) -> list[str]:
        """The names trec_eval prints for ``family`` with these parameters."""
        if family in LONG_CUTOFFS:
            joint = "" if family in AT_CUTOFFS else "_"
            return [f"{family}{joint}{k}" for k in self.long_cutoffs(family)]
        if family in DOUBLE_CUTOFFS:
            return [f"{family}_{x:3.2f}" for x in self.double_cutoffs(family)]
        text = self.text(family)
        if family in IGNORED_PARAMS:
            return [family]
        if family in PAIR_PARAMS and text is not None:
            self.pairs(family)
        return [family if text is None else f"{family}_{text}"]
