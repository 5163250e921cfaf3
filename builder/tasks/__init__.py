"""Task kinds: what binds a reader, rules, an evaluator and options for one kind.

Each kind (``adhoc``, ``focused``, ``thorough``, ``relevant-in-context``, ...) lives in its own
module of this package and exposes ``KIND: TaskKind`` (or ``KINDS``, several kinds sharing one
module). ``KIND_MODULES`` is the one table of kinds: the CLI lists its names without importing
them (``appendix --help`` stays fast), and everything else the pipeline asks of a kind is a
field of its ``TaskKind``. A kind knows nothing of the stages after it: the site's table of page
models (``builder.site.runs``) and the demo's table of writers (``builder.demo``) name the kinds.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # kept out of ``appendix --help``, which lists the task kinds
    import pandas as pd
    from pydantic import BaseModel

    from builder.contract import Evaluation, RunRead
    from builder.findings import Finding

KIND_MODULES: dict[str, str] = {
    "adhoc": "builder.tasks.adhoc",
    "focused": "builder.tasks.inex.focused",
    "thorough": "builder.tasks.inex.thorough",
    "relevant-in-context": "builder.tasks.inex.in_context",
    "restricted-relevant-in-context": "builder.tasks.inex.in_context",
    "best-in-context": "builder.tasks.inex.in_context",
    "eprum": "builder.tasks.eprum",
}

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
    options_model: the typed options of this kind (``site_config.yml`` task ``options`` and the
    CLI flags map onto it).
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
    its topics at a time (``builder.pipeline.execution.topic_ranges``): each line's first field is its topic, and
    a topic's scores read its own lines only."""
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
