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
from pathlib import Path
from typing import Any

from builder.config import loading
from builder.config.schema import SiteSpec, TaskSpec
from builder.contract import TaskKind
from builder.findings import Finding, FindingCode, InputError, sort_findings
from builder.pipeline import execution
from builder.pipeline.model import Scale, TaskInputs, TaskResult
from builder.tasks import get_kind


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


def read_task(task: TaskSpec, scale: Scale | None = None) -> TaskInputs:
    """Read the task's qrels, topics, run metadata and run files (not yet validated); the run
    files later, in the evaluate stage, when the strategy that executes it as ``scale`` asks
    reads them itself (``TaskInputs.pending``, ``builder.pipeline.execution.choose``)."""
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
    if execution.choose(task.kind, scale or Scale()).defers_runs:
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


def evaluate_task(inputs: TaskInputs, scale: Scale | None = None) -> TaskResult:
    """All accepted runs of the task, evaluated by its kind, as ``scale`` asks (the same
    ``scale`` that ``read_task`` was given): at once, overlapped, in batches under a memory
    budget, by topic ranges, on a cluster (``builder.pipeline.execution.choose``). Runs read
    here are checked against the run metadata then, as the validate stage checks the others."""
    result = execution.execute(inputs, scale or Scale())
    if inputs.pending:
        inputs.pending = False
        _check_metadata_runs(inputs)
    return result
