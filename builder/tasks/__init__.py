"""Task kinds: what binds a reader, a validator and an evaluator for one kind of task.

Each kind (``adhoc``, ``focused``, ``thorough``, ``relevant-in-context``, ...) lives in its own
module of this package and exposes ``KIND: TaskKind``. The CLI and the site find kinds here by
name, so adding a kind touches this table and one new module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.findings import Finding

if TYPE_CHECKING:  # kept out of ``appendix --help``, which lists the task kinds
    import pandas as pd
    from pydantic import BaseModel

SCORE_COLUMNS = ["run", "topic", "measure", "value"]
"""The per-topic score table: one row per (run, topic, measure); topic ``all`` is the summary."""

SUMMARY_TOPIC = "all"

KIND_MODULES: dict[str, str] = {
    "adhoc": "builder.tasks.adhoc",
    "focused": "builder.tasks.focused",
    "thorough": "builder.tasks.thorough",
    "relevant-in-context": "builder.tasks.in_context",
    "restricted-relevant-in-context": "builder.tasks.in_context",
    "best-in-context": "builder.tasks.in_context",
}


@dataclass
class RunRead:
    """A run file after reading and validation.

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
    pages, not ``appendix evaluate``) cost nothing until asked for."""

    def __init__(self, makers: dict[str, Callable[[], pd.DataFrame]]) -> None:
        self._makers = makers
        self._made: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._made:
            self._made[name] = self._makers[name]()
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


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


@dataclass(frozen=True)
class TaskKind:
    """One kind of task.

    read_qrels(path) -> qrels table.
    read_runs(paths, qrels, options) -> one RunRead per path, already validated.
    evaluate(qrels, runs, options) -> Evaluation over all accepted runs at once; ``runs`` is
    the concatenation of the accepted RunRead tables (column ``run`` = RunRead.name).
    options_model: the typed options of this kind (``site_config.yml`` task ``options`` and the
    CLI flags map onto it).
    """

    name: str
    family: str
    read_qrels: Callable[[Path], pd.DataFrame]
    read_runs: Callable[[Sequence[Path], pd.DataFrame, Any], list[RunRead]]
    evaluate: Callable[[pd.DataFrame, pd.DataFrame, Any], Evaluation]
    options_model: type[BaseModel]
    official_measure: str
    leaderboard_measures: tuple[str, ...]
    default_measures: tuple[str, ...] = ()
    """What ``appendix evaluate`` prints without ``-m`` (the official program's default set);
    empty means every measure of the family."""


def get_kind(name: str) -> TaskKind:
    """The task kind called ``name``."""
    try:
        module = importlib.import_module(KIND_MODULES[name])
    except KeyError:
        raise KeyError(f"unknown task kind {name!r}; known: {', '.join(KIND_MODULES)}") from None
    kinds = getattr(module, "KINDS", None)
    if kinds is not None:
        return kinds[name]
    return module.KIND
