"""Measure names in ir_measures' spelling (``nDCG@10``, ``P(rel=2)@5``, ``AP``, ``RBP(p=0.8)``),
mapped to the registry's ad hoc measures with their parameters, and back.

ir_measures (MacAvaney, Tonellotto and Macdonald, "Streamlining evaluation with ir-measures",
ECIR 2022) writes a measure as ``NAME(param=value,...)@AT``: a Python expression, the ``@``
value going to the measure's cutoff (``recall`` for ``IPrec``). We read it with the same grammar
ir_measures uses (``ir_measures.util.parse_measure``: Python's own ``ast``, keyword arguments
of literal values, ``@`` as the matrix-multiplication operator), written here so that the names
are accepted without ir_measures installed; ``tests/measures/test_names.py`` checks that both
read every name alike.

Each name becomes a ``NamedMeasure``: the trec_eval measure the registry declares (``P_5``,
``ndcg_cut_10``), the trec_eval parameters that make it (``-m P.5``), and the task options it
needs (trec_eval's ``-l`` relevance level, ``-J``) or the relevance values it maps (``gains``,
applied to the qrels' values as ir_measures applies them before pytrec_eval). A name we cannot
compute exactly is refused (``ValueError``) with the nearest names we have.

The table is written by hand: ir_measures' own map (``parse_trec_measure``) goes only from
trec_eval's names, knows neither our measures beyond trec_eval (``judged@10``, ``err@20``) nor
the relevance level, and needs pytrec_eval installed.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from builder.measures.adhoc.trec_eval.params import AT_CUTOFFS, AdhocParams

DEFAULT_RELEVANCE_LEVEL = 1
"""ir_measures' ``rel`` and trec_eval's ``-l`` default: a value of 1 or more is relevant."""
IR_MEASURES_RBP_PERSISTENCE = 0.8
"""ir_measures' default ``p`` of ``RBP`` (trec_eval 10.0's is 0.9)."""


@dataclass(frozen=True)
class Correspondence:
    """How one ir_measures measure maps to a trec_eval family.

    ``family``: without a cutoff; ``cut_family``: with one (None: the cutoff is refused, or,
    when ``family`` is None, required). ``rel``: whether the relevance level applies."""

    family: str | None
    cut_family: str | None = None
    rel: bool = True
    params: tuple[str, ...] = ()
    """Parameters besides ``cutoff`` and ``rel`` the name may give."""


TABLE: dict[str, Correspondence] = {
    "P": Correspondence(None, "P", params=("judged_only",)),
    "R": Correspondence(None, "recall", params=("judged_only",)),
    "AP": Correspondence("map", "map_cut", params=("judged_only",)),
    "nDCG": Correspondence("ndcg", "ndcg_cut", rel=False, params=("gains", "dcg", "judged_only")),
    "RR": Correspondence("recip_rank", params=("judged_only",)),
    "Rprec": Correspondence("Rprec", params=("judged_only",)),
    "Bpref": Correspondence("bpref"),
    "infAP": Correspondence("infAP"),
    "Success": Correspondence(None, "success", params=("judged_only",)),
    "IPrec": Correspondence(None, "iprec_at_recall", params=("judged_only",)),
    "SetP": Correspondence("set_P", params=("relative", "judged_only")),
    "SetR": Correspondence("set_recall"),
    "SetAP": Correspondence("set_map", params=("judged_only",)),
    "SetF": Correspondence("set_F", params=("beta", "judged_only")),  # beta=1 only
    "NumQ": Correspondence("num_q", rel=False),
    "NumRet": Correspondence("num_ret"),
    "NumRel": Correspondence("num_rel"),
    "NumRelRet": Correspondence("num_rel_ret"),
    "Judged": Correspondence(None, "judged@", rel=False),
    "ERR": Correspondence(None, "err@", rel=False),
    "RBP": Correspondence("rbp", rel=False, params=("p",)),
}
"""ir_measures' name -> our family. ``NumRet(rel=L)`` is ``num_rel_ret`` (as in ir_measures);
``RBP`` is trec_eval 10.0's graded ``rbp`` (relevance values as gains, rescaled to [0, 1]):
ir_measures' ``RBP`` without ``rel``, which no ir_measures back end computes; ``RBP(rel=L)``,
cwl_eval's binary RBP, is refused."""

SPECIAL = {"set_relative_P": ("SetP", {"relative": True}), "num_rel_ret": ("NumRet", {})}
"""trec_eval families written in ir_measures with a parameter of another measure's name."""
FAMILY_NAMES = {c.family: name for name, c in TABLE.items() if c.family}
FAMILY_NAMES |= {c.cut_family: name for name, c in TABLE.items() if c.cut_family}
FAMILY_NAMES |= {family: name for family, (name, _) in SPECIAL.items()}
AT_PARAM = {"IPrec": "recall"}
"""The parameter ``@`` sets, when not ``cutoff`` (ir_measures' ``AT_PARAM``)."""


