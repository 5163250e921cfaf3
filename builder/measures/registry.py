"""The measure registry: each measure declared once, read by the CLI, the site and the tests.

Pattern from terrierteam/ir_measures: a measure is a name as the official tool prints it,
its parameters, a one-line description, the source of its formula and, as ir_measures'
providers list what they compute, the function that computes it. The registry is
complete once ``builder.measures`` is imported (its ``__init__`` imports every family).
It also reads measure requests (``P.5,10``, ``all_trec``, ``ndcg_cut``), so that every
command understands the same names.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

GEOMETRIC_FLOOR = 0.00001
"""Per-topic values are floored here before a geometric mean (trec_eval's ``MIN_GEO_MEAN``)."""


class Aggregation(Enum):
    """How the summary (topic ``all``) of a measure is made from its per-topic values.

    Over the topics averaged (``num_q`` of them, per run):

    - MEAN: sum / num_q (0 when num_q = 0);
    - GMEAN: exp(sum of log(max(value, 0.00001)) / num_q), trec_eval's ``meas_avg.c``;
    - SUM: the sum;
    - COUNT: num_q itself (the measure ``num_q``).
    """

    MEAN = "mean"
    GMEAN = "gmean"
    SUM = "sum"
    COUNT = "count"

    @property
    def integral(self) -> bool:
        """Whether the summary is a whole number (printed without decimals)."""
        return self in (Aggregation.SUM, Aggregation.COUNT)

    @property
    def per_topic(self) -> bool:
        """Whether per-topic values are reported: not for a count of topics, nor for a
        geometric mean (trec_eval prints those in the summary only)."""
        return self not in (Aggregation.COUNT, Aggregation.GMEAN)

    def terms(self, values: np.ndarray) -> np.ndarray:
        """What is summed over topics: the values, or their logs for GMEAN."""
        if self is Aggregation.GMEAN:
            return np.log(np.maximum(values, GEOMETRIC_FLOOR))
        return values

    def finish(self, total: np.ndarray, num_q: np.ndarray, empty: float = 0.0) -> np.ndarray:
        """The summary of each run from the sum of its ``terms`` and its number of topics;
        a mean over no topic is ``empty`` (0, or NaN: inex_eval 3.1 divides 0 by 0)."""
        total = np.asarray(total, dtype=np.float64)
        num_q = np.asarray(num_q, dtype=np.float64)
        shape = np.broadcast(total, num_q).shape
        if self is Aggregation.SUM:
            return total
        if self is Aggregation.COUNT:
            return np.broadcast_to(num_q, shape).copy()
        mean = np.divide(total, num_q, out=np.full(shape, empty), where=num_q > 0)
        return np.exp(mean) if self is Aggregation.GMEAN else mean


@dataclass(frozen=True)
class Difference:
    """A remaining difference from an official program, as the measures page and the docs
    list it: the ``program`` (and release), the minimal ``case``, what appendix prints
    (``ours``), what the program prints (``theirs``), and why."""

    program: str
    case: str
    ours: str
    theirs: str
    reason: str

    def see(self) -> str:
        """What a measure's ``differs`` says of this row: a pointer to the table of remaining
        differences (under the measures on the measures page), so that the difference is
        stated once, in that table."""
        case = self.case.split(" (", 1)[0]
        return f"See the remaining differences from {self.program}: {case}."


@dataclass(frozen=True)
class Measure:
    """A declared measure.

    name: as the official program prints it (``P_10``, ``iP[0.01]``, ``MAgP``): the name in
    CSV headers, downloads and on the measures page.
    display_name: as people write it (``P@10``, ``nDCG@10``, ``MAP``): the name on the site's
    pages, in the LaTeX and Markdown tables; empty when the official name reads as well
    (``bpref``, ``iP[0.01]``, ``MAgP``). ``label`` gives whichever applies.
    display_template: for a measure of a family with one numeric parameter (``P_10``), its
    display name with ``{k}`` for that parameter as the official name writes it (``P@{k}``,
    ``iP[{k:.2f}]``): how ``display_name()`` names the family's measures asked for with other
    parameters (``P_7`` from ``-m P.7``).
    family: the task kind whose evaluator computes it (``adhoc``, ``focused``, ...).
    description: one line, for the measures page and ``--help``.
    source: where the formula comes from (paper and equation, or the official program).
    params: the measure's parameters (cutoff, recall level, ...).
    differs: where we depart from, or offer an option against, the official program.
    aggregation: how the ``all`` row is made from per-topic values.
    per_topic: for a measure reported only as a summary (MAiP, MAgP), the per-topic measure it
    aggregates (AiP, AgP): what a significance test of it compares.
    computed_by: the function that computes its values, shared by the measures computed
    together (an ad hoc measure's: a function of the scored grid giving every value its
    trec_eval measure prints, ``P_5`` ... ``P_1000`` for ``P``; an INEX or EPRUM measure's:
    the function that makes its column of the family's table). None for ``num_q``, which has
    no values of its own: its summary counts the topics (``Aggregation.COUNT``).
    """

    name: str
    family: str
    description: str
    source: str
    params: dict[str, Any] = field(default_factory=dict)
    differs: str = ""
    aggregation: Aggregation = Aggregation.MEAN
    higher_is_better: bool = True
    per_topic: str | None = None
    computed_by: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    display_name: str = ""
    display_template: str = ""

    @property
    def label(self) -> str:
        """The name people read: ``display_name``, else the official ``name``."""
        return self.display_name or self.name


REGISTRY: dict[tuple[str, str], Measure] = {}


def register(measure: Measure) -> Measure:
    """Add a measure; declaring the same (family, name) twice is a programming error."""
    key = (measure.family, measure.name)
    if key in REGISTRY:
        raise ValueError(f"measure declared twice: {measure.family}/{measure.name}")
    REGISTRY[key] = measure
    return measure


def families() -> list[str]:
    """Every family with a declared measure, in declaration order."""
    return list(dict.fromkeys(family for family, _ in REGISTRY))


def measures_of(family: str) -> list[Measure]:
    """The measures of one family, in declaration order."""
    return [m for (fam, _), m in REGISTRY.items() if fam == family]


def get(family: str, name: str) -> Measure:
    try:
        return REGISTRY[(family, name)]
    except KeyError:
        known = ", ".join(m.name for m in measures_of(family))
        raise KeyError(f"unknown {family} measure {name!r}; known: {known}") from None


def display_name(family: str, name: str) -> str:
    """The display name of the measure ``name`` of ``family`` (``Measure.label``); a name the
    registry does not declare under the default parameters (``P_7`` from ``-m P.7``,
    ``iprec_at_recall_0.15``) takes its declared siblings' ``display_template`` filled with its
    own parameter (``P@7``, ``iP[0.15]``), else stays as it is. The siblings of a template
    share the stem of their official names (``P_``, ``iprec_at_recall_``); what follows it in
    ``name`` is the parameter, a whole number or a decimal."""
    measure = REGISTRY.get((family, name))
    if measure is not None:
        return measure.label
    siblings: dict[str, list[str]] = {}
    for (fam, declared), sibling in REGISTRY.items():
        if fam == family and sibling.display_template:
            siblings.setdefault(sibling.display_template, []).append(declared)
    for template, names in siblings.items():
        stem = os.path.commonprefix(names)
        text = name[len(stem):]
        if len(names) > 1 and name.startswith(stem) \
                and re.fullmatch(r"\d+|\d*\.\d+", text):
            return template.format(k=int(text) if text.isdigit() else float(text))
    return name


ALL_MEASURES = ("all", "all_trec")
"""Requests for every measure of the family (trec_eval's ``-m all_trec``)."""


def select_measures(family: str, requested: Iterable[str], default: Iterable[str] = ()) -> list[str]:
    """The family's measure names a request names, in declaration order.

    Each request is a measure name, ``all``/``all_trec``, a name prefix as trec_eval's measure
    families (``P`` for ``P_5``, ``P_10``, ...) or one with parameters (``P.5,10``). With no
    request: ``default``, or every measure when that is empty. Raises ValueError on a request
    that names no measure.
    """
    declared = [m.name for m in measures_of(family)]
    requested = list(requested)
    if not requested:
        wanted = set(default) or set(declared)
    else:
        wanted = set()
        for request in requested:
            wanted |= _expand(request, declared, family)
    return [name for name in declared if name in wanted]


def _expand(request: str, declared: list[str], family: str) -> set[str]:
    if request in ALL_MEASURES:
        return set(declared)
    if request in declared:
        return {request}
    prefix, _, params = request.partition(".")
    if params:
        names = {f"{prefix}_{p}" for p in params.split(",") if p}
    else:
        names = {n for n in declared if n.startswith(f"{prefix}_")}
    found = names & set(declared)
    if not found:
        raise ValueError(f"unknown measure {request!r} of {family}; known: {', '.join(declared)}")
    return found
