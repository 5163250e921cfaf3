"""What every ad hoc measure's function reads: one grid of rankings (all runs x the qrels'
topics, a ``JudgedRanking``), the options it is scored under, and the columnar intermediates
that several measures share, each computed once, when first read.

Notation (trec_eval's): a *cell* is one (run, topic) ranking, score descending, docno
descending on ties, cut at depth ``-M``; R = relevant documents of the topic (qrels relevance
>= the level ``-l``); rel(i) = 1 when the document at rank i is relevant; N = documents
retrieved. Values are per cell, on the flat grid (``JudgedRanking.cell`` order). Most measures
read the *relevant rows* only (the retrieved relevant documents, a fraction of all rows).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Generic, TypeVar

import numpy as np

from builder.measures.adhoc.judged.cells import Cells, ratio
from builder.measures.adhoc.judged.ranking import UNJUDGED, JudgedRanking
from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.adhoc.trec_eval.profiles import Interpolation

Shared = TypeVar("Shared")
Value = TypeVar("Value")


class computed_once(Generic[Value]):
    """A value computed when first read, then kept in the instance: ``functools.cached_property``
    without its lock, which Python 3.11 shares between every instance: two threads scoring two
    parts of a grid at once would wait for each other."""

    def __init__(self, compute: Callable[[Any], Value]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Value:
        if instance is None:
            return self  # type: ignore[return-value]
        value = self.compute(instance)
        instance.__dict__[self.name] = value  # found before this descriptor from now on
        return value


class AdhocGrid:
    """A judged grid to score, with trec_eval's options: ``rel_level`` (``-l``),
    ``interpolation`` (how iprec_at_recall rounds), ``params`` (``-m FAMILY.PARAMS``),
    ``collection_size`` (``-N``) and ``only``, the printed names wanted (None: all).

    Each intermediate is computed once, when first read (``computed_once``); what only one
    module's measures share is kept by ``shared``. A grid is scored on one thread.
    """

    def __init__(self, judged: JudgedRanking, *, rel_level: int, interpolation: Interpolation,
                 params: AdhocParams, collection_size: int = 0,
                 only: Collection[str] | None = None) -> None:
        self.judged = judged
        self.rel_level = rel_level
        self.interpolation = interpolation
        self.params = params
        self.collection_size = collection_size
        self.only = only
        self.num_cells = judged.num_cells
        self._shared: dict[Callable[[AdhocGrid], Any], Any] = {}

    def wants(self, measure: str) -> bool:
        """Whether a value the trec_eval measure ``measure`` prints is wanted."""
        return self.only is None or any(name in self.only for name in self.params.names(measure))

    def cutoffs(self, measure: str) -> list[tuple[int, str]]:
        """(k, printed name) of each wanted value of a measure with cutoffs (``P``, ``err@``)."""
        return self._wanted(measure, self.params.long_cutoffs(measure))

    def levels(self, measure: str) -> list[tuple[float, str]]:
        """(x, printed name) of each wanted value of a measure with real cutoffs
        (``iprec_at_recall``, ``Rprec_mult``)."""
        return self._wanted(measure, self.params.double_cutoffs(measure))

    def _wanted(self, measure: str, values: tuple) -> list[tuple[Any, str]]:
        return [(value, name) for value, name in zip(values, self.params.names(measure))
                if self.only is None or name in self.only]

    def name(self, measure: str) -> str:
        """The one name a measure without cutoffs prints (``utility_2,-1,0,0`` with parameters)."""
        (name,) = self.params.names(measure)
        return name

    def shared(self, build: Callable[[AdhocGrid], Shared]) -> Shared:
        """``build(self)``, computed once per grid: what the measures of one module share (the
        gains of G and the nDCGs, the best precisions of iprec_at_recall and 11pt_avg)."""
        if build not in self._shared:
            self._shared[build] = build(self)
        return self._shared[build]

    @computed_once
    def cells(self) -> Cells:
        return Cells(self.judged)

    @computed_once
    def topic(self) -> np.ndarray:
        """Each cell's topic index."""
        return self.judged.topic_of_cell()

    @computed_once
    def R(self) -> np.ndarray:
        """Relevant documents of each cell's topic."""
        return self.judged.num_rel[self.topic]

    @computed_once
    def num_ret(self) -> np.ndarray:
        """N, documents retrieved per cell (after the depth cut), as doubles."""
        return self.cells.size.astype(np.float64)

    @computed_once
    def is_relevant(self) -> np.ndarray:
        """Per row: the document is relevant (qrels relevance >= the level)."""
        rel = self.judged.rel
        return (rel >= 0) & (rel >= self.rel_level)

    @computed_once
    def relevant_so_far(self) -> np.ndarray:
        """Per row: relevant documents at or above it in its cell."""
        return self.cells.running_count(self.is_relevant)

    @computed_once
    def relevant(self) -> np.ndarray:
        """The relevant rows (indices of the retrieved relevant documents, in rank order)."""
        return np.flatnonzero(self.is_relevant)

    @computed_once
    def relevant_cell(self) -> np.ndarray:
        return self.judged.cell[self.relevant]

    @computed_once
    def relevant_rank(self) -> np.ndarray:
        """Rank (1-based) of each relevant row, as doubles."""
        return self.judged.rank[self.relevant].astype(np.float64)

    @computed_once
    def relevant_count(self) -> np.ndarray:
        """Per relevant row: relevant documents at or above it (it is the count-th)."""
        return self.relevant_so_far[self.relevant]

    @computed_once
    def nonrelevant_so_far(self) -> np.ndarray:
        """Per row: judged non-relevant documents (0 <= relevance < level) at or above it."""
        rel = self.judged.rel
        return self.cells.running_count((rel >= 0) & (rel < self.rel_level))

    @computed_once
    def nonrelevant_before(self) -> np.ndarray:
        """Per relevant row: judged non-relevant documents above it."""
        return self.nonrelevant_so_far[self.relevant]

    @computed_once
    def unjudged_before(self) -> np.ndarray:
        """Per relevant row: documents above it judged negatively (in the pool, not judged)."""
        return self.cells.running_count(self.judged.rel == UNJUDGED)[self.relevant]

    @computed_once
    def num_rel_ret(self) -> np.ndarray:
        """Relevant documents retrieved per cell, as doubles."""
        return np.bincount(self.relevant_cell, minlength=self.num_cells).astype(np.float64)

    @computed_once
    def precision(self) -> np.ndarray:
        """Per relevant row: precision at its rank, relevant so far / rank."""
        return self.relevant_count / self.relevant_rank

    @computed_once
    def first_relevant_rank(self) -> np.ndarray:
        """Rank of each cell's first relevant document (0 when none is retrieved)."""
        first = self.relevant_count == 1
        rank = np.zeros(self.num_cells)
        rank[self.relevant_cell[first]] = self.relevant_rank[first]
        return rank

    def sum_per_cell(self, terms: np.ndarray) -> np.ndarray:
        """The sum of ``terms`` (one per relevant row) over each cell's relevant rows."""
        return np.bincount(self.relevant_cell, weights=terms, minlength=self.num_cells)

    def mean_over_relevant(self, terms: np.ndarray) -> np.ndarray:
        """The sum of ``terms`` (one per relevant row) per cell, divided by R (0 when R = 0):
        the shape of average precision and of the measures modelled on it."""
        return ratio(self.sum_per_cell(terms), self.R)

    def relevant_in_top(self, k: np.ndarray | int) -> np.ndarray:
        """Relevant documents among each cell's first k (k per cell or one for all)."""
        return self.cells.count_within(self.relevant_so_far, k)
