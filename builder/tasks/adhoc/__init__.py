"""The ``adhoc`` task kind: TREC run files scored like trec_eval (``-q -c -M1000 -l1``).

``evaluate`` returns the long score table for every declared adhoc measure, per topic and
under topic ``all``, plus extra tables made when first read (``pr_points``,
``relevant_points``, ``uninterpolated_precision``, ``curve_points``); both are made by
``builder.tasks.adhoc.score_table``, which describes them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import ConfigDict, Field, field_validator, model_validator

from builder.contract import Evaluation, RunRead
from builder.findings import Finding, InputError
from builder.formats.trec.qrels import read_trec_qrels
from builder.formats.trec.run import RunFile, code_type, read_trec_run, recategorised
from builder.measures.adhoc import scores as measures
from builder.measures.adhoc.interpolation import Interpolation
from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.adhoc.trec_eval.profiles import ProfileName, profile_of
from builder.tasks import TaskKind
from builder.tasks.adhoc.score_table import score_table
from builder.tasks.adhoc.parallel import score_cells_parallel
from builder.tasks.naming import RunNamingOptions, name_runs
from builder.validate.trec_run import validate_trec_run

READ_THREADS = 2


class AdhocOptions(RunNamingOptions):
    """trec_eval's options that change ad hoc scores."""

    model_config = ConfigDict(extra="forbid")

    depth: int = Field(1000, ge=1, description="Documents kept per topic after sorting (-M).")
    rel_level: int = Field(1, description="Least relevance value counted relevant (-l).")
    complete: bool = Field(
        True, description="Average over all qrels topics, missing ones scoring 0 (-c)."
    )
    interpolation: Interpolation = Field(
        "exact",
        description="Recall cutoff rounding: exact ceil, trec_eval_9 or lround (10.0); "
        "set by the profile unless given.",
    )
    profile: ProfileName | None = Field(
        None,
        description="The trec_eval release reproduced: 8.1, 9.0.8, 9.0.8-float or 10.0 "
        "(interpolation, score precision, topics printed); none = the appendices' rules.",
    )
    parameters: dict[str, str] = Field(
        default_factory=dict,
        description="trec_eval measure parameters per family, e.g. {P: '5,7', rbp: 'p=0.95'}.",
    )
    judged_only: bool = Field(
        False, description="Drop unjudged documents from each ranking before scoring (-J)."
    )
    collection_size: int = Field(
        0, ge=0, description="Documents in the collection (-N): utility's d, the ROC curve."
    )
    reading: Literal["strict", "atof"] = Field(
        "strict",
        description="How scores and relevance values that are not numbers are read: strict, "
        "an error naming the line; atof, as trec_eval reads them (1.5abc is 1.5, 0x1A 26, "
        "relevance abc 0), a warning each.",
    )

    @model_validator(mode="before")
    @classmethod
    def _profile_interpolation(cls, values: Any) -> Any:
        """A profile sets the interpolation unless it is given too."""
        if isinstance(values, dict) and values.get("profile") and "interpolation" not in values:
            values = {**values, "interpolation": profile_of(values["profile"]).interpolation}
        return values

    @field_validator("parameters")
    @classmethod
    def _known_parameters(cls, given: dict[str, str]) -> dict[str, str]:
        AdhocParams.of(given)
        return given

    @property
    def measure_params(self) -> AdhocParams:
        return AdhocParams.of(self.parameters)


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
    with ThreadPoolExecutor(READ_THREADS) as pool:
        files = list(pool.map(lambda path: _read_or_reject(path, atof), paths))
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


def _read_or_reject(path: Path, atof: bool) -> RunFile:
    """The run file, or no table and the reason when it cannot be opened or decoded: the run
    is rejected alone."""
    try:
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
    """Apply ``validate_trec_run`` to each read (two at a time); drop the tags it read."""
    qrels_topics = set(pd.unique(qrels["topic"]))

    def validate(read: RunRead) -> RunRead:
        if read.table is None:
            return read
        found = validate_trec_run(read.table, read.path, qrels_topics, depth=options.depth)
        del read.table["tag"]
        return RunRead(read.path, read.name, read.table, read.findings + found)

    with ThreadPoolExecutor(READ_THREADS) as pool:
        return list(pool.map(validate, reads))


def evaluate(
    qrels: pd.DataFrame,
    runs: pd.DataFrame,
    options: AdhocOptions,
    only: Collection[str] | None = None,
) -> Evaluation:
    """Score the concatenated accepted runs; rows per run x topic, then topic ``all``.
    ``only``: the measures wanted (default all; ``measures.compute`` skips the families none
    of them needs, as ``appendix evaluate -m`` asks). On both cores for enough lines
    (``builder.tasks.adhoc.parallel``)."""
    return score_table(score_cells_parallel(qrels, runs, options, only), options)


def read_and_evaluate(paths: Sequence[Path], qrels: pd.DataFrame, options: AdhocOptions,
                      only: Collection[str] | None = None
                      ) -> tuple[list[RunRead], Evaluation | None]:
    """``read_runs`` then ``evaluate`` of the accepted runs, with reading and scoring
    overlapped (``builder.tasks.adhoc.overlap``): the same reads and scores."""
    from builder.tasks.adhoc.overlap import read_and_score

    reads, cells = read_and_score(paths, qrels, options, only)
    return reads, None if cells is None else score_table(cells, options)


KIND = TaskKind(
    name="adhoc",
    family=measures.FAMILY,
    read_qrels=read_qrels,
    qrels_findings=qrels_findings,
    read_run_files=read_run_files,
    validate_runs=validate_runs,
    evaluate=evaluate,
    read_and_evaluate=read_and_evaluate,
    options_model=AdhocOptions,
    official_measure="map",
    leaderboard_measures=("map", "P_10", "ndcg_cut_10", "Rprec", "bpref", "recip_rank"),
    default_measures=measures.TREC_EVAL_DEFAULT,
    topic_parts=True,
)
