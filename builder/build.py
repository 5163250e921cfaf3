"""``appendix build``: the campaign site, as a sequence of named stages read top-down.

    config -> read -> validate -> evaluate -> analyse -> render -> publish

Each stage reports its progress on stderr; the site is rendered into a folder beside the
output and swapped in only when complete.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from builder.config.schema import SiteSpec
from builder.findings import sort_findings
from builder.formats.limits import use_limits
from builder.pipeline.model import Scale, TaskInputs
from builder.pipeline.stages import evaluate_task, load_config, read_task, validate_task

STAGES = ("config", "read", "validate", "evaluate", "analyse", "render", "publish")


class StrictError(Exception):
    """``--strict``: some runs were rejected, so nothing is published."""


class Interrupted(BaseException):
    """SIGINT (Ctrl-C) or SIGTERM stopped the build (``stopped_by_signals``). A
    ``BaseException``, as ``KeyboardInterrupt`` is, so that no ``except Exception`` of a stage
    takes it for a failure of its own; every stage's clean-up runs as it unwinds.

    published: whether the new site had already replaced the old one when it arrived."""

    def __init__(self, signum: int, published: bool = False) -> None:
        super().__init__(signum, published)
        self.signum = signum
        self.published = published

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` in the build instead of a traceback (SIGINT)
    or an instant death that leaves the staging folder (SIGTERM); the handlers before are
    restored after."""
    def stop(signum: int, _frame: object) -> None:
        raise Interrupted(signum)

    before = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


@dataclass
class Progress:
    """Per-stage lines on ``stream`` (``[3/7] validate  14 runs, 2 rejected  0.12 s``)."""

    quiet: bool = False
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    detail: str = ""

    @contextmanager
    def stage(self, name: str) -> Iterator[Progress]:
        self.detail = ""
        start = time.perf_counter()
        yield self
        if not self.quiet:
            number = STAGES.index(name) + 1
            seconds = time.perf_counter() - start
            print(f"[{number}/{len(STAGES)}] {name:<9} {self.detail:<48} {seconds:6.2f} s",
                  file=self.stream, flush=True)

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.stream, flush=True)


@dataclass
class BuildSummary:
    output: Path
    tasks: int
    evaluated: int
    rejected: int
    pages: int
    seconds: float

    def format(self) -> str:
        return (f"built {self.output}: {self.tasks} task{'s' * (self.tasks != 1)}, "
                f"{self.evaluated} runs evaluated, {self.rejected} rejected, "
                f"{self.pages} pages, {self.seconds:.1f} s")


def build_time() -> datetime:
    """``SOURCE_DATE_EPOCH`` when set (reproducible builds), else now; always UTC."""

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None:
        return datetime.fromtimestamp(int(epoch), tz=UTC)
    return datetime.now(tz=UTC)


def build(config_path: Path, out: Path | None = None, strict: bool = False,
          progress: Progress | None = None, when: datetime | None = None,
          team: str | None = None, scale: Scale | None = None) -> BuildSummary:
    """Build the site of ``config_path`` into ``out`` (default: the config's ``output``).

    ``team``: build the bundle for that team instead (``builder.pipeline.team``): its runs in full, the
    others anonymised; by default into the config's output folder suffixed with the team.

    The output's lock is held from the config stage to the end (``builder.site.publish``):
    leftovers of a killed build are repaired first, and nothing is published unless every
    stage completed."""
    from builder.site.manifest import input_files
    from builder.site.paths import team_folder
    from builder.site.publish import build_lock, check_inputs_outside, check_replaceable, recover

    progress = progress or Progress()
    start = time.perf_counter()
    held = ExitStack()
    with held, progress.stage("config") as stage:
        site = load_config(config_path)
        scale = _with_config_budget(scale, site)
        output = Path(out).resolve() if out is not None else site.output
        if team is not None and out is None:
            output = output.with_name(f"{output.name}-team-{team_folder(team)}")
        inputs = input_files(site)  # a run folder's links as named, then their targets
        check_inputs_outside(output, [*inputs, *(Path(os.path.realpath(p)) for p in inputs),
                                      *(t.options.corpus for t in site.tasks
                                        if getattr(t.options, "corpus", None))])
        held.enter_context(build_lock(output))
        for repair in recover(output):
            progress.say(repair)
        check_replaceable(output)
        stage.detail = f"{len(site.tasks)} task(s) -> {output.name}/"
        held = held.pop_all()
    with held, use_limits(site.config.limits):  # the config's limits for every later read
        return _build_stages(site, output, strict, progress, when, start, team, scale)


