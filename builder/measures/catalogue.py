"""The registry as a reader sees it: one row per measure or per parameterised family of
measures (``P_k``, k = 5, 10, ... 1000, not nine rows), and the notes shared by several rows
written once, as numbered notes under the table.

Read by the site's measures page and the documentation's, so both are the same table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from builder.measures.bibliography import Reference, cited_in
from builder.measures.registry import Difference, Measure

_NUMBER = re.compile(r"(\d+(?:\.\d+)?%?)")
SYMBOLS = {"cutoff": "k", "rank": "r", "recall": "x", "multiple": "m"}
"""The symbol of a parameter in a family's name (``P_k``, ``iP[x]``)."""
SHOWN_VALUES = 12
"""A parameter with more values lists its first and last ones around an ellipsis."""


@dataclass(frozen=True)
class CatalogueRow:
    """One row: a measure, or a family of measures differing in one parameter.

    name: ``map`` or ``P_k``; parameters: ``k = 5, 10, ... 1000``, empty for a single
    measure; note: the number of the shared note (1, 2 ...), 0 for none, or ``differs``
    written out when only this row has it. shown_as: the display name (``P@k``), as the
    site's pages write it.
    """

    name: str
    parameters: str
    description: str
    source: str
    summary: str
    differs: str
    note: int
    measures: tuple[str, ...]
    shown_as: str = ""


@dataclass(frozen=True)
class Catalogue:
    rows: list[CatalogueRow]
    notes: list[str]
    references: list[Reference]


def catalogue(measures: Sequence[Measure]) -> Catalogue:
    """The compact table of ``measures`` (one family, in declaration order)."""
    groups: dict[tuple[str, tuple[str, ...]], list[Measure]] = {}
    for measure in measures:
        groups.setdefault(_family_key(measure), []).append(measure)
    rows = [_row(members) for members in groups.values()]
    counts: dict[str, int] = {}
    for row in rows:
        if row.differs:
            counts[row.differs] = counts.get(row.differs, 0) + 1
    notes = [text for text, count in counts.items() if count > 1]
    rows = [_with_note(row, notes) for row in rows]
    references = cited_in([m.source for m in measures] + [m.differs for m in measures]
                          + [m.description for m in measures])
    return Catalogue(rows, notes, references)


def _family_key(measure: Measure) -> tuple[str, tuple[str, ...]]:
    """Measures whose names differ only in numbers and that share parameter names are one
    family; a measure without parameters is its own."""
    if not measure.params:
        return measure.name, ()
    return _NUMBER.sub("#", measure.name), tuple(sorted(measure.params))


def _row(members: list[Measure]) -> CatalogueRow:
    first = members[0]
    direction = "" if first.higher_is_better else ", lower is better"
    summary = f"{first.aggregation.value}{direction}"
    if len(members) == 1:
        return CatalogueRow(first.name, "", first.description, first.source, summary,
                            first.differs, 0, (first.name,), first.label)
    symbol = _symbol(first)
    values = [_NUMBER.search(m.name).group(1) for m in members]
    shown = values if len(values) <= SHOWN_VALUES else [*values[:3], "…", values[-1]]
    parameters = f"{symbol} = {', '.join(shown)}"
    if len(values) > SHOWN_VALUES:
        parameters += f" ({len(values)} values)"
    return CatalogueRow(_NUMBER.sub(symbol, first.name, count=1), parameters,
                        _template([m.description for m in members], symbol),
                        _template([m.source for m in members], symbol), summary,
                        _template([m.differs for m in members], symbol), 0,
                        tuple(m.name for m in members),
                        _template([m.label for m in members], symbol))


def _symbol(measure: Measure) -> str:
    key = min(measure.params)
    return SYMBOLS.get(key, key)


def _template(texts: list[str], symbol: str) -> str:
    """The words shared by ``texts``, each number that differs between them as ``symbol``
    (``Precision after k documents``); the first text when they differ otherwise."""
    pieces = [_NUMBER.split(text) for text in texts]
    if len({len(p) for p in pieces}) != 1:
        return texts[0]
    result = []
    for index, column in enumerate(zip(*pieces)):
        if len(set(column)) == 1:
            result.append(column[0])
        elif index % 2 == 1:  # a number
            result.append(symbol)
        else:
            return texts[0]
    return "".join(result)


def _with_note(row: CatalogueRow, notes: list[str]) -> CatalogueRow:
    if row.differs not in notes:
        return row
    return CatalogueRow(row.name, row.parameters, row.description, row.source, row.summary,
                        "", notes.index(row.differs) + 1, row.measures, row.shown_as)


def official_differences(families: Sequence[str]) -> list[Difference]:
    """The remaining differences from the official programs that score ``families``:
    trec_eval's for ``adhoc``, inex_eval's for the INEX families (focused, thorough, in
    context); EPRUM has no official program."""
    from builder.measures.adhoc.trec_eval.profiles import TREC_EVAL_DIFFERENCES
    from builder.measures.inex.differences import INEX_EVAL_DIFFERENCES

    rows: list[Difference] = []
    if "adhoc" in families:
        rows += TREC_EVAL_DIFFERENCES
    if {"focused", "thorough", "in-context"} & set(families):
        rows += INEX_EVAL_DIFFERENCES
    return rows
