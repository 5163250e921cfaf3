"""Ad hoc run files read, validated and scored at once: later files are read while the runs of
earlier ones are scored, so that both cores stay busy through the whole evaluation (reading
holds the GIL in its Python parts, scoring in few; each fills the other's gaps).

    reader threads:  read + validate file 1, 2, 3, ...        (in file order, two at a time)
    scoring thread:  score group 1 (files 1..a), group 2, ... (as each group is complete)

A group's runs are scored under provisional names (their files' positions); once every file is
read, the runs are named (``builder.tasks.naming``) and their tables typed exactly as
``read_run_files`` does for all of them at once, and the groups' grids are joined
(``builder.tasks.adhoc.parallel.join_cells``) under the final names. Each run's cells do not
depend on the other runs of its group, so the scores are the one-shot evaluation's, bit for bit.
A run rejected only once all files are named (a name an earlier file took) was scored for
nothing: the accepted runs are then scored again, at once.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from builder.contract import RunRead
from builder.formats.trec.run import RunFile, code_type, recategorised
from builder.tasks.adhoc.parallel import CellScores, join_cells, score_cells, score_cells_parallel
from builder.tasks.adhoc.reading import READ_THREADS, name_reads, read_or_reject
from builder.validate.trec_run import validate_trec_run

if TYPE_CHECKING:
    from builder.findings import Finding
    from builder.tasks.options.adhoc import AdhocOptions

GROUPS = 6
"""Groups the files are scored in (by size): the last, scored after all reading, is small."""


def read_and_score(paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions,
                   only: Collection[str] | None = None
                   ) -> tuple[list[RunRead], CellScores | None]:
    """The reads of ``paths`` (named, typed and validated as ``KIND.read_runs`` makes them)
    and the scores of the accepted ones (None when none is), reading and scoring overlapped."""
    atof, depth = options.reading == "atof", options.depth
    qrels_topics = set(pd.unique(qrels["topic"]))
    topics = sorted(qrels_topics)
    sizes = [_size(path) for path in paths]
    target = sum(sizes) / GROUPS

    def read(path: Path) -> tuple[RunFile, list[Finding]]:
        file = read_or_reject(path, atof)
        found = [] if file.table is None else \
            validate_trec_run(file.table, str(path), qrels_topics, depth=depth,
                              complete=options.complete)
        return file, found

    scored: list[int] = []
    parts: list[Future] = []
    with ThreadPoolExecutor(READ_THREADS) as readers, ThreadPoolExecutor(1) as scorer:
        reading = [readers.submit(read, path) for path in paths]
        group: list[tuple[int, pd.DataFrame]] = []
        group_bytes = 0
        for index, future in enumerate(reading):
            file, found = future.result()
            if file.table is not None and not _errors(file.findings + found):
                group.append((index, file.table))
                group_bytes += sizes[index]
            last = index == len(paths) - 1
            if group and (group_bytes >= target or last):
                scored += [i for i, _ in group]
                table = _group_table(group, topics)
                score = score_cells_parallel if last else score_cells
                parts.append(scorer.submit(score, qrels, table, options, only))
                group, group_bytes = [], 0
        files = [future.result() for future in reading]
        # Named while the last groups are scored: the scorer reads only the group tables,
        # made above from the files' columns, never the tables named here.
        reads = name_reads(paths, [file for file, _ in files], qrels, options)
        for read, (_, found) in zip(reads, files):
            read.findings += found
            if read.table is not None:
                del read.table["tag"]
        done = [part.result() for part in parts]
    accepted = [i for i, read in enumerate(reads) if not read.rejected]
    if not accepted:
        return reads, None
    if accepted != scored:  # a run rejected by its name: score the others again
        runs = pd.concat([reads[i].table for i in accepted], ignore_index=True)
        return reads, score_cells_parallel(qrels, runs, options, only)
    cells = join_cells(done, by="runs")
    cells.runs = [reads[i].name for i in accepted]
    return reads, cells


def _errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _group_table(group: list[tuple[int, pd.DataFrame]], topics: list[str]) -> pd.DataFrame:
    """The group's run tables as one (run, topic, doc, score), each run named by its file's
    position, the topics one categorical (the qrels' topics, then the others). Codes are made
    at the width pandas keeps them, and one table's columns are taken as they are: a copy of a
    10M-line run's columns would cost a few tenths of a second between its read and its
    scores, with nothing else to do on the other core."""
    tables = [table for _, table in group]
    others = sorted({t for table in tables for t in table["topic"].cat.categories} - set(topics))
    topic_type = pd.CategoricalDtype([*topics, *others])
    codes = [recategorised(table["topic"].array, topic_type).codes for table in tables]
    lengths = [len(table) for table in tables]
    run = pd.Categorical.from_codes(
        np.repeat(np.arange(len(group), dtype=code_type(len(group))), lengths),
        categories=[str(index) for index, _ in group], validate=False)
    return pd.DataFrame({
        "run": run,
        "topic": pd.Categorical.from_codes(_joined(codes), dtype=topic_type, validate=False),
        "doc": tables[0]["doc"] if len(tables) == 1 else
        pd.concat([table["doc"] for table in tables], ignore_index=True),
        "score": _joined([table["score"].to_numpy() for table in tables]),
    }, copy=False)


def _joined(arrays: list[np.ndarray]) -> np.ndarray:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)
