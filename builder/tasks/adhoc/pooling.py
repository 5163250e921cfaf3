"""The ad hoc kind's run files read into a judgement pool, a few files at a time.

Each file is read, checked and named as the evaluation names it (``builder.tasks.naming``: its
tag, else its file name) on one of two reader threads; the main thread then cuts it to its
first k documents per topic in the evaluation's order and adds those rows to the pool, in file
order, while the next files are read, and the file's table is dropped. Memory holds ``WINDOW`` run files and the pool, whatever the
number of runs: the bound of the evaluation under a memory budget
(``builder.pipeline.execution.batches``). A file with an error (a line that cannot be read, a
document listed twice for a topic) is left out, as the evaluation rejects it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from builder.findings import Finding
from builder.stats.pools.ranking import ranked_top
from builder.stats.pools.union import PoolBuilder
from builder.tasks.adhoc.reading import READ_THREADS, read_or_reject
from builder.tasks.naming import RunNames, name_runs, name_taken
from builder.validate.trec_run import duplicate_findings

WINDOW = READ_THREADS + 1
"""Files in hand at once: those being read, and the one being pooled."""


@dataclass
class CheckedFile:
    """A run file's findings, and its name and table (None when it has an error)."""

    findings: list[Finding] = field(default_factory=list)
    name: str | None = None
    table: pd.DataFrame | None = None


def pool_run_files(paths: Sequence[Path], pool: PoolBuilder, depth: int, *,
                   pooled: Callable[[str], bool] = lambda run: True,
                   exclude: pd.MultiIndex | None = None, run_names: RunNames = "tag",
                   atof: bool = False) -> list[Finding]:
    """Add the first ``depth`` documents per topic of each run of ``paths`` that is
    ``pooled`` (by run name) to ``pool``; the findings of the files (an unreadable file, a
    name already taken: the run is left out, its reason among them)."""

    def check(path: Path) -> CheckedFile:
        file = read_or_reject(path, atof)
        if file.table is None:
            return CheckedFile(file.findings)
        found = file.findings + duplicate_findings(file.table, str(path))
        if any(f.severity == "error" for f in found) or file.table.empty:
            return CheckedFile(found)
        (name, _), = name_runs([path], [file.table], run_names)
        return CheckedFile(found, name, file.table)

    findings: list[Finding] = []
    owners: dict[str, str] = {}
    with ThreadPoolExecutor(READ_THREADS) as reader:
        pending: dict[int, Future[CheckedFile]] = {
            i: reader.submit(check, path) for i, path in enumerate(paths[:WINDOW])}
        for index, path in enumerate(paths):
            checked = pending.pop(index).result()
            if index + WINDOW < len(paths):
                pending[index + WINDOW] = reader.submit(check, paths[index + WINDOW])
            findings += checked.findings
            if checked.name is None:
                continue
            if checked.name in owners:
                findings.append(name_taken(path, checked.name, owners[checked.name], run_names))
                continue
            owners[checked.name] = str(path)
            if pooled(checked.name):
                pool.add(ranked_top(checked.table, depth, exclude, run=checked.name))
    return findings
