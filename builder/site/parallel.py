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
as it does for a failure in one process.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import IntEnum
from multiprocessing.connection import Connection
from typing import Any

from builder.contract import StageProgress

_PR_SET_PDEATHSIG = 1
_INTERRUPTIONS = {signal.SIGINT, signal.SIGTERM}

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


def default_processes() -> int:
    """Two where ``fork`` exists and there are two cores, else one (also in a daemonic
    process, which may not have children)."""
    if ("fork" not in multiprocessing.get_all_start_methods()
            or multiprocessing.current_process().daemon):
        return 1
    return min(2, os.cpu_count() or 1)


def run_jobs(queues: Sequence[Sequence[Job]], processes: int | None = None) -> int:
    """Run every job of ``queues`` once; return their total.

    ``processes``: 1 runs the queues here, one after the other; 2 (the default where
    possible) forks a child: this process takes from the first queue, the child from the
    second, and each then helps with the other's. A job that needs something computed in
    the process (the run pages' shared curves) belongs in the first queue, so that usually
    only this process computes it, after the fork, while the child already writes files."""
    processes = default_processes() if processes is None else processes
    progress = StageProgress("render", sum(len(queue) for queue in queues), "batches of pages")
    if processes < 2 or sum(len(queue) for queue in queues) < 2:
        return _one_by_one(queues, progress)
    context = multiprocessing.get_context("fork")
    try:
        taken = context.Array("i", len(queues))
    except OSError:  # no POSIX semaphores here (some sandboxes): one process, then
        return _one_by_one(queues, progress)
    receiver, sender = context.Pipe(duplex=False)
    # Whatever the streams hold would be written again by the child when it exits.
    sys.stdout.flush()
    sys.stderr.flush()
    child = context.Process(target=_child, args=(queues, taken, sender, os.getpid()),
                            daemon=True)
    # An interruption's exception raised in the fork's own callbacks (logging's, after the
    # fork) would be ignored, and the build would wait for a worker told nothing.
    with signals_deferred():
        child.start()
    sender.close()
    try:
        written = _take_jobs(queues, taken, first=0, progress=progress)
        try:
            outcome = receiver.recv()
        except EOFError:  # the child died without a word
            outcome = None
    except BaseException:  # a failure or an interruption here: the child is ended at once
        _stop(queues, taken)
        child.terminate()
        raise
    finally:
        receiver.close()
        child.join()
    if outcome is None:
        outcome = ("failed", None, f"the render worker exited with code {child.exitcode}")
    if outcome[0] == "failed":
        _, error, trace = outcome
        error = error if isinstance(error, BaseException) else RenderWorkerError(trace)
        error.add_note(f"raised in the render worker (process {child.pid}):\n{trace}")
        raise error
    return written + outcome[1]


class RenderWorkerError(Exception):
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


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends: a step that must not be cut in two (the
    fork of the render worker, the staging folder's creation, the swap) completes, then the
    signal acts as it would have."""
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTIONS)
    except (AttributeError, ValueError):  # no signal masks here, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (``kill -9`` of a build must not
    leave a render worker writing into a folder nobody will publish). Elsewhere a no-op."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _child(queues: Sequence[Sequence[Job]], taken: Any, sender: Connection,
           parent: int) -> None:
    # The build handles Ctrl-C (sent to the terminal's whole process group) and ends this
    # process: SIGINT is ignored here, SIGTERM kills, whatever handlers the build set.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _INTERRUPTIONS)  # held by the parent's fork
    _die_with_parent(parent)
    try:
        written = _take_jobs(queues, taken, first=1)
    except BaseException as error:  # noqa: BLE001 (sent to the parent, which raises it)
        _stop(queues, taken)
        sender.send(("failed", error if _travels(error) else None, traceback.format_exc()))
    else:
        sender.send(("done", written))
    finally:
        sender.close()


def _travels(error: BaseException) -> bool:
    """Whether ``error`` survives pickling both ways (an exception whose ``__init__`` takes
    other arguments than its ``args`` does not)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 (any failure means it does not travel)
        return False
    return True
