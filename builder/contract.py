"""The score-table contract: what an evaluator is given and what it returns.

Every stage after reading speaks these few types, so measures, stats, analysis and the site
import them from here and never from the task kinds (``builder.tasks``) that produce them.

- ``RunRead``: one run file after reading (and, in the validate stage, its findings);
- the per-topic score table, ``SCORE_COLUMNS``: one row per (run, topic, measure), the
  summary over topics under topic ``SUMMARY_TOPIC``;
- ``Evaluation``: that table and the kind's extra tables, made lazily by ``LazyTables``;
- ``TaskKind``: what a task kind gives the pipeline (its reader, rules, evaluator, options),
  so that the config and the pipeline speak of kinds without importing ``builder.tasks``;
- ``StageProgress``: how far a long stage is (files read, batches evaluated, pages written),
  told to the stage's logger (``builder.read``, ``builder.evaluate``, ``builder.render``), so
  that a stage reports without knowing who listens (the command line draws it,
  ``builder.cli.console``; a caller of the API routes it as any ``logging`` record).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.findings import Finding

if TYPE_CHECKING:  # kept out of ``appendix --help``
    import pandas as pd
    from pydantic import BaseModel

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


def no_qrels_findings(qrels: Any) -> list[Finding]:
    return []


@dataclass(frozen=True)
class TaskKind:
    """One kind of task.

    read_qrels(path, options=None) -> qrels table read as the kind's ``options`` say (None:
    the defaults).
    read_run_files(paths, qrels, options) -> one RunRead per path, read and named, not yet
    validated (only what makes a file unreadable is found here).
    validate_runs(reads, qrels, options) -> the reads with the kind's rules applied: findings
    added, tables cut to what is evaluated.
    evaluate(qrels, runs, options) -> Evaluation over all accepted runs at once; ``runs`` is
    the concatenation of the accepted RunRead tables (column ``run`` = RunRead.name).
    options_model: the typed options of this kind (``site_config.yml`` task ``options``, and the
    command line's flags, which its fields declare), from ``builder.tasks.options``.
    """

    name: str
    family: str
    read_qrels: Callable[..., Any]
    read_run_files: Callable[[Sequence[Path], Any, Any], list[RunRead]]
    validate_runs: Callable[[list[RunRead], Any, Any], list[RunRead]]
    evaluate: Callable[[Any, pd.DataFrame, Any], Evaluation]
    options_model: type[BaseModel]
    official_measure: str
    leaderboard_measures: tuple[str, ...]
    default_measures: tuple[str, ...] = ()
    """What ``appendix evaluate`` prints without ``-m`` (the official program's default set);
    empty means every measure of the family."""
    topic_parts: bool = False
    """Whether a run file larger than the memory budget can be read and evaluated a part of
    its topics at a time (``builder.pipeline.execution.topic_ranges``): each line's first field is
    its topic, and a topic's scores read its own lines only."""
    qrels_findings: Callable[[Any], list[Finding]] = no_qrels_findings
    """Warnings about read qrels that do not stop their use (every command prints them, the
    site lists them with the task's other input findings)."""
    read_and_evaluate: Callable[..., tuple[list[RunRead], Evaluation | None]] | None = None
    """(paths, qrels, options) -> the reads ``read_runs`` makes and the ``evaluate`` of the
    accepted ones (None when none is), the stages overlapped (later files read while earlier
    runs are scored); None: the kind has no such shortcut."""

    def read_runs(self, paths: Sequence[Path], qrels: Any, options: Any) -> list[RunRead]:
        """Read, then validate, run files: the read and validate stages in one call."""
        return self.validate_runs(self.read_run_files(paths, qrels, options), qrels, options)


class StageProgress:
    """``done`` of ``total`` ``unit`` of stage ``stage``, told to the logger ``builder.<stage>``
    at level INFO as a record whose ``progress`` attribute is ``(done, total, unit)`` (``total``
    ``None`` when not known ahead).

    At a bounded rate, whatever the number of steps: a record when the count first crosses a
    tenth of the total, at most every ``every`` seconds between, and the last step; so 1,000
    files make a dozen records or so, not 1,000. Thread-safe: the ad hoc reader advances it
    from its reading threads."""

    def __init__(self, stage: str, total: int | None, unit: str, every: float = 0.1) -> None:
        self.logger = logging.getLogger(f"builder.{stage}")
        self.total, self.unit, self.every = total, unit, every
        self.done = 0
        self._told = (-1, float("-inf"))  # (tenth, time) of the last record
        self._lock = threading.Lock()

    def advance(self, steps: int = 1) -> None:
        with self._lock:
            self.done += steps
            done, total = self.done, self.total
            tenth = done * 10 // total if total else 0
            now = time.monotonic()
            if not (tenth > self._told[0] or now - self._told[1] >= self.every
                    or done == total):
                return
            self._told = (tenth, now)
            # Told under the lock, so that the records of two threads come in order.
            self.logger.info("%d%s %s", done, "" if total is None else f"/{total}", self.unit,
                             extra={"progress": (done, total, self.unit)})
