"""The ad hoc kind's run files read into a judgement pool, one file at a time.

Each file is read (two at a time: the next is read while the last is ranked), named as the
evaluation names it (``builder.tasks.naming``: its tag, else its file name), cut to its first
k documents per topic in the evaluation's order and added to the pool; its table is then
dropped. A file with an error (a line that cannot be read, a document listed twice for a
topic) is left out, as the evaluation rejects it. Memory holds two run files and the pool, whatever the number of runs: the same
bound as the evaluation under a memory budget (``builder.pipeline.execution.batches``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from builder.findings import Finding
from builder.stats.pools.ranking import ranked_top
from builder.stats.pools.union import PoolBuilder
from builder.tasks.adhoc.reading import read_or_reject
from builder.tasks.naming import RunNames, name_runs, name_taken
from builder.validate.trec_run import duplicate_findings

READ_AHEAD = 1
"""Files read while the current one is ranked."""


def pool_run_files(paths: Sequence[Path], pool: PoolBuilder, depth: int, *,
                   pooled: Callable[[str], bool] = lambda run: True,
                   exclude: pd.MultiIndex | None = None, run_names: RunNames = "tag",
                   atof: bool = False) -> list[Finding]:
    """Add the first ``depth`` documents per topic of each run of ``paths`` that is
    ``pooled`` (by run name) to ``pool``; the findings of the files (an unreadable file, a
    name already taken: the run is left out, its reason among them)."""
    findings: list[Finding] = []
    owners: dict[str, str] = {}
    with ThreadPoolExecutor(READ_AHEAD + 1) as reader:
        pending = [reader.submit(read_or_reject, path, atof) for path in paths[:READ_AHEAD + 1]]
        for index, path in enumerate(paths):
            file = pending[index].result()
            pending[index] = None  # type: ignore[call-overload]  # the table is let go below
            if index + READ_AHEAD + 1 < len(paths):
                pending.append(reader.submit(read_or_reject, paths[index + READ_AHEAD + 1], atof))
            findings += file.findings
            if file.table is None:
                continue
            errors = duplicate_findings(file.table, str(path))
            findings += errors
            if any(f.severity == "error" for f in file.findings + errors) or file.table.empty:
                continue
            (name, _), = name_runs([path], [file.table], run_names)
            if name in owners:
                findings.append(name_taken(path, name, owners[name], run_names))
                continue
            owners[name] = str(path)
            if pooled(name):
                table = file.table
                table["run"] = pd.Categorical.from_codes(np.zeros(len(table), np.int8), [name])
                pool.add(ranked_top(table, depth, exclude))
            del file
    return findings
