"""The score-table contract: what an evaluator is given and what it returns.

Every stage after reading speaks these few types, so measures, stats, analysis and the site
import them from here and never from the task kinds (``builder.tasks``) that produce them.

- ``RunRead``: one run file after reading (and, in the validate stage, its findings);
- the per-topic score table, ``SCORE_COLUMNS``: one row per (run, topic, measure), the
  summary over topics under topic ``SUMMARY_TOPIC``;
- ``Evaluation``: that table and the kind's extra tables, made lazily by ``LazyTables``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from builder.findings import Finding

if TYPE_CHECKING:  # kept out of ``appendix --help``
    import pandas as pd

SCORE_COLUMNS = ["run", "topic", "measure", "value"]
"""The per-topic score table: one row per (run, topic, measure); topic ``all`` is the summary."""

SUMMARY_TOPIC = "all"


@dataclass
class RunRead:
    """A run file after reading, then validation.

    ``table`` is ``None`` when the file could not be read at all. ``findings`` hold every
    problem found; a run with an error finding is rejected and not evaluated.
    """

    path: str
    name: str
    table: pd.DataFrame | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        return self.table is None or any(f.severity == "error" for f in self.findings)


class LazyTables(Mapping[str, "pd.DataFrame"]):
    """Tables made on first access, then kept: extras that only some callers read (the
    pages, not ``appendix evaluate``) cost nothing until asked for. ``steps``: the tables no
    page reads (made as steps towards others, or for a caller that asks for them by name),
    which an evaluation in batches does not make nor keep (``page_tables``)."""

    def __init__(self, makers: dict[str, Callable[[], pd.DataFrame]],
                 steps: frozenset[str] = frozenset()) -> None:
        self._makers = makers
        self._made: dict[str, pd.DataFrame] = {}
        self.steps = steps

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._made:
            self._made[name] = self._makers[name]()
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


def page_tables(extras: Mapping[str, pd.DataFrame]) -> list[str]:
    """The names of the extra tables the pages read: all but a ``LazyTables``' ``steps``."""
    steps = getattr(extras, "steps", frozenset())
    return [name for name in extras if name not in steps]


@dataclass
class Evaluation:
    """What an evaluator returns.

    scores: the per-topic score table (``SCORE_COLUMNS``), summary rows under topic ``all``.
    extras: kind-specific tables for the pages (precision/recall points per rank, per-article
    scores, ...), keyed by a short name documented by the kind; a ``LazyTables`` when they
    are costly and only pages read them.
    """

    scores: pd.DataFrame
    extras: Mapping[str, pd.DataFrame] = field(default_factory=dict)
