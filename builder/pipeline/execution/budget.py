"""What a batch costs: the memory of run tables and of their evaluation, estimated from the run
files' sizes before they are read, and consecutive items cut into batches that fit a budget.

The evaluators score each run on its own (a run's scores never depend on another run), so a
task's runs can be evaluated a batch at a time; the intermediate tables of an evaluation
(judged rankings, gains, cumulated sums), several times the size of the runs, then exist for
one batch at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from builder.contract import RunRead

EVALUATION_FACTOR = 6
"""Peak memory of an evaluation per byte of its run tables (measured on robust03 and
TREC-COVID round 1: the judged rankings, gains and cumulated sums of the adhoc kernels)."""

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


def evaluation_bytes(path: Path) -> float:
    """The estimated peak memory of evaluating the run file ``path`` alone."""
    return text_bytes(path) * TABLE_PER_TEXT_BYTE * EVALUATION_FACTOR


def file_batches(paths: Sequence[Path], budget: int) -> list[list[Path]]:
    """Consecutive run files whose evaluation is estimated to fit ``budget`` bytes."""
    return group_by_cost(list(paths), [int(evaluation_bytes(p)) for p in paths], budget)


def run_bytes(read: RunRead) -> int:
    """Memory of a read run's table (its columns, deep)."""
    return int(read.table.memory_usage(deep=True).sum()) if read.table is not None else 0


def group_by_cost(items: list, costs: list[int], budget: int) -> list[list]:
    """Consecutive items whose costs fit ``budget`` (at least one item a group, and two in the
    first, from which ``merge`` reads the evaluator's row order)."""
    out: list[list] = []
    used = 0
    for item, cost in zip(items, costs):
        if out and (used + cost <= budget or len(out) == 1 and len(out[0]) == 1):
            out[-1].append(item)
            used += cost
        else:
            out.append([item])
            used = cost
    return out
