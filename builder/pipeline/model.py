"""The plain types the stages pass: a task's inputs, its result, how its evaluation executes.

    read_task -> TaskInputs -> validate_task -> evaluate_task -> TaskResult

``Scale`` is what the command line or the config asks of the evaluate stage; a ``Strategy`` is
one way of executing it (``builder.pipeline.execution``). They live here, below the stages and
the strategies alike, so that a strategy imports what it is handed and never the stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from builder.config.schema import TaskSpec
    from builder.contract import Evaluation, RunRead
    from builder.findings import Finding


@dataclass
class TaskInputs:
    """One task after the read stage: its qrels, topics, run metadata and read runs (validated
    once the validate stage has run).

    ``findings`` are the problems of the topics and metadata files (the runs carry their own).
    """

    spec: TaskSpec
    qrels: Any
    topics: pd.DataFrame
    metadata: pd.DataFrame
    reads: list[RunRead]
    findings: list[Finding] = field(default_factory=list)
    pending: bool = False
    """The run files are not read yet: the chosen strategy reads, validates and evaluates them
    in the evaluate stage (``Strategy.defers_runs``), filling ``reads``."""
    runs_dropped: bool = False
    """The accepted runs' tables were emptied once evaluated (they did not fit the memory
    budget together): only their scores, findings and the kind's extras are left."""

    @property
    def accepted(self) -> list[RunRead]:
        return [read for read in self.reads if not read.rejected]

    @property
    def rejected(self) -> list[RunRead]:
        return [read for read in self.reads if read.rejected]


@dataclass
class TaskResult:
    """One task after the evaluate stage (``evaluation`` is None when no run was accepted)."""

    inputs: TaskInputs
    evaluation: Evaluation | None


@dataclass(frozen=True)
class Scale:
    """What is asked of the evaluate stage: batches of runs whose evaluation fits ``budget``
    bytes (None: no bound), evaluated on the Dask cluster at ``scheduler`` (None: here);
    ``extras``: also make the kind's extra tables (the site's pages need them, ``evaluate``
    does not); ``overlap``: read later run files while earlier ones are scored, when the kind
    can (``appendix evaluate``; the build keeps its read and validate stages apart, each
    reported, and stops on ``--strict`` before evaluating). The results are the same whatever
    is asked; which strategy answers is ``builder.pipeline.execution.choose``'s table."""

    budget: int | None = None
    scheduler: str | None = None
    extras: bool = True
    overlap: bool = False


class Strategy(Protocol):
    """One way of executing the evaluate stage: a module of ``builder.pipeline.execution``.

    ``defers_runs``: the run files are read by ``evaluate``, not by the read stage
    (``TaskInputs.pending``). ``evaluate(inputs, scale)``: the task's result, identical
    whichever strategy makes it."""

    defers_runs: bool

    def evaluate(self, inputs: TaskInputs, scale: Scale) -> TaskResult: ...
