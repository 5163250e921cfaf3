"""``appendix build``: the campaign site, as a sequence of named stages read top-down.

    config -> read -> validate -> evaluate -> analyse -> render -> publish

Each stage reports to its logger (``builder.config``, ``builder.read``, ... ``builder.publish``):
a line when it ends (``[3/7] validate  14 runs, 2 rejected  0.12 s``), how far it is while a
long one runs (``builder.contract.StageProgress``); the findings and the summary go to the
logger ``builder.build``. The command line draws them (``builder.cli.console``); a caller of
the API routes them as any ``logging`` records. The site is rendered into a folder beside the output
and swapped in only when complete.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from builder.config.schema import SiteSpec
from builder.contract import StageProgress
from builder.findings import counted, sort_findings
from builder.formats.limits import use_limits
from builder.formats.source import digests_kept
from builder.pipeline.forked import signals_deferred
from builder.pipeline.incremental import EvaluationStore, cache_folder, evaluate_cached
from builder.pipeline.model import Scale, TaskInputs
from builder.pipeline.stages import evaluate_task, load_config, read_task, validate_task

if TYPE_CHECKING:
    from builder.pipeline.analysis import TaskAnalysis

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


_received: list[int] = []
"""The signals ``stopped_by_signals`` received, in its block."""


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` in the build instead of a traceback (SIGINT)
    or an instant death that leaves the staging folder (SIGTERM); the handlers before are
    restored after.

    Python runs a handler between any two bytecodes, a finaliser's (``__del__``, a weakref's
    or the garbage collector's callback) included, and there it prints "Exception ignored"
    and drops what the handler raised: the build would go on and publish. So the signal is
    also kept, and the build raises it again before publishing (``_unless_signalled``)."""
    def stop(signum: int, _frame: object) -> None:
        _received.append(signum)
        raise Interrupted(signum)

    _received.clear()
    before = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        _received.clear()


def _unless_signalled() -> None:
    """Raise ``Interrupted`` for a signal received whose exception was dropped on the way
    (``stopped_by_signals``)."""
    if _received:
        raise Interrupted(_received[0])


LOG = logging.getLogger("builder.build")


@dataclass
class Progress:
    """Per-stage lines (``[3/7] validate  14 runs, 2 rejected  0.12 s``), each a record of
    level INFO of the stage's logger whose ``stage`` attribute is the stage's name; ``quiet``:
    none, nor any other record of the build's own (findings, summary)."""

    quiet: bool = False
    detail: str = ""

    @contextmanager
    def stage(self, name: str) -> Iterator[Progress]:
        self.detail = ""
        start = time.perf_counter()
        yield self
        if not self.quiet:
            number = STAGES.index(name) + 1
            seconds = time.perf_counter() - start
            logging.getLogger(f"builder.{name}").info(
                "[%d/%d] %-9s %-48s %6.2f s", number, len(STAGES), name, self.detail, seconds,
                extra={"stage": name})

    def say(self, text: str, level: int = logging.INFO) -> None:
        if not self.quiet:
            LOG.log(level, "%s", text)

    def debug(self, stage: str, text: str, *args: object) -> None:
        """What ``-v`` adds: the detail of a stage, task by task."""
        if not self.quiet:
            logging.getLogger(f"builder.{stage}").debug(text, *args)