@dataclass(frozen=True)
class NamedMeasure:
    """A measure as a caller named it, and what computes it.

    ``name``: the registry's name (what trec_eval prints: ``P_5``, ``ndcg_cut_10``);
    ``request``: the trec_eval ``-m`` text that computes it (``P.5``); ``rel_level`` and
    ``judged_only``: the task options it needs (None: the task's own); ``gains``: the
    relevance values it maps, (value, gain) pairs; ``given``: the caller's spelling."""

    given: str
    name: str
    request: str
    family: str
    rel_level: int | None = None
    judged_only: bool | None = None
    gains: tuple[tuple[int, int], ...] | None = None

    @property
    def parameter(self) -> str | None:
        """The family's trec_eval parameter text (``5`` of ``P.5``), None when none."""
        return self.request.partition("@" if "@" in self.request else ".")[2] or None

    def ir_measures(self, task_rel_level: int = DEFAULT_RELEVANCE_LEVEL) -> str | None:
        """The name in ir_measures' spelling (None: ir_measures has no such measure)."""
        return ir_measures_name(self.name, self.rel_level or task_rel_level,
                                self.judged_only, self.gains)

    def key(self) -> tuple[Any, ...]:
        """What must be equal for two measures to be computed in one evaluation."""
        return (self.rel_level, self.judged_only, self.gains)


