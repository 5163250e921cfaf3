"""``side_by_side``: a function run in a forked child beside this process's, its result sent
back pickled; its failures raised here with the child's traceback; no child left behind when
this process fails. The analyse stage that runs its significance tests so is checked by the
golden demo site (tests/site/test_build.py: the same bytes as the one-process analyses that
made it), its interruption by tests/site/test_interrupt.py."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from builder.pipeline.forked import ForkedWorkerError, default_processes, side_by_side

pytestmark = pytest.mark.skipif(default_processes() < 2,
                                reason="needs fork and two cores for the two-process path")


def test_there_runs_in_another_process_and_its_result_comes_back():
    parent = os.getpid()
    here, there = side_by_side(lambda: os.getpid(),
                               lambda: (os.getpid(), os.getppid(), list(range(100_000))),
                               name="test worker")
    assert here == parent
    child, childs_parent, values = there
    assert child != parent and childs_parent == parent
    assert values == list(range(100_000))


def test_one_process_runs_both_here():
    assert side_by_side(os.getpid, os.getpid, processes=1) == (os.getpid(), os.getpid())


def test_an_exception_in_the_child_is_raised_here_with_its_traceback():
    def failing():
        raise KeyError("no such run")

    with pytest.raises(KeyError, match="no such run") as raised:
        side_by_side(lambda: 1, failing, name="analyse worker")
    note = "\n".join(raised.value.__notes__)
    assert "raised in the analyse worker (process" in note and "in failing" in note


class _Unpicklable(Exception):
    # A lock pickles by no means: an __init__ of other arguments than its args would not do,
    # as Dask's distributed (imported by other tests of the same worker) installs tblib's
    # pickling of exceptions, which makes such an exception without its __init__.
    def __init__(self, code: int, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.held = threading.Lock()


def test_an_exception_that_cannot_travel_comes_back_as_its_traceback():
    def failing():
        raise _Unpicklable(7, "lost")

    with pytest.raises(ForkedWorkerError, match="_Unpicklable: 7: lost"):
        side_by_side(lambda: 1, failing, name="analyse worker")


def test_a_child_that_dies_is_a_clear_error():
    with pytest.raises(ForkedWorkerError, match="the analyse worker exited with code 3"):
        side_by_side(lambda: 1, lambda: os._exit(3), name="analyse worker")


def test_a_failure_here_ends_the_child_and_leaves_no_process():
    reader, writer = os.pipe()

    def waiting() -> None:  # says its pid, then waits to be ended
        os.write(writer, f"{os.getpid()}\n".encode())
        signal.pause()

    def failing() -> None:
        child = int(os.read(reader, 32))  # once the child runs
        failing.child = child
        raise RuntimeError("failed here")

    try:
        with pytest.raises(RuntimeError, match="failed here"):
            side_by_side(failing, waiting, name="analyse worker")
    finally:
        os.close(reader)
        os.close(writer)
    with pytest.raises(ProcessLookupError):  # ended and reaped, not a zombie
        os.kill(failing.child, 0)
