"""Work on the machine's second core: one function run in a forked child while this process
runs another, and the plumbing every forked worker of the build shares.

``side_by_side(here, there)`` forks a child that runs ``there`` and sends its result back
pickled through a pipe, while this process runs ``here``. The child inherits everything
computed before the fork (the task's scores, the modules imported), so only its result
travels. The analyse stage runs the significance tests so, beside the reliability analyses
and the judgements page; the render stage's worker (``builder.site.parallel``) shares the
signal handling and the parent-death request written here.

A failure in the child comes back as its exception (or ``ForkedWorkerError`` when it cannot
be pickled, or the child died without a word), with the child's traceback as a note; a
failure or an interruption in this process ends the child at once; and Linux kills the child
when this process dies (``die_with_parent``), so a build stopped in any way leaves no
process behind.

Written by hand over ``multiprocessing`` rather than with ``concurrent.futures``'
``ProcessPoolExecutor``: a pool starts its workers and keeps them, sends the function
pickled (a closure over the task's tables is not picklable, or costs a copy), and leaves a
worker killed mid-task as a ``BrokenProcessPool`` without its traceback.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import TypeVar

_PR_SET_PDEATHSIG = 1
INTERRUPTIONS = {signal.SIGINT, signal.SIGTERM}

Here = TypeVar("Here")
There = TypeVar("There")


class ForkedWorkerError(Exception):
    """A forked worker failed with an exception that could not be sent back as it was, or
    exited without sending anything."""


def default_processes() -> int:
    """Two where ``fork`` exists and there are two cores, else one (also in a daemonic
    process, which may not have children)."""
    if ("fork" not in multiprocessing.get_all_start_methods()
            or multiprocessing.current_process().daemon):
        return 1
    return min(2, os.cpu_count() or 1)


def side_by_side(here: Callable[[], Here], there: Callable[[], There], *,
                 name: str = "worker", processes: int | None = None,
                 stop: Callable[[], None] | None = None,
                 dies: Callable[[int], None] | None = None,
                 error: type[ForkedWorkerError] = ForkedWorkerError) -> tuple[Here, There]:
    """``(here(), there())``, ``there`` run in a forked child while this process runs
    ``here`` when ``processes`` (default ``default_processes()``) is 2, one after the other
    here when it is 1.

    ``name`` names the child in its errors ("the analyse worker exited with code 1");
    ``stop`` is called when ``here`` fails or is interrupted, before the child is ended (the
    render stage tells both processes there are no more jobs); ``dies`` replaces
    ``die_with_parent`` in the child; ``error`` is raised for a child that sent no exception
    that could travel."""
    processes = default_processes() if processes is None else processes
    if processes < 2:
        return here(), there()
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    # Whatever the streams hold would be written again by the child when it exits.
    sys.stdout.flush()
    sys.stderr.flush()
    child = context.Process(target=_child, args=(there, sender, os.getpid(), dies),
                            daemon=True)
    # An interruption's exception raised in the fork's own callbacks (logging's, after the
    # fork) would be ignored, and the build would wait for a worker told nothing.
    with signals_deferred():
        child.start()
    sender.close()
    try:
        mine = here()
        try:
            outcome = receiver.recv()
        except EOFError:  # the child died without a word
            outcome = None
    except BaseException:  # a failure or an interruption here: the child is ended at once
        if stop is not None:
            stop()
        child.terminate()
        raise
    finally:
        receiver.close()
        child.join()
    if outcome is None:
        outcome = ("failed", None, f"the {name} exited with code {child.exitcode}")
    if outcome[0] == "failed":
        _, sent, trace = outcome
        sent = sent if isinstance(sent, BaseException) else error(trace)
        sent.add_note(f"raised in the {name} (process {child.pid}):\n{trace}")
        raise sent
    return mine, outcome[1]


def _child(there: Callable[[], object], sender: Connection, parent: int,
           dies: Callable[[int], None] | None) -> None:
    worker_signals(parent, dies)
    try:
        result = there()
    except BaseException as error:  # noqa: BLE001 (sent to the parent, which raises it)
        sender.send(("failed", error if travels(error) else None, traceback.format_exc()))
    else:
        sender.send(("done", result))
    finally:
        sender.close()


def worker_signals(parent: int, dies: Callable[[int], None] | None = None) -> None:
    """A forked worker's signals: the build handles Ctrl-C (sent to the terminal's whole
    process group) and ends its workers, so SIGINT is ignored here and SIGTERM kills,
    whatever handlers the build set; and the worker dies with ``parent`` (through ``dies``,
    default ``die_with_parent``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTIONS)  # held by the parent's fork
    (dies or die_with_parent)(parent)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends: a step that must not be cut in two (the
    fork of a worker, the staging folder's creation, the swap) completes, then the signal
    acts as it would have."""
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, INTERRUPTIONS)
    except (AttributeError, ValueError):  # no signal masks here, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (``kill -9`` of a build must not
    leave a worker computing or writing for a build nobody will publish). Elsewhere a no-op."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def travels(error: BaseException) -> bool:
    """Whether ``error`` survives pickling both ways (an exception whose ``__init__`` takes
    other arguments than its ``args`` does not)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 (any failure means it does not travel)
        return False
    return True
