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
- double parameters (``utility``, ``11pt_avg``, ``set_F``): one value, named after the
  parameter text as given (``utility_2,-1,0,0``).
- pairs ``name=value`` (``ndcg``, ``rbp``, ``rbp_resid``): one value, named after the text
  (``ndcg_1=3,2=9``); for ``ndcg`` a relevance level's gain, for ``rbp`` the persistence ``p``.

``AdhocParams`` holds the parameter text given per family (none: trec_eval's defaults, the
names the registry declares).
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.formats.text.c_numbers import c_atof, c_atol

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
}
PAIR_PARAMS: dict[str, dict[str, float]] = {"ndcg": {}, "rbp": {"p": 0.9}, "rbp_resid": {"p": 0.9}}
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


def parse_pairs(family: str, text: str) -> dict[str, float]:
    """``name=value,...`` pairs (``ndcg.1=3,2=9``); each item must hold one ``=``."""
    pairs = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep or not name or "=" in value:
            raise ValueError(f"{family}.{text}: malformed pair parameters (expected NAME=VALUE)")
        pairs[name] = c_atof(value)
    return pairs


@dataclass(frozen=True)
class AdhocParams:
    """The parameter text given per measure family; families absent take trec_eval's defaults."""

    given: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, given: dict[str, str]) -> AdhocParams:
        """Checked parameters (ValueError on a family without parameters or a bad value)."""
        known = {*LONG_CUTOFFS, *DOUBLE_CUTOFFS, *DOUBLE_PARAMS, *PAIR_PARAMS}
        for family, text in given.items():
            if family not in known:
                raise ValueError(f"measure {family!r} takes no parameters")
            if not text:
                raise ValueError(f"{family}.: empty parameters")
        params = cls(tuple(sorted(given.items())))
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

    def pairs(self, family: str) -> dict[str, float]:
        text = self.text(family)
        return dict(PAIR_PARAMS[family]) if text is None else parse_pairs(family, text)

    def persistence(self, family: str) -> float:
        """``p`` of ``rbp`` / ``rbp_resid`` (the last ``p=`` given, else 0.9)."""
        return self.pairs(family).get("p", RBP_PERSISTENCE)

    def names(self, family: str) -> list[str]:
        """The names trec_eval prints for ``family`` with these parameters."""
        if family in LONG_CUTOFFS:
            joint = "" if family in AT_CUTOFFS else "_"
            return [f"{family}{joint}{k}" for k in self.long_cutoffs(family)]
        if family in DOUBLE_CUTOFFS:
            return [f"{family}_{x:3.2f}" for x in self.double_cutoffs(family)]
        text = self.text(family)
        if family in PAIR_PARAMS and text is not None:
            self.pairs(family)
        return [family if text is None else f"{family}_{text}"]
