"""The read, validate and evaluate stages of one task, shared by every command.

    read_task -> validate_task -> evaluate_task

``appendix build`` runs them on each task of the config; ``evaluate``, ``validate`` and
``compare`` on the one task their arguments describe (``command_task``), so that a command
given the options of a site's task reproduces that site's numbers. The stages hand each other
``TaskInputs`` and return a ``TaskResult``: plain data, which the analyse stage
(``builder.pipeline.analysis``) turns into what the pages show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.config import loading
from builder.config.schema import SiteSpec, TaskSpec
from builder.contract import Evaluation, RunRead, TaskKind
from builder.findings import Finding, FindingCode, InputError, sort_findings
from builder.tasks import get_kind

if TYPE_CHECKING:
    import pandas as pd


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
    """The run files are not read yet: the evaluate stage reads, validates and evaluates them
    batch by batch under a memory budget (``builder.pipeline.execution.batches``), filling ``reads``."""
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


def load_config(path: Path) -> SiteSpec:
    """The config stage: ``site_config.yml`` read and checked against the schema, every problem
    at once (``builder.config.loading``), each task's kind from the table of kinds."""
    return loading.load_config(path, get_kind)


def command_task(kind: TaskKind, qrels: Path, runs: Sequence[Path], options: Any) -> TaskSpec:
    """The task a command's arguments describe: no topics, no metadata, the kind's defaults."""
    return TaskSpec(
        id=kind.name, title=kind.name, description="", kind=kind, qrels=Path(qrels),
        run_files=tuple(Path(run) for run in runs), topics=None, run_metadata=None,
        official_measure=kind.official_measure, measures=kind.leaderboard_measures,
        options=options,
    )


def read_task(task: TaskSpec, runs: bool = True) -> TaskInputs:
    """Read the task's qrels, topics, run metadata and run files (not yet validated); the run
    files later, in the evaluate stage, when not ``runs`` (``TaskInputs.pending``)."""
    import pandas as pd

    from builder.formats.run_metadata import METADATA_COLUMNS, read_run_metadata
    from builder.formats.topic_file import read_topic_file
    from builder.formats.trec.topics import TOPIC_COLUMNS

    qrels = task.kind.read_qrels(task.qrels, task.options)  # InputError when unusable
    findings: list[Finding] = [*task.findings, *task.kind.qrels_findings(qrels)]
    topics = pd.DataFrame(columns=TOPIC_COLUMNS)
    if task.topics is not None:
        topics, found = read_topic_file(task.topics)
        findings += found
    metadata = pd.DataFrame(columns=METADATA_COLUMNS)
    if task.run_metadata is not None:
        metadata, found = read_run_metadata(task.run_metadata)
        findings += found
    if not runs:
        return TaskInputs(task, qrels, topics, metadata, [], findings, pending=True)
    reads = task.kind.read_run_files(list(task.run_files), qrels, task.options)
    return TaskInputs(task, qrels, topics, metadata, list(reads), findings)


def validate_task(inputs: TaskInputs) -> None:
    """Apply the kind's rules to every run (a run with an error is rejected); stop on bad
    topics or metadata; note metadata that names no run."""
    spec = inputs.spec
    errors = [f for f in inputs.findings if f.severity == "error"]
    if errors:
        raise InputError(sort_findings(errors))
    if not inputs.pending:
        inputs.reads = spec.kind.validate_runs(inputs.reads, inputs.qrels, spec.options)
        _check_metadata_runs(inputs)


def _check_metadata_runs(inputs: TaskInputs) -> None:
    """A warning for each run the metadata names and no run file has."""
    spec = inputs.spec
    if spec.run_metadata is not None:
        names = {read.name for read in inputs.reads}
        for run in sorted(set(inputs.metadata["run"]) - names):
            inputs.findings.append(Finding(str(spec.run_metadata), None, "warning",
                                           FindingCode.UNKNOWN_RUN,
                                           f"metadata for run {run!r}, which has no run file"))


@dataclass(frozen=True)
class Scale:
    """How the evaluate stage runs: in batches of runs whose evaluation fits ``budget`` bytes
    (None: all runs at once), on the Dask cluster at ``scheduler`` (None: here); ``extras``:
    also make the kind's extra tables (the site's pages need them, ``evaluate`` does not)."""

    budget: int | None = None
    scheduler: str | None = None
    extras: bool = True

    @property
    def streams(self) -> bool:
        """Whether the run files are read batch by batch too (under a budget)."""
        return self.budget is not None


def defers_runs(kind: TaskKind, scale: Scale) -> bool:
    """Whether the run files are read in the evaluate stage (``read_task(runs=False)``): under
    a memory budget, batch by batch; else when the kind reads and evaluates them overlapped
    (``TaskKind.read_and_evaluate``) and no cluster evaluates them."""
    return scale.streams or (kind.read_and_evaluate is not None and scale.scheduler is None)


def _read_and_evaluate(inputs: TaskInputs) -> TaskResult:
    """The run files read, validated and evaluated by the kind at once, overlapped."""
    spec = inputs.spec
    assert spec.kind.read_and_evaluate is not None
    reads, evaluation = spec.kind.read_and_evaluate(list(spec.run_files), inputs.qrels,
                                                    spec.options)
    inputs.reads = list(reads)
    return TaskResult(inputs, evaluation)


def evaluate_task(inputs: TaskInputs, scale: Scale | None = None) -> TaskResult:
    """All accepted runs of the task, by the task's kind: at once, or in batches
    (``builder.pipeline.execution.batching``) when ``scale`` asks for a memory budget or a scheduler; the run
    files read batch by batch first when still ``pending`` (``builder.pipeline.execution.batches``)."""
    import pandas as pd

    if inputs.pending:
        if scale is not None and scale.streams:
            from builder.pipeline.execution.batches import stream_task

            result = stream_task(inputs, scale)
        else:
            result = _read_and_evaluate(inputs)
        inputs.pending = False
        _check_metadata_runs(inputs)
        return result
    accepted = inputs.accepted
    if not accepted:
        return TaskResult(inputs, None)
    spec = inputs.spec
    if scale is not None and (scale.budget is not None or scale.scheduler is not None):
        from builder.pipeline.execution.batching import evaluate_batches

        evaluation = evaluate_batches(spec.kind, inputs.qrels, accepted, spec.options,
                                      scale.budget, scale.scheduler, scale.extras)
        return TaskResult(inputs, evaluation)
    runs = pd.concat([read.table for read in accepted], ignore_index=True)
    evaluation = spec.kind.evaluate(inputs.qrels, runs, spec.options)
    return TaskResult(inputs, evaluation)
