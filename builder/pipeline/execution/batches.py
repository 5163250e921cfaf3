"""A task's runs read, validated and evaluated batch by batch, under a memory budget.

    for each batch of run files (its evaluation estimated, from the files' sizes, to fit the
    budget): read -> validate -> evaluate -> keep the per-topic scores and the findings

so that the runs of a campaign are never in memory together: what outlives a batch is its
score rows (run, topic and measure as categorical codes, about 15 bytes a row), its findings
and, for the site, the kind's extra tables. Each stage is the kind's own, so a batch's runs
are read, validated and scored exactly as in the one-shot path; the rule that spans files (a
run name an earlier file took is an error, ``builder.tasks.naming``) is applied across batches
here. The scores are put back together in the one-shot order (``builder.pipeline.execution.merge.merge``).

The site's analyses read scores only, except the reliability analyses that score the rankings
again (pool sampling, tie ranges, pool bias, the unjudged share): those need every run at once.
The runs' tables are therefore kept while they fit the budget together; once they do not, they
are all dropped (``TaskInputs.runs_dropped``) and those analyses are left out, with a note on
the site (``builder.stats.reliability.report``), rather than reading every run again per sample.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from builder.contract import RunRead
from builder.pipeline.execution.batching import (
    EVALUATION_FACTOR,
    evaluations,
    group_by_cost,
    run_bytes,
)
from builder.pipeline.execution.merge import give_back, merge
from builder.tasks.naming import name_taken

if TYPE_CHECKING:
    import pandas as pd

    from builder.pipeline.stages import Scale, TaskInputs, TaskResult

TABLE_PER_TEXT_BYTE = 1.0
"""Bytes of a read run table per byte of its text (0.76 measured on TREC runs of 1,000 topics x
1,000 documents: categorical run and topic, document names, score, line number)."""

GZIP_RATIO = 8
"""Assumed text bytes per byte of a gzip run (TREC runs compress 4 to 8 times): an estimate on
the high side makes smaller batches, never a larger peak."""


def text_bytes(path: Path) -> int:
    """The estimated text size of a run file (0 for standard input or a file not found, which
    the reader reports)."""
    try:
        size = Path(path).stat().st_size
        with open(path, "rb") as stream:
            packed = stream.read(2) == b"\x1f\x8b"
    except OSError:
        return 0
    return size * GZIP_RATIO if packed else size


def file_batches(paths: Sequence[Path], budget: int) -> list[list[Path]]:
    """Consecutive run files whose evaluation is estimated to fit ``budget`` bytes."""
    costs = [int(text_bytes(p) * TABLE_PER_TEXT_BYTE * EVALUATION_FACTOR) for p in paths]
    return group_by_cost(list(paths), costs, budget)


def stream_task(inputs: TaskInputs, scale: Scale) -> TaskResult:
    """Read, validate and evaluate the task's run files batch by batch (``inputs.reads`` is
    filled as they come); the result is that of the one-shot path."""
    from builder.pipeline.stages import TaskResult

    assert scale.budget is not None
    split = scale.scheduler is None and not scale.extras and inputs.spec.kind.topic_parts
    groups = _accepted_groups(inputs, scale.budget, keep=scale.extras, split=split)
    parts = list(evaluations(inputs.spec.kind, inputs.qrels, lambda workers: groups,
                             inputs.spec.options, scale.scheduler, scale.extras))
    return TaskResult(inputs, merge(parts, text=scale.extras) if parts else None)


def _accepted_groups(inputs: TaskInputs, budget: int, keep: bool, split: bool = False
                     ) -> Iterator[list[pd.DataFrame] | tuple]:
    """The tables of the accepted runs, batch by batch, read and validated as they are asked
    for (the first group holds two runs at least, from which ``merge`` learns the evaluator's
    row order). Once a group is evaluated its tables are dropped, unless ``keep`` and all the
    runs' tables fit ``budget`` together. With ``split``, a run file larger than the budget
    is read and evaluated a part of its topics at a time (``builder.pipeline.execution.topic_ranges``): its
    evaluation comes in place of its table."""
    spec = inputs.spec
    kind, options = spec.kind, spec.options
    by = getattr(options, "run_names", "tag")
    owners: dict[str, str] = {}
    kept, evaluated = 0, False
    pending: list[RunRead] = []
    batches = file_batches(spec.run_files, budget)
    for number, paths in enumerate(batches):
        whole = _by_topics(inputs, paths, budget) if split and len(paths) == 1 else None
        if whole is not None:
            if pending:
                yield [read.table for read in pending]
            _drop(inputs.reads)
            inputs.runs_dropped = True
            _named(whole.read, dict(owners), owners, by)
            inputs.reads.append(whole.read)
            if whole.evaluation is not None and not whole.read.rejected:
                yield whole.evaluation
            evaluated, pending = True, []
            continue
        reads = kind.read_run_files(paths, inputs.qrels, options)
        earlier = dict(owners)  # a name taken within the batch is the reader's finding
        for read in reads:
            _named(read, earlier, owners, by)
        reads = kind.validate_runs(reads, inputs.qrels, options)
        _drop([read for read in reads if read.rejected])  # never evaluated
        inputs.reads.extend(reads)
        pending += [read for read in reads if not read.rejected]
        if not pending or (len(pending) < 2 and not evaluated and number < len(batches) - 1):
            continue
        group = [read.table for read in pending]
        yield group
        evaluated = True
        group.clear()  # the evaluator's reference: the tables go with the reads' own
        size = sum(run_bytes(read) for read in pending)
        if keep and not inputs.runs_dropped and kept + size <= budget:
            kept += size
        else:
            _drop(inputs.reads)
            inputs.runs_dropped = True
        pending = []


def _named(read: RunRead, earlier: dict[str, str], owners: dict[str, str], by: str) -> None:
    """A run name a file of an earlier batch took is an error on this one
    (``builder.tasks.naming``); the name's owner recorded."""
    if read.name in earlier:
        read.findings.append(name_taken(read.path, read.name, earlier[read.name], by))
    owners.setdefault(read.name, read.path)


def _by_topics(inputs: TaskInputs, paths: list[Path], budget: int):
    """The run file of ``paths`` read and evaluated by topic ranges when its evaluation does
    not fit ``budget`` (``builder.pipeline.execution.topic_ranges.SplitRun``), else None."""
    cost = text_bytes(paths[0]) * TABLE_PER_TEXT_BYTE * EVALUATION_FACTOR
    if cost <= budget:
        return None
    from builder.pipeline.execution.topic_ranges import evaluate_by_topics

    part_bytes = max(1, int(budget / (TABLE_PER_TEXT_BYTE * EVALUATION_FACTOR)))
    return evaluate_by_topics(inputs.spec.kind, inputs.qrels, Path(paths[0]),
                              inputs.spec.options, part_bytes)


def _drop(reads: list[RunRead]) -> None:
    """Each read's table emptied (no row, same columns), its memory freed."""
    for read in reads:
        if read.table is not None and len(read.table):
            read.table = empty_like(read.table)
    give_back()


def empty_like(table: pd.DataFrame) -> pd.DataFrame:
    """A table of no row with the columns and dtypes of ``table``, made anew: an empty slice
    of an Arrow column (the document names) would keep its whole buffer alive, a run's worth
    of memory for each run dropped."""
    import pandas as pd

    return pd.DataFrame({name: pd.array([], dtype=dtype) for name, dtype in table.dtypes.items()})