def _build_stages(site: SiteSpec, output: Path, strict: bool, progress: Progress,
                  when: datetime | None, start: float, team: str | None,
                  scale: Scale | None = None) -> BuildSummary:
    """Every stage after the config, with the output's lock held."""
    from builder.pipeline.analysis import analyse
    from builder.pipeline.team import anonymise, check_team, team_site
    from builder.site.parallel import signals_deferred
    from builder.site.publish import PublishError, discard, swap_in
    from builder.site.writer import render_site

    # Under a memory budget the run files are read, validated and evaluated batch by batch in
    # the evaluate stage (``builder.pipeline.execution.choose``); the read and validate stages
    # see the rest.
    with progress.stage("read") as stage:
        inputs = [read_task(task, scale) for task in site.tasks]
        streams = any(task_inputs.pending for task_inputs in inputs)
        stage.detail = (f"{sum(len(t.run_files) for t in site.tasks)} run files to read in "
                        "batches" if streams else f"{sum(len(i.reads) for i in inputs)} run files")
        if team is not None and not streams:
            check_team(inputs, team)
    with progress.stage("validate") as stage:
        for task_inputs in inputs:
            validate_task(task_inputs)
        if not streams:
            _check_rejected(inputs, strict, progress, stage)
    with progress.stage("evaluate") as stage:
        results = [evaluate_task(task_inputs, scale) for task_inputs in inputs]
        if streams:
            _check_rejected(inputs, strict, progress, stage)
            if team is not None:
                check_team(inputs, team)
        stage.detail = f"{sum(len(r.evaluation.scores) for r in results if r.evaluation)} scores"
        if team is not None:
            results = [anonymise(result, team) for result in results]
            site = team_site(site, results, team)
            stage.detail += f"; other teams' runs anonymised for team {team}"
    with progress.stage("analyse") as stage:
        analyses = [analyse(result) for result in results]
        pairs = sum(len(a.significance.table) for a in analyses if a.significance)
        stage.detail = f"{sum(len(a.topics) for a in analyses)} topics, {pairs} pairs tested"
    staged = None
    published = False
    try:
        with progress.stage("render") as stage:
            staged, pages = render_site(site, analyses, output, when or build_time())
            stage.detail = f"{pages} pages"
        with progress.stage("publish") as stage, signals_deferred():
            swap_in(staged, output)
            published = True
            stage.detail = str(output)
    except Interrupted as stop:
        stop.published = published
        raise
    except OSError as exc:  # a full or read-only disk
        raise PublishError(_cannot_write(output, exc)) from exc
    finally:
        if staged is not None and not published:
            discard(staged)
    rejected = sum(len(i.rejected) for i in inputs)
    summary = BuildSummary(output, len(site.tasks), sum(len(a.runs) for a in analyses),
                           rejected, pages, time.perf_counter() - start)
    progress.say(summary.format())
    return summary


def _cannot_write(output: Path, error: OSError) -> str:
    """What a failed write says: the site, the system's reason, and the file when the system
    names it (a failed ``write``, as on a full disk, does not)."""
    where = f" ({error.filename})" if error.filename else ""
    return (f"cannot write the site {output}: {error.strerror or error}{where}; the previous "
            "site, if any, is unchanged")


def _check_rejected(inputs: list[TaskInputs], strict: bool, progress: Progress,
                    stage: Progress) -> None:
    """Print the tasks' input findings and count the rejected runs; ``--strict``: stop when
    any was rejected."""
    for finding in sort_findings(f for i in inputs for f in i.findings):
        progress.say(finding.format())
    rejected = sum(len(i.rejected) for i in inputs)
    stage.detail = f"{sum(len(i.accepted) for i in inputs)} accepted, {rejected} rejected"
    if strict and rejected:
        raise StrictError(f"{rejected} run(s) rejected (--strict): "
                          + ", ".join(r.name for i in inputs for r in i.rejected))


def _with_config_budget(scale: Scale | None, site: SiteSpec) -> Scale | None:
    """The config's ``memory_budget`` unless the command gives one."""
    from dataclasses import replace

    from builder.config.sizes import parse_size

    if site.config.memory_budget is None or (scale is not None and scale.budget is not None):
        return scale
    return replace(scale or Scale(), budget=parse_size(site.config.memory_budget))
