"""The INEX focused task (inex_eval 3.1 ``-f``): ranked non-overlapping passages, iP[x] and MAiP.

Extras of the Evaluation (for the run pages):

- ``impossible_recall``: run, topic, count of inex_eval's "Impossible recall point" lines
  (passages after which recall was above 1), only where there are some;
- ``summary``: per run, passages, characters retrieved, highlighted characters retrieved and
  articles retrieved (the run page's summary box);
- ``elements``: for element runs, the kinds of element each returns (``element_kinds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from pydantic import BaseModel

from builder.contract import Evaluation, RunRead, StageProgress, TaskKind
from builder.findings import Finding
from builder.formats.inex.passage_run import PassageRunReader, element_kinds
from builder.formats.inex.qrels import InexQrels, read_inex_qrels
from builder.measures.inex.focused.precision import OFFICIAL_CUTOFFS, interpolated_precision
from builder.measures.inex.focused.scores import focused_score_table
from builder.measures.inex.ranking import RankedPassages, rank_passages
from builder.tasks.inex.eprum_block import eprum_extras
from builder.tasks.naming import name_runs
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.passages import FocusedOptions
from builder.validate.fol_run import validate_fol_run


def read_run_files(paths: Sequence[Path], qrels: InexQrels, options: BaseModel) -> list[RunRead]:
    """Read FOL or element runs (element ones resolved over the ``corpus`` option), named by
    ``name_runs``; each table gets a ``run`` column."""
    reader = PassageRunReader(getattr(options, "corpus", None))
    progress = StageProgress("read", len(paths), "run files")
    files = []
    for path in paths:
        files.append(reader.read(path))
        progress.advance()
    names = name_runs(paths, [table for table, _ in files], options.run_names)
    reads = []
    for path, (table, findings), (name, naming) in zip(paths, files, names):
        if table is not None:
            table["run"] = name
        reads.append(RunRead(str(path), name, table, findings + naming))
    return reads


def validate_runs_with(
    reads: list[RunRead], qrels: InexQrels, max_results: int | None, reject_overlap: bool
) -> list[RunRead]:
    """``validate_fol_run`` on each readable run: its findings, its table cut to what counts."""
    validated = []
    for read in reads:
        if read.table is not None:
            table, found = validate_fol_run(read.table, read.path, qrels.topics, max_results,
                                            reject_overlap, doc_chars=qrels.doc_chars)
            read = RunRead(read.path, read.name, table, read.findings + found)
        validated.append(read)
    return validated


def validate_runs(reads: list[RunRead], qrels: InexQrels, options: FocusedOptions) -> list[RunRead]:
    return validate_runs_with(reads, qrels, options.max_results, reject_overlap=True)


def run_extras(ranked: RankedPassages, runs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The tables the run pages need besides the scores (see the module docstring)."""
    elements = element_kinds(runs)
    _, impossible = interpolated_precision(ranked)
    groups = ranked.groups.assign(count=impossible)
    lines = ranked.lines
    run_names = pd.Series(ranked.runs, dtype=object)
    summary = pd.DataFrame(
        {
            "run": run_names,
            "passages": pd.Series(lines["run_code"]).value_counts().reindex(range(len(run_names)), fill_value=0),
            "characters": pd.Series(lines["size"]).groupby(lines["run_code"]).sum().reindex(range(len(run_names)), fill_value=0),
            "relevant_characters": pd.Series(lines["rsize"])
            .groupby(lines["run_code"])
            .sum()
            .reindex(range(len(run_names)), fill_value=0),
            "articles": pd.Series(lines["new_article"])
            .groupby(lines["run_code"])
            .sum()
            .reindex(range(len(run_names)), fill_value=0),
        }
    )
    extras = {
        "impossible_recall": groups.loc[groups["count"] > 0, ["run", "topic", "count"]].reset_index(drop=True),
        "summary": summary,
    }
    return extras | ({"elements": elements} if len(elements) else {})


def evaluate(qrels: InexQrels, runs: pd.DataFrame, options: FocusedOptions) -> Evaluation:
    ranked = rank_passages(runs, qrels)
    extras = run_extras(ranked, runs) | eprum_extras(qrels, runs, options)
    return Evaluation(focused_score_table(ranked, options.complete,
                                          no_relevant_text=options.no_relevant_text,
                                          ip_recall=options.ip_recall), extras)


def read_qrels(path: Path, options: object = None) -> InexQrels:
    """The INEX qrels (one reading whatever the ``options``)."""
    return read_inex_qrels(path)


def qrels_findings(qrels: InexQrels) -> list[Finding]:
    return qrels.findings


KIND = TaskKind(
    name="focused",
    family="focused",
    read_qrels=read_qrels,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    options_model=KIND_OPTIONS["focused"],
    official_measure="iP[0.01]",
    leaderboard_measures=(*OFFICIAL_CUTOFFS, "MAiP"),
    qrels_findings=qrels_findings,
)
