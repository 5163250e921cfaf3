"""How an ad hoc measure is declared: as an entry of trec_eval's measure table (``TREC_MEAS`` in
``trec_eval.h``: a name, the values it prints, the function that computes them).

A trec_eval *measure* is a family of printed values: ``P`` prints ``P_5`` ... ``P_1000``, one
per cutoff; ``map`` prints ``map``. Each is declared once, in the module of its concept,
beside its function: a ``TrecMeasure`` holds the registry entries it prints under trec_eval's
default parameters (name, description, source) and the function of an ``AdhocGrid`` that
returns every value it prints under the grid's parameters, named as trec_eval prints them
(``-m P.5,7`` gives ``P_5`` and ``P_7``). ``builder.measures.adhoc.scores`` lists them in
trec_eval's printing order and registers them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.bibliography import cite
from builder.measures.registry import Measure

if TYPE_CHECKING:
    import numpy as np

    from builder.measures.adhoc.grid import AdhocGrid

FAMILY = "adhoc"
TREC_EVAL = "trec_eval 9.0.8"
TREC_EVAL_10 = "trec_eval 10.0"
TREC_BOOK = cite("buckley2005")
"""Buckley & Voorhees, "Retrieval system evaluation" (the TREC book, 2005): the measures of
the TREC appendix pages."""

GridFunction = Callable[["AdhocGrid"], "dict[str, np.ndarray]"]
"""A measure's function: per-topic values on the flat run x topic grid, by printed name."""


@dataclass(frozen=True)
class TrecMeasure:
    """One measure of the table: ``name`` as ``-m`` names it (``P``, ``ndcg_cut``, ``err@``),
    ``measures`` the registry entries it prints under the default parameters, ``compute`` the
    function that gives all its values (None for ``num_q``, which the summary counts).

    reads_top_k: its value at cutoff k reads only the first k documents of a ranking (and the
    qrels), so a ranking cut deeper than every k gives the same values, to the last bit (a
    pool sample then re-scores rankings cut there, at a fraction of the cost).
    """

    name: str
    compute: GridFunction | None
    measures: tuple[Measure, ...]
    reads_top_k: bool = False


def trec_measure(name: str, compute: GridFunction | None, *measures: Measure,
                 reads_top_k: bool = False) -> TrecMeasure:
    """The measure ``name``, each of its registry entries naming ``compute`` as its function."""
    computed = tuple(replace(measure, computed_by=compute) for measure in measures)
    return TrecMeasure(name, compute, computed, reads_top_k)


def adhoc_measure(name: str, description: str, source: str = TREC_EVAL, **fields: Any) -> Measure:
    """A registry entry of the ad hoc family (``fields``: the other ``Measure`` fields)."""
    return Measure(name=name, family=FAMILY, description=description, source=source, **fields)


def single_value_measure(name: str, compute: GridFunction | None, description: str,
                         source: str = TREC_EVAL, **fields: Any) -> TrecMeasure:
    """A measure that prints one value, named as the measure (``map``; ``utility_2,-1,0,0``
    when given parameters)."""
    return trec_measure(name, compute, adhoc_measure(name, description, source, **fields))


def measure_at_cutoffs(name: str, compute: GridFunction, description: str, source: str,
                       *, reads_top_k: bool = False, **fields: Any) -> TrecMeasure:
    """A measure with cutoffs (``P``, ``err@``): a registry entry per default cutoff k, named
    as trec_eval prints it (``P_10``, ``err@20``), its ``description`` and ``display_name``
    (``P@{k}``) with ``{k}`` filled in."""
    defaults = AdhocParams()
    display = fields.pop("display_name", "")
    return trec_measure(name, compute, *(
        adhoc_measure(printed, description.format(k=k), source, params={"cutoff": k},
                      display_name=display.format(k=k), display_template=display, **fields)
        for k, printed in zip(defaults.long_cutoffs(name), defaults.names(name))
    ), reads_top_k=reads_top_k)
