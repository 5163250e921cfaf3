"""A task's run files read and validated batch by batch, under a memory budget.

    for each batch of run files (its evaluation estimated, from the files' sizes, to fit the
    budget): read -> validate -> the accepted runs' tables handed over to be evaluated -> the
    findings kept, and the tables while they fit

so that the runs of a campaign are never in memory together. Each stage is the kind's own, so
a batch's runs are read and validated exactly as in the read and validate stages; the rule
that spans files (a run name an earlier file took is an error, ``builder.tasks.naming``) is
applied across batches here.

The site's analyses read scores only, except the reliability analyses that score the rankings
again (pool sampling, tie ranges, pool bias, the unjudged share): those need every run at once.
The runs' tables are therefore kept while they fit the budget together; once they do not, they
are all dropped (``TaskInputs.runs_dropped``) and those analyses are left out, with a note on
the site (``builder.stats.reliability.report``), rather than reading every run again per sample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from builder.pipeline.execution.budget import file_batches, run_bytes
from builder.pipeline.execution.memory import drop_tables
from builder.pipeline.execution.merge import CompactEvaluation

if TYPE_CHECKING:
    import pandas as pd

    from builder.contract import RunRead
    from builder.pipeline.model import TaskInputs

@dataclass
class EvaluatedRun:
    """A run file read and evaluated on its own, alone in its batch: its read (an empty table
    once evaluated) and its compact evaluation, None when the run is rejected."""

    read: RunRead
    evaluation: CompactEvaluation | None


def read_batches(inputs: TaskInputs, budget: int, keep: bool,
                 alone: Callable[[Path], EvaluatedRun | None] | None = None
                 ) -> Iterator[list[pd.DataFrame] | CompactEvaluation]:
    """The tables of the accepted runs, batch by batch, read and validated as they are asked
    for (``inputs.reads`` is filled as they come; the first group holds two runs at least, from
    which ``merge`` learns the evaluator's row order). Once a group is evaluated its tables are
    dropped, unless ``keep`` and all the runs' tables fit ``budget`` together. A run file alone
    in its batch is first offered to ``alone``, which may read and evaluate it another way
    (``builder.pipeline.execution.topic_ranges``): its evaluation comes in place of its table."""
    spec = inputs.spec
    kind, options = spec.kind, spec.options
    by = getattr(options, "run_names", "tag")
    owners: dict[str, str] = {}
    kept, evaluated = 0, False
    pending: list[RunRead] = []
    batches = file_batches(spec.run_files, budget)
    for number, paths in enumerate(batches):
        whole = alone(Path(paths[0])) if alone is not None and len(paths) == 1 else None
        if whole is not None:
            if pending:
                yield [read.table for read in pending]
            drop_tables(inputs.reads)
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
        drop_tables([read for read in reads if read.rejected])  # never evaluated
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
            drop_tables(inputs.reads)
            inputs.runs_dropped = True
        pending = []


def _named(read: RunRead, earlier: dict[str, str], owners: dict[str, str], by: str) -> None:
    """A run name a file of an earlier batch took is an error on this one
    (``builder.tasks.naming``); the name's owner recorded."""
    from builder.tasks.naming import name_taken  # pandas: in the evaluate stage, not at import

    if read.name in earlier:
        read.findings.append(name_taken(read.path, read.name, earlier[read.name], by))
    owners.setdefault(read.name, read.path)
