"""The ad hoc kind's read and validate stages: TREC run files read two at a time, named,
typed with shared categories, then checked by the TREC run rules (``builder.validate.trec_run``).

A file that cannot be opened or decoded is rejected alone, with its reason; the qrels are read
strictly or as trec_eval reads them (``reading: atof``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from builder.contract import RunRead, StageProgress
from builder.findings import Finding, InputError
from builder.formats.bounded import refusing_overflow
from builder.formats.trec.qrels import read_trec_qrels
from builder.formats.trec.run import RunFile, code_type, read_trec_run, recategorised
from builder.tasks.naming import name_runs
from builder.tasks.options.adhoc import AdhocOptions
from builder.validate.trec_run import validate_trec_run

READ_THREADS = 2


def read_run_files(
    paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions
) -> list[RunRead]:
    """Read run files (two at a time), named by ``name_runs``.

    Each table gets a ``run`` column (its ``tag`` goes in validation, which reads it).
    ``run`` and ``topic`` are categorical with the same categories in every table (all run
    names; the qrels' topics, then any other topic a run names), so that the tables
    concatenate into one categorical column of small codes rather than millions of strings.
    """
    atof = options.reading == "atof"
    progress = StageProgress("read", len(paths), "run files")

    def read(path: Path) -> RunFile:
        file = read_or_reject(path, atof)
        progress.advance()
        return file

    with ThreadPoolExecutor(READ_THREADS) as pool:
        files = list(pool.map(read, paths))
    return name_reads(paths, files, qrels, options)


def name_reads(paths: Sequence[Path], files: list[RunFile], qrels: pd.DataFrame,
               options: AdhocOptions) -> list[RunRead]:
    """The read files named and typed as ``read_run_files`` describes."""
    names = name_runs(paths, [file.table for file in files], options.run_names)
    run_codes = {name: code for code, name in enumerate(dict.fromkeys(n for n, _ in names))}
    qrels_topics = set(pd.unique(qrels["topic"]))
    topics = sorted(qrels_topics) + sorted(
        {t for file in files if file.table is not None for t in file.table["topic"].cat.categories}
        - qrels_topics
    )
    # One dtype each, made once: categories are checked once, not once per run.
    topic_type, run_type = pd.CategoricalDtype(topics), pd.CategoricalDtype(list(run_codes))
    for file, (name, _) in zip(files, names):
        table = file.table
        if table is None:
            continue
        table["topic"] = recategorised(table["topic"].array, topic_type)
        code = np.full(len(table), run_codes[name], dtype=code_type(len(run_codes)))
        table.insert(0, "run", pd.Categorical.from_codes(code, dtype=run_type, validate=False))
    return [
        RunRead(str(path), name, file.table, file.findings + naming)
        for path, file, (name, naming) in zip(paths, files, names)
    ]


def read_or_reject(path: Path, atof: bool) -> RunFile:
    """The run file, or no table and the reason when it cannot be opened or decoded: the run
    is rejected alone."""
    try:
        with refusing_overflow(str(path)):
            return read_trec_run(path, atof)
    except InputError as error:
        return RunFile(None, error.findings)


def read_qrels(path: Path, options: AdhocOptions | None = None) -> pd.DataFrame:
    """The qrels, read strictly or as trec_eval reads them (``options.reading``)."""
    return read_trec_qrels(path, atof=options is not None and options.reading == "atof")


def qrels_findings(qrels: pd.DataFrame) -> list[Finding]:
    """The warnings of the qrels' ``atof`` reading (``read_trec_qrels``)."""
    return list(qrels.attrs.get("findings", []))


def validate_runs(
    reads: list[RunRead], qrels: pd.DataFrame, options: AdhocOptions
) -> list[RunRead]:
    """The ad hoc kind's ``validate_runs``: the TREC run rules at the task's depth, a qrels
    topic without results scored 0 or left out as ``-c`` says."""
    return validate_trec_runs(reads, qrels, depth=options.depth, complete=options.complete)


def validate_trec_runs(
    reads: list[RunRead], qrels: pd.DataFrame, *, depth: int, complete: bool,
    unscored: frozenset[str] = frozenset(),
) -> list[RunRead]:
    """Apply ``validate_trec_run`` to each read (two at a time); drop the tags it read. For
    every kind that reads TREC runs: ``complete`` is whether the kind's means count a qrels
    topic without results (as 0), ``unscored`` the qrels topics its means leave out for every
    run, which the warning naming such topics says."""
    qrels_topics = set(pd.unique(qrels["topic"]))

    def validate(read: RunRead) -> RunRead:
        if read.table is None:
            return read
        found = validate_trec_run(read.table, read.path, qrels_topics, depth=depth,
                                  complete=complete, unscored=unscored)
        del read.table["tag"]
        return RunRead(read.path, read.name, read.table, read.findings + found)

    with ThreadPoolExecutor(READ_THREADS) as pool:
        return list(pool.map(validate, reads))