@dataclass
class BuildSummary:
    """What a build made, and ``spec``, the site's config as the build read it (what a caller
    that archives or watches the site's inputs goes on with, rather than reading the config
    again, which may have changed since)."""

    spec: SiteSpec
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
          team: str | None = None, scale: Scale | None = None,
          base_url: str | None = None, cache: bool = False) -> BuildSummary:
    """Build the site of ``config_path`` into ``out`` (default: the config's ``output``).

    ``base_url``: the site's address, instead of the config's ``site_url``. ``cache``: keep
    each run's evaluation beside the output and evaluate only the runs that changed since
    (``builder.pipeline.incremental``); the site is the same.

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
        if base_url is not None:
            site = _with_site_url(site, base_url)
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
        stage.detail = f"{counted(len(site.tasks), 'task')} -> {output.name}/"
        held = held.pop_all()
    # The config's limits for every later read; each input hashed once (cache keys, manifest).
    with held, use_limits(site.config.limits), digests_kept(inputs):
        return _build_stages(site, output, strict, progress, when, start, team, scale, cache)


def _build_stages(site: SiteSpec, output: Path, strict: bool, progress: Progress,
                  when: datetime | None, start: float, team: str | None,
                  scale: Scale | None = None, cache: bool = False) -> BuildSummary:
    """Every stage after the config, with the output's lock held."""
    from builder.pipeline.analysis import analyse
    from builder.pipeline.team import anonymise, check_team, team_site
    from builder.site.publish import PublishError, discard, swap_in
    from builder.site.writer import render_site

    spec = site  # as the config stage read it: a team's bundle renders another (team_site)
    # Under a memory budget the run files are read, validated and evaluated batch by batch in
    # the evaluate stage (``builder.pipeline.execution.choose``); the read and validate stages
    # see the rest.
    with progress.stage("read") as stage:
        inputs = [read_task(task, scale) for task in site.tasks]
        for task_inputs in inputs:
            progress.debug("read", "task %s: %d run files read, %d topics described",
                           task_inputs.spec.id, len(task_inputs.reads), len(task_inputs.topics))
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
        here = scale is None or (scale.budget is None and scale.scheduler is None)
        store = EvaluationStore(cache_folder(output)) if cache and here and not streams else None
        tasks = StageProgress("evaluate", len(inputs), "tasks")
        results = []
        for task_inputs in inputs:
            results.append(evaluate_task(task_inputs, scale) if store is None
                           else evaluate_cached(task_inputs, store))
            tasks.advance()
            progress.debug("evaluate", "task %s: %d runs evaluated", task_inputs.spec.id,
                           len(task_inputs.accepted))
        if streams:
            _check_rejected(inputs, strict, progress, stage)
            if team is not None:
                check_team(inputs, team)
        stage.detail = f"{sum(len(r.evaluation.scores) for r in results if r.evaluation)} scores"
        if store is not None:
            store.prune()
            stage.detail += f", {store.misses} runs evaluated, {store.hits} from the cache"
        if team is not None:
            results = [anonymise(result, team) for result in results]
            site = team_site(site, results, team)
            stage.detail += f"; other teams' runs anonymised for team {team}"
    with progress.stage("analyse") as stage:
        analyses = [analyse(result) for result in results]
        for analysis in analyses:
            for line in analysis_notes(analysis):
                progress.say(line)
        pairs = sum(len(a.significance.table) for a in analyses if a.significance)
        stage.detail = f"{sum(len(a.topics) for a in analyses)} topics, {pairs} pairs tested"
    staged = None
    published = False
    try:
        with progress.stage("render") as stage:
            staged, pages = render_site(site, analyses, output, when or build_time())
            stage.detail = f"{pages} pages"
        with progress.stage("publish") as stage, signals_deferred():
            _unless_signalled()  # signals are held from here: none is received unseen
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
    summary = BuildSummary(spec, output, len(site.tasks), sum(len(a.runs) for a in analyses),
                           rejected, pages, time.perf_counter() - start)
    progress.say(summary.format())
    return summary


def analysis_notes(analysis: TaskAnalysis) -> list[str]:
    """What an organiser should know of a task before publishing, one console line each: the
    runs that have no row in the task's run metadata (they show no team nor type), and each
    group of runs that retrieve the same documents in the same order for every topic
    (``builder.pipeline.analysis.duplicate_runs``)."""
    task = analysis.spec.id
    lines = []
    if analysis.spec.run_metadata is not None:
        missing = [run for run in analysis.runs if run not in analysis.metadata]
        if missing:
            lines.append(f"{task}: {len(missing)} run{'s' * (len(missing) != 1)} without a row "
                         f"in the run metadata: {', '.join(missing)}")
    groups = {tuple(sorted([run, *others])) for run, others in analysis.duplicates.items()}
    lines += [f"{task}: duplicate runs (the same documents in the same order for every "
              f"topic): {', '.join(group)}" for group in sorted(groups)]
    return lines


def _cannot_write(output: Path, error: OSError) -> str:
    """What a failed write says: the site, the system's reason, and the file when the system
    names it (a failed ``write``, as on a full disk, does not)."""
    where = f" ({error.filename})" if error.filename else ""
    return (f"cannot write the site {output}: {error.strerror or error}{where}; the previous "
            "site, if any, is unchanged")


REJECTED_NAMED = 10
"""Rejected runs the validate stage's line names; the site's Rejected runs list them all."""


def _check_rejected(inputs: list[TaskInputs], strict: bool, progress: Progress,
                    stage: Progress) -> None:
    """Print the tasks' input findings and count the rejected runs, naming them (the task's
    id first when the site has several tasks); ``--strict``: stop when any was rejected."""
    for finding in sort_findings(f for i in inputs for f in i.findings):
        progress.say(finding.format(), logging.WARNING)
    named = [r.name if len(inputs) == 1 else f"{i.spec.id}/{r.name}"
             for i in inputs for r in i.rejected]
    names = ": " + ", ".join(named[:REJECTED_NAMED]) if named else ""
    if len(named) > REJECTED_NAMED:
        names += f" and {len(named) - REJECTED_NAMED} more (the site lists them)"
    stage.detail = f"{sum(len(i.accepted) for i in inputs)} accepted, {len(named)} rejected{names}"
    if strict and named:
        raise StrictError(f"{counted(len(named), 'run')} rejected (--strict): " + ", ".join(named))


def _with_site_url(site: SiteSpec, url: str) -> SiteSpec:
    """The config with ``site_url`` set to ``url`` (``--base-url``)."""
    from dataclasses import replace

    from builder.config.schema import site_address

    return replace(site, config=site.config.model_copy(update={"site_url": site_address(url)}))


def _with_config_budget(scale: Scale | None, site: SiteSpec) -> Scale | None:
    """The config's ``memory_budget`` unless the command gives one."""
    from dataclasses import replace

    from builder.config.sizes import parse_size

    if site.config.memory_budget is None or (scale is not None and scale.budget is not None):
        return scale
    return replace(scale or Scale(), budget=parse_size(site.config.memory_budget))
