"""The ad hoc kind's run files read into a judgement pool, a few files at a time.

Each file is read, checked and named as the evaluation names it (``builder.tasks.naming``: its
tag, else its file name) on one of two reader threads, and cut to the rows that can be among
a topic's first k documents (``ranking.top_candidates``: about a tenth of a run of 1,000
documents a topic pooled at depth 100); the main thread gathers the candidates of the runs in
file order and ranks and pools them a batch at a time (``BATCH_ROWS``), while the next files
are read. A plainly clean file is read by the light reader (``formats.trec.clean_run``: no
line numbers, docnos kept in Arrow); a file it cannot vouch for, or one listing a document
twice for a topic, is read again by the full reader, which says on which line and why. Memory
holds ``WINDOW`` run files, a batch of candidates and the pool, whatever the number of runs:
the bound of the evaluation under a memory budget (``builder.pipeline.execution.batches``). A
file with an error (a line that cannot be read, a document listed twice for a topic) is left
out, as the evaluation rejects it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from builder.findings import Finding
from builder.formats.trec.clean_run import read_clean_run
from builder.formats.trec.repeated_pairs import as_chunked, repeated_rows
from builder.formats.trec.run import code_type
from builder.stats.pools.ranking import ranked_top, reading_depth, top_candidates
from builder.stats.pools.union import PoolBuilder
from builder.tasks.adhoc.reading import READ_THREADS, read_or_reject
from builder.tasks.naming import RunNames, name_taken, run_name
from builder.validate.trec_run import duplicate_findings

WINDOW = READ_THREADS + 1
"""Files in hand at once: those being read, and the one being cut to its candidates."""
BATCH_ROWS = 1 << 16
"""Candidate rows of runs ranked together at most (beyond one run's): ranking and pooling a
batch at once rather than each run alone saves their fixed costs, 143 times for TREC-COVID
round 1."""


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
        clean = None if atof else read_clean_run(path)
        if clean is not None and not len(repeated_rows(clean.table["topic"].array.codes,
                                                       as_chunked(clean.table["doc"]))):
            return CheckedFile([], run_name(path, clean.tags, run_names), clean.table)
        file = read_or_reject(path, atof)  # says on which line and why
        if file.table is None:
            return CheckedFile(file.findings)
        found = file.findings + duplicate_findings(file.table, str(path))
        if any(f.severity == "error" for f in found) or file.table.empty:
            return CheckedFile(found)
        name = run_name(path, file.table["tag"].unique(), run_names)
        return CheckedFile(found, name, file.table)

    findings: list[Finding] = []
    owners: dict[str, str] = {}
    batch = CandidateBatch()
    reach = reading_depth(depth, exclude)
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
                batch.add(checked.name, top_candidates(checked.table, reach))
                if batch.rows >= BATCH_ROWS:
                    pool.add(ranked_top(batch.take(), depth, exclude))
    if batch.rows:
        pool.add(ranked_top(batch.take(), depth, exclude))
    return findings


@dataclass
class CandidateBatch:
    """The candidate rows (``ranking.top_candidates``) of runs waiting to be ranked together."""

    names: list[str] = field(default_factory=list)
    tables: list[pa.Table] = field(default_factory=list)
    rows: int = 0

    def add(self, name: str, candidates: pa.Table) -> None:
        self.names.append(name)
        self.tables.append(candidates)
        self.rows += candidates.num_rows

    def take(self) -> pd.DataFrame:
        """The waiting rows as one run table (columns run, topic, doc, score), runs in the
        order added; the batch is emptied."""
        sizes = [table.num_rows for table in self.tables]
        rows = pa.concat_tables(self.tables)
        run = pd.Categorical.from_codes(
            np.repeat(np.arange(len(sizes)), sizes).astype(code_type(len(sizes))),
            categories=pd.Index(self.names), validate=False)
        table = pd.DataFrame({"run": run, "topic": pd.arrays.ArrowStringArray(rows["topic"]),
                              "doc": pd.arrays.ArrowStringArray(rows["doc"]),
                              "score": rows["score"].to_numpy()}, copy=False)
        self.names, self.tables, self.rows = [], [], 0
        return table
