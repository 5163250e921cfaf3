"""The render stage on two cores: its jobs shared between this process and one forked child.

Each job writes its own files into the staging folder and returns how many pages it wrote,
so the processes exchange only counts. The child is forked once the jobs are listed: it
inherits the analyses, the templates and the jobs themselves, so nothing large is pickled.
Each process has its queue of jobs and, once it is empty, helps with the other's: taking the
next job under a shared lock keeps both busy until the end whatever the campaign's mix of
pages and downloads.

A failure in either process stops both (the child, when it fails, lets this process finish
its current job; when this process fails, the child is ended at once), and the exception,
the child's sent back through a pipe, propagates, so the build discards the staging folder
as it does for a failure in one process. The signal handling and the parent-death request
are those of every forked worker of the build (``builder.pipeline.forked``).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any

from builder.contract import StageProgress
from builder.pipeline.forked import ForkedWorkerError, default_processes, side_by_side
from builder.pipeline.forked import die_with_parent as _die_with_parent

__all__ = ["Cost", "Job", "RenderWorkerError", "default_processes", "run_jobs"]

Job = Callable[[], int]


class Cost(IntEnum):
    """Roughly how long a job takes, which places it in its queue: the costliest first, so
    that the last jobs, which one process may be left to run while the other has finished,
    are short. The bounds are those of the render stage's jobs for TREC-COVID round 1 (143
    runs, 30 topics) in one process."""

    HEAVY = 3
    """100 ms or more: the long score files, the pages of the topics."""
    MEDIUM = 2
    """40 to 100 ms: a page over every run or pair of runs (the home page, the run-versus-run
    data), the assets and the manifest."""
    LIGHT = 1
    """Under 40 ms."""


def run_jobs(queues: Sequence[Sequence[Job]], processes: int | None = None) -> int:
    """Run every job of ``queues`` once; return their total.

    ``processes``: 1 runs the queues here, one after the other; 2 (the default where
    possible) forks a child: this process takes from the first queue, the child from the
    second, and each then helps with the other's. What several jobs of both processes
    read is made before the call (``builder.site.writer``), so that the child inherits it."""
    processes = default_processes() if processes is None else processes
    progress = StageProgress("render", sum(len(queue) for queue in queues), "batches of pages")
    if processes < 2 or sum(len(queue) for queue in queues) < 2:
        return _one_by_one(queues, progress)
    context = multiprocessing.get_context("fork")
    try:
        taken = context.Array("i", len(queues))
    except OSError:  # no POSIX semaphores here (some sandboxes): one process, then
        return _one_by_one(queues, progress)
    written, theirs = side_by_side(
        lambda: _take_jobs(queues, taken, first=0, progress=progress),
        lambda: _their_jobs(queues, taken), name="render worker", processes=2,
        stop=lambda: _stop(queues, taken), error=RenderWorkerError,
        dies=lambda parent: _die_with_parent(parent))  # looked up when called: tests patch it
    return written + theirs


class RenderWorkerError(ForkedWorkerError):
    """The render worker failed with an exception that could not be sent back as it was."""


def _one_by_one(queues: Sequence[Sequence[Job]], progress: StageProgress) -> int:
    written = 0
    for queue in queues:
        for job in queue:
            written += job()
            progress.advance()
    return written


def _take_jobs(queues: Sequence[Sequence[Job]], taken: Any, first: int,
               progress: StageProgress | None = None) -> int:
    """Run the next job of queue ``first``, then of the others, until all are taken.
    ``progress`` (this process's only: the worker's records would interleave with ours on
    the same stream) counts the jobs both processes have taken."""
    order = [first, *(k for k in range(len(queues)) if k != first)]
    written = 0
    while True:
        with taken.get_lock():
            queue = next((k for k in order if taken[k] < len(queues[k])), None)
            if queue is None:
                return written
            index = taken[queue]
            taken[queue] = index + 1
            started = sum(taken)
        written += queues[queue][index]()
        if progress is not None and started > progress.done:
            progress.advance(started - progress.done)


def _stop(queues: Sequence[Sequence[Job]], taken: Any) -> None:
    """No more jobs for either process."""
    with taken.get_lock():
        for k, queue in enumerate(queues):
            taken[k] = len(queue)


def _their_jobs(queues: Sequence[Sequence[Job]], taken: Any) -> int:
    """The child's share: from the second queue, then helping with the first; a failure
    tells this process there are no more jobs (it finishes its current one)."""
    try:
        return _take_jobs(queues, taken, first=1)
    except BaseException:
        _stop(queues, taken)
        raise
