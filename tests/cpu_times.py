"""Where the suite's time goes, in CPU seconds: a pytest plugin and its summary per directory.

On a machine shared with other work, wall time says more about the neighbours than about the
tests; the CPU time a test costs does not. ``python -m pytest -p tests.cpu_times
--cpu-times=FILE`` writes one line per test and phase (setup, call, teardown): the wall time
and the CPU time (user + system) of the test process *and every process under it* (the
``appendix`` subprocesses, java, trec_eval, chromium and playwright's driver), so that a test
that makes chromium draw a page, or runs the CLI in a subprocess, is charged for it; then the
xdist worker and the moment the phase ended. A session
fixture's cost falls on the setup of the first test that takes it. Under pytest-xdist every
worker appends its own lines to ``FILE`` (one ``write`` per line, so lines never interleave).

``python -m tests.cpu_times FILE [--top N]`` prints the table per directory (tests, CPU s,
wall s) and the ``N`` dearest tests. psutil (a dependency of dask's distributed, in the test
extra) reads the process tree."""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest


class TreeClock:
    """CPU seconds (user + system) spent so far by this process and every process under it,
    read as a running total.

    A process's time is read while it lives (psutil), with that of the processes it has waited
    for; once it ends, its whole time moves into its parent's waited-for time (this process's
    ``RUSAGE_CHILDREN``, or chromium's for its renderers), which is read at the next reading, less
    what had already been read of it. What a process that nobody here waits for did after the
    last reading is lost (none of the suite's programs leaves such a process)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.mine = self._mine()
        self.seen: dict[tuple[int, float], float] = {}

    @staticmethod
    def _mine() -> float:
        own, ended = (resource.getrusage(who)
                      for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime

    def __call__(self) -> float:
        now: dict[tuple[int, float], float] = {}
        for child in psutil.Process().children(recursive=True):
            try:
                with child.oneshot():
                    t = child.cpu_times()
                    now[(child.pid, child.create_time())] = (
                        t.user + t.system + t.children_user + t.children_system)
            except psutil.Error:  # ended between the listing and the read
                continue
        mine = self._mine()
        step = mine - self.mine + sum(cpu - self.seen.get(key, 0.0) for key, cpu in now.items())
        step -= sum(cpu for key, cpu in self.seen.items() if key not in now)
        self.total += max(0.0, step)
        self.mine, self.seen = mine, now
        return self.total


CLOCK: TreeClock | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-times", metavar="FILE", default=None,
                     help="append each test phase's wall and CPU seconds (process tree) to FILE")


def _timed(phase: str):
    @pytest.hookimpl(hookwrapper=True)
    def hook(item: pytest.Item) -> Iterator[None]:
        out = item.config.getoption("--cpu-times")
        if out is None:
            yield
            return
        global CLOCK
        CLOCK = CLOCK or TreeClock()
        wall, cpu = time.perf_counter(), CLOCK()
        yield
        line = (f"{item.nodeid}\t{phase}\t{time.perf_counter() - wall:.3f}\t"
                f"{CLOCK() - cpu:.3f}\t{os.environ.get('PYTEST_XDIST_WORKER', '-')}\t"
                f"{time.time():.3f}\n")
        fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
    return hook


pytest_runtest_setup = _timed("setup")
pytest_runtest_call = _timed("call")
pytest_runtest_teardown = _timed("teardown")


def directory(nodeid: str) -> str:
    """``tests/site`` for ``tests/site/test_x.py::test_y``; ``tests`` for ``tests/test_x.py``."""
    return str(Path(nodeid.split("::", 1)[0]).parent)


def worker_ends(lines: list[str]) -> list[str]:
    """Per xdist worker: its tests' wall time, when its last test ended and how long it then
    waited for the other workers to end (a run that ends with one long test alone shows it)."""
    ends: dict[str, float] = {}
    busy: dict[str, float] = defaultdict(float)
    for line in lines:
        fields = line.rstrip("\n").split("\t")
        busy[fields[4]] += float(fields[2])
        if len(fields) > 5:
            ends[fields[4]] = max(ends.get(fields[4], 0.0), float(fields[5]))
    if not ends:
        return []
    last = max(ends.values())
    return [f"worker {worker}: tests {busy[worker]:.1f} s wall, ended {last - end:.1f} s "
            "before the last worker" for worker, end in sorted(ends.items())]


def summarise(lines: list[str], top: int) -> str:
    """The table per directory (tests, CPU s, wall s, share of CPU) and the ``top`` dearest
    tests (all phases together)."""
    per_test: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for line in lines:
        nodeid, _phase, wall, cpu = line.rstrip("\n").split("\t")[:4]
        per_test[nodeid][0] += float(wall)
        per_test[nodeid][1] += float(cpu)
    per_dir: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for nodeid, (wall, cpu) in per_test.items():
        row = per_dir[directory(nodeid)]
        row[0] += 1
        row[1] += cpu
        row[2] += wall
    total_cpu = sum(row[1] for row in per_dir.values()) or 1.0
    out = [f"{'directory':<16}{'tests':>7}{'CPU s':>10}{'wall s':>10}{'CPU %':>7}"]
    for name, (count, cpu, wall) in sorted(per_dir.items(), key=lambda kv: -kv[1][1]):
        out.append(f"{name:<16}{count:>7}{cpu:>10.1f}{wall:>10.1f}{100 * cpu / total_cpu:>7.1f}")
    out.append(f"{'all':<16}{sum(r[0] for r in per_dir.values()):>7}{total_cpu:>10.1f}"
               f"{sum(r[2] for r in per_dir.values()):>10.1f}")
    ends = worker_ends(lines)
    out += ["", *ends, *([""] if ends else []), f"{'CPU s':>8}{'wall s':>8}  test"]
    for nodeid, (wall, cpu) in sorted(per_test.items(), key=lambda kv: -kv[1][1])[:top]:
        out.append(f"{cpu:>8.1f}{wall:>8.1f}  {nodeid}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="files written by --cpu-times")
    parser.add_argument("--top", type=int, default=40, help="how many of the dearest tests")
    args = parser.parse_args(argv)
    lines = [line for file in args.files for line in file.read_text().splitlines(keepends=True)]
    print(summarise(lines, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
