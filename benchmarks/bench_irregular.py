"""Benchmark: reading irregular TREC runs costs about what a clean one does.

    python benchmarks/bench_irregular.py [LINES]

Writes four runs of LINES lines (default 2,000,000) into a temporary folder: clean (one space,
LF), the same with CRLF line ends, with a seventh field on every line, and with 1% bad lines
(a missing field, a score that is not a number, a doubled blank, a NaN score, in turn). Each is
read by the TREC run reader (``builder.formats.trec.run.read_trec_run``) and validated
(``builder.validate.trec_run``) seven times, each in a fresh process (this script again, with
``--read FILE``), the four files in turn in each of the seven rounds (so a change in the
machine's load falls on all four alike); the median wall time, CPU time (every thread) and
peak resident memory are printed side by side with their ratio to the clean file's, measured
in the same invocation (the machine is shared, so only same-run ratios mean anything; the CPU
time is the steadier under load). Target: every ratio at most 1.5.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy

REPEATS = 7
TOPICS = 50


def write_runs(folder: Path, lines: int) -> dict[str, Path]:
    """The four runs of ``lines`` lines; the same results in each, but for the bad lines."""
    per_topic = lines // TOPICS
    body = [f"{401 + i // per_topic} Q0 doc{i:08d} {i % per_topic + 1} {1000 - (i % per_topic) * 0.001:.3f} run"
            for i in range(lines)]
    variants = {
        "clean": "\n".join(body) + "\n",
        "crlf": "\r\n".join(body) + "\r\n",
        "7 fields": " extra\n".join(body) + " extra\n",
    }
    bad = list(body)
    spoil = [lambda f: " ".join(f[:5]), lambda f: " ".join([*f[:4], "high", f[5]]),
             lambda f: "  ".join(f), lambda f: " ".join([*f[:4], "nan", f[5]])]
    for n, i in enumerate(range(0, lines, 100)):
        bad[i] = spoil[n % len(spoil)](bad[i].split(" "))
    variants["1% bad lines"] = "\n".join(bad) + "\n"
    paths = {}
    for name, text in variants.items():
        paths[name] = folder / (name.replace(" ", "_").replace("%", "pc") + ".txt")
        paths[name].write_text(text)
    return paths


def read_once(path: Path) -> None:
    """Child process: read and validate one run; print wall seconds and peak MB."""
    from builder.formats.trec.run import read_trec_run
    from builder.validate.trec_run import validate_trec_run

    start, cpu = time.perf_counter(), cpu_seconds()
    run = read_trec_run(path)
    findings = run.findings + validate_trec_run(run.table, str(path), set(), depth=1000)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    errors = sum(f.severity == "error" for f in findings)
    print(f"{seconds:.4f} {cpu:.4f} {peak:.1f} {len(run.table)} {errors} {len(findings)}")


def cpu_seconds() -> float:
    """User and system time of this process, every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


Measured = tuple[float, float, float, int, int, int]
"""Wall seconds, CPU seconds, peak MB, rows, errors, findings."""


def read_in_child(path: Path) -> Measured:
    out = subprocess.run([sys.executable, __file__, "--read", str(path)], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2]), int(out[3]), int(out[4]), int(out[5])


def measure(paths: dict[str, Path]) -> dict[str, Measured]:
    """Median wall seconds, CPU seconds and peak MB of each file over ``REPEATS`` rounds; each
    round reads every file once, in turn, so a change in the machine's load falls on all files
    alike."""
    results: dict[str, list[Measured]] = {name: [] for name in paths}
    for _ in range(REPEATS):
        for name, path in paths.items():
            results[name].append(read_in_child(path))
    return {name: (*(statistics.median(r[k] for r in runs) for k in range(3)), *runs[0][3:])
            for name, runs in results.items()}


def main(lines: int) -> None:
    print(f"TREC run reader + validation, {lines:,} lines, median of {REPEATS} fresh processes "
          f"(load average {os.getloadavg()[0]:.1f} at the start)")
    print(f"{'file':<14}{'MB':>7}{'rows':>11}{'errors':>8}{'findings':>10}{'seconds':>9}"
          f"{'x clean':>9}{'CPU s':>8}{'x clean':>9}{'peak MB':>9}{'x clean':>9}")
    with tempfile.TemporaryDirectory() as folder:
        paths = write_runs(Path(folder), lines)
        measured = measure(paths)
        clean = measured["clean"]
        for name, path in paths.items():
            seconds, cpu, peak, rows, errors, findings = measured[name]
            size = path.stat().st_size / 2**20
            print(f"{name:<14}{size:>7.0f}{rows:>11,}{errors:>8,}{findings:>10,}{seconds:>9.2f}"
                  f"{seconds / clean[0]:>9.2f}{cpu:>8.2f}{cpu / clean[1]:>9.2f}{peak:>9.0f}"
                  f"{peak / clean[2]:>9.2f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", nargs="?", type=int, default=2_000_000,
                        help="lines of each generated run (default: %(default)s)")
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)  # one timed read of a file
    args = parser.parse_args()
    if args.read is not None:
        read_once(args.read)
    else:
        main(args.lines)