def parse_expression(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME(key=value,...)@AT`` -> (NAME, parameters), as ir_measures' ``parse_measure``
    reads it (the ``@`` value under ``AT_PARAM``); ValueError when it is no such expression."""
    try:
        body = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"{text!r} is not a measure name") from None
    at = None
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.MatMult):
        at, body = _literal(body.right, text), body.left
    params: dict[str, Any] = {}
    if isinstance(body, ast.Call):
        if body.args or any(k.arg is None for k in body.keywords):
            raise ValueError(f"{text!r}: parameters must be named (NAME(rel=2)@5)")
        params = {k.arg: _literal(k.value, text) for k in body.keywords if k.arg}
        body = body.func
    name = body.id if isinstance(body, ast.Name) else None
    if name is None:
        raise ValueError(f"{text!r} is not a measure name")
    if at is not None:
        params[AT_PARAM.get(name, "cutoff")] = at
    return name, params


def _literal(node: ast.expr, text: str) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise ValueError(f"{text!r}: parameter values must be literals") from None


def parse_name(text: str) -> NamedMeasure:
    """An ir_measures name as the measure we compute; ValueError, with the nearest names we
    have, when we cannot compute it exactly."""
    name, params = parse_expression(text)
    if name not in TABLE:
        raise ValueError(f"unknown measure {text!r}{_nearest(text)}")
    row = TABLE[name]
    unknown = set(params) - {"cutoff", "rel", *row.params} - ({"recall"} if name == "IPrec" else set())
    if unknown:
        raise ValueError(f"{text!r}: {name} takes no parameter {', '.join(sorted(unknown))}"
                         f" here{_nearest(name)}")
    cutoff = params.get("recall" if name == "IPrec" else "cutoff")
    family = row.cut_family if cutoff is not None else row.family
    if family is None:
        wanted = "a cutoff" if cutoff is None else "no cutoff"
        raise ValueError(f"{text!r}: {name} takes {wanted}"
                         f"{_nearest(name + '@10' if cutoff is None else name)}")
    rel = params.get("rel")
    if rel is not None and not row.rel:
        raise ValueError(f"{text!r}: {name} takes no relevance level here{_nearest(name)}")
    if rel is not None and (not isinstance(rel, int) or isinstance(rel, bool)):
        raise ValueError(f"{text!r}: rel must be an integer")
    text_param = _parameter_text(text, name, family, params, cutoff)
    if name == "NumRet" and rel is not None:
        family = "num_rel_ret"
    if name == "SetP" and params.get("relative"):
        family = "set_relative_P"
    if params.get("dcg", "log2") != "log2":
        raise ValueError(f"{text!r}: only dcg='log2' (trec_eval's) is computed{_nearest(name)}")
    gains = _gains(text, params.get("gains"))
    request = family if text_param is None else (
        f"{family}{text_param}" if family in AT_CUTOFFS else f"{family}.{text_param}")
    return NamedMeasure(
        given=text, name=_printed(family, text_param), request=request, family=family,
        rel_level=rel, judged_only=params.get("judged_only"), gains=gains)


def _parameter_text(text: str, name: str, family: str, params: Mapping[str, Any],
                    cutoff: Any) -> str | None:
    """trec_eval's parameter text of the family (``5`` of ``P.5``), None for its defaults."""
    if cutoff is not None:
        if family == "iprec_at_recall":
            if not isinstance(cutoff, (int, float)) or not 0 <= cutoff <= 1:
                raise ValueError(f"{text!r}: the recall level must be a number in [0, 1]")
            return repr(float(cutoff))
        if not isinstance(cutoff, int) or isinstance(cutoff, bool) or cutoff <= 0:
            raise ValueError(f"{text!r}: the cutoff must be a positive integer")
        return str(cutoff)
    if name == "SetF" and params.get("beta", 1.0) != 1.0:
        # ir_measures hands beta to pytrec_eval, whose value differs from trec_eval's
        # set_F.0.5 on TREC-COVID (0.0777 against 0.0662): no one value to call it by.
        raise ValueError(f"{text!r}: only beta=1 is computed as ir_measures computes it "
                         f"(trec_eval's -m set_F.{params['beta']} is ours){_nearest(name)}")
    if name == "RBP":
        p = params.get("p", IR_MEASURES_RBP_PERSISTENCE)
        if not isinstance(p, (int, float)) or not 0 < p < 1:
            raise ValueError(f"{text!r}: p must be a number in (0, 1)")
        return f"p={float(p)!r}"
    return None


def _gains(text: str, gains: Any) -> tuple[tuple[int, int], ...] | None:
    if gains is None:
        return None
    if not isinstance(gains, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for pair in gains.items() for v in pair):
        raise ValueError(f"{text!r}: gains must map relevance values to integer gains "
                         "({0:0,1:1,2:3})")
    return tuple(sorted(gains.items()))


def _printed(family: str, parameter: str | None) -> str:
    """The name trec_eval prints for ``family`` with one parameter text."""
    params = AdhocParams.of({family: parameter}) if parameter is not None else AdhocParams()
    names = params.names(family)
    return names[0]


def ir_measures_name(name: str, rel_level: int = DEFAULT_RELEVANCE_LEVEL,
                     judged_only: bool | None = None,
                     gains: tuple[tuple[int, int], ...] | None = None) -> str | None:
    """The registry's ``name`` in ir_measures' spelling, with a relevance level other than 1,
    ``judged_only`` and ``gains`` as parameters; None when ir_measures has no such measure."""
    family, at = _split(name)
    if family not in FAMILY_NAMES:
        return None
    measure = FAMILY_NAMES[family]
    row = TABLE[measure]
    params: dict[str, str] = {}
    if family in SPECIAL:
        params |= {k: repr(v) for k, v in SPECIAL[family][1].items()}
    if row.rel and (rel_level != DEFAULT_RELEVANCE_LEVEL or family == "num_rel_ret"):
        params["rel"] = str(rel_level)
    if judged_only and "judged_only" in row.params:
        params["judged_only"] = "True"
    if gains:
        params["gains"] = "{" + ",".join(f"{k}:{v}" for k, v in gains) + "}"
    if family == "set_F" and at is not None:
        params["beta"], at = at, None
    if family == "rbp":
        params["p"] = at.removeprefix("p=") if at else "0.9"
        at = None
    if family == "iprec_at_recall" and at is not None:
        at = repr(float(at))
    spelled = measure + ("(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
                         if params else "")
    return spelled + (f"@{at}" if at is not None else "")


def _split(name: str) -> tuple[str, str | None]:
    """A printed name as (family, parameter text): ``P_5`` -> (P, 5), ``err@20`` -> (err@,
    20), ``rbp_p=0.8`` -> (rbp, p=0.8), ``map`` -> (map, None)."""
    if "@" in name:
        family, _, at = name.partition("@")
        return family + "@", at
    for family in sorted(FAMILY_NAMES, key=len, reverse=True):
        if name == family:
            return family, None
        if name.startswith(family + "_"):
            rest = name[len(family) + 1:]
            if rest and (rest[0].isdigit() or rest.startswith("p=")):
                return family, rest
    return name, None


def _nearest(text: str) -> str:
    """``; nearest we have: ...`` naming up to three names we compute close to ``text``."""
    ours = [spelled for name, row in TABLE.items()
            for spelled in ([name] if row.family else [])
            + ([f"{name}@{0.5 if name == 'IPrec' else 10}"] if row.cut_family else [])]
    ours += ["P(rel=2)@10", "RBP(p=0.8)", "NumRet(rel=1)", "SetP(relative=True)"]
    close = difflib.get_close_matches(text, ours, n=3, cutoff=0.3)
    return f"; nearest we have: {', '.join(close or ours)}"


def registry_name(text: str, rel_level: int = DEFAULT_RELEVANCE_LEVEL,
                  judged_only: bool = False, declared: frozenset[str] | None = None) -> str:
    """The registry's name of ``text`` (a registry name or an ir_measures name) in a task of
    these options: ``nDCG@10`` is ``ndcg_cut_10``. ValueError when the name needs other
    options than the task's (``P(rel=2)@5`` in a task of ``rel_level`` 1) or parameters
    beyond the declared measures (``P@7``)."""
    from builder.measures.registry import measures_of

    known = declared if declared is not None else frozenset(m.name for m in measures_of("adhoc"))
    if text in known:
        return text
    measure = parse_name(text)
    needs = []
    if measure.rel_level not in (None, rel_level):
        needs.append(f"rel_level: {measure.rel_level}")
    if measure.judged_only not in (None, judged_only):
        needs.append(f"judged_only: {measure.judged_only}")
    if measure.gains is not None:
        needs.append("gains, which only appendix evaluate and builder.evaluate map")
    if measure.name not in known:
        needs.append(f"parameters: {{{measure.family}: '{measure.parameter}'}}")
    if needs:
        raise ValueError(f"{text!r} is {measure.name} in a task with {'; '.join(needs)}")
    return measure.name
