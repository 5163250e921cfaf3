"""Benchmark: ``appendix evaluate`` as a command, beside trec_eval run over each file.

    python benchmarks/bench_cli.py [CAMPAIGN] [--repeat N]

On CAMPAIGN (a folder of ../shared/data with ``runs/`` and a qrels file; default
trec_covid_round1, 143 runs, 3.5M lines), side by side in one run, each timed as a fresh
process (wall time, and CPU time of the process and its children):

- ``appendix evaluate -q -c -M 1000 --format tsv QRELS RUN...`` on the runs decompressed to a
  temporary folder (not timed), then the same without ``-q``, then on the gzip files;
- trec_eval 9.0.8 and 10.0 (built with ``make`` in a temporary folder from ../shared/tools),
  ``-q -c -M1000`` over each decompressed file in turn, as a user scripts it.

Our commands run as from an installed package: with their bytecode compiled once, by an untimed
first run (pip compiles a package's modules when it installs it; this machine's
PYTHONDONTWRITEBYTECODE would otherwise compile every module again in each run, about 0.15
CPU s). Each is run ``--repeat`` times (default 3), interleaved, and the median printed; then the
ratios to trec_eval 9.0.8 (target: at most 0.36). Last, a profile of one run of the first
two commands, each in a fresh process: wall and CPU time (all threads) of start-up (imports,
arguments), the qrels, reading + validation + evaluation (overlapped on threads), output.
The machine is shared: only same-run ratios mean much; the load average is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
TARGET = 0.36


def installed_environment(work: Path) -> dict[str, str]:
    """The environment of a command run as from an installed package: bytecode written (to
    a cache folder in ``work``, not beside the sources) and read again by the next runs."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**environment, "PYTHONPYCACHEPREFIX": str(work / "bytecode")}


def run_timed(commands: list[list[str]], environment: dict[str, str] | None = None
              ) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of ``commands`` run one after another."""
    wall, cpu = time.perf_counter(), 0.0
    for command in commands:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(command[:6])} ...")
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - wall, cpu


def profile(arguments: list[str]) -> None:
    """Where the time of one ``appendix evaluate`` goes (run in a fresh process, from before
    the first import of ``builder``): wall and CPU time (all threads) of each phase. Reading,
    validating and scoring run overlapped on threads: their CPU time exceeds their wall."""
    clock = [(time.perf_counter(), time.process_time())]
    phases: list[tuple[str, float, float]] = []

    def lap(name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        phases.append((name, wall - clock[-1][0], cpu - clock[-1][1]))
        clock.append((wall, cpu))

    sys.path.insert(0, str(ROOT))
    import builder.cli.commands.evaluate as command
    from builder.cli import main
    from builder.pipeline import stages as pipeline

    names = {"read_task": "qrels", "evaluate_task": "read + validate + evaluate (threads)",
             "_render": "output (text made)"}

    def timed(module, name: str) -> None:
        original = getattr(module, name)

        def run(*args, **kwargs):
            lap("start-up (imports, arguments)" if name == "read_task" else "between")
            result = original(*args, **kwargs)
            result = list(result) if name == "_render" else result
            lap(names[name])
            return result
        setattr(module, name, run)

    for module, name in ((pipeline, "read_task"), (pipeline, "evaluate_task"),
                         (command, "_render")):
        timed(module, name)
    with contextlib.redirect_stdout(io.StringIO()):
        main(["evaluate", *arguments])
    lap("output (written)")
    wall, cpu = sum(w for _, w, _ in phases), sum(c for _, _, c in phases)
    print(f"profile of one run (fresh process, interpreter start-up left out): wall "
          f"{wall:.2f} s, CPU {cpu:.2f} s")
    for name, spent, used in phases:
        if spent > 0.005:
            print(f"  {name:<38} wall {spent:5.2f} s {spent / wall:4.0%}  cpu {used:5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", default="trec_covid_round1")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.oracle.official import build_trec_eval, plain_copies

    folder = DATA / args.campaign
    qrels = next(p for p in sorted(folder.iterdir()) if "qrels" in p.name)
    gz_runs = sorted((folder / "runs").iterdir())
    work = Path(tempfile.mkdtemp(prefix="bench_cli_"))
    try:
        plain = [str(path) for path in plain_copies(gz_runs, work / "runs")]
        lines = sum(Path(p).read_bytes().count(b"\n") for p in plain)
        binaries = {v: build_trec_eval(v, work / "tools") for v in ("9.0.8", "10.0")}
        appendix = [sys.executable, "-m", "builder", "evaluate", "-c", "-M", "1000",
                    "--format", "tsv", str(qrels)]
        cases = {
            "appendix -q": [[*appendix[:4], "-q", *appendix[4:], *plain]],
            "appendix": [[*appendix, *plain]],
            "appendix -q, gzip": [[*appendix[:4], "-q", *appendix[4:], *map(str, gz_runs)]],
            **{f"trec_eval {v} -q": [[str(b), "-q", "-c", "-M1000", str(qrels), p]
                                     for p in plain] for v, b in binaries.items()},
        }
        print(f"{args.campaign}: {len(plain)} runs, {lines:,} lines; {os.cpu_count()} cores; "
              f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        environment = installed_environment(work)
        run_timed(cases["appendix -q, gzip"], environment)  # compiles the bytecode, untimed
        times: dict[str, list[tuple[float, float]]] = {case: [] for case in cases}
        for _ in range(args.repeat):
            for case, commands in cases.items():
                times[case].append(run_timed(commands, environment))
        median = {case: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
                  for case, t in times.items()}
        peer_wall, peer_cpu = median["trec_eval 9.0.8 -q"]
        for case, (wall, cpu) in median.items():
            print(f"{case:<22} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                  f"{lines / wall / 1e6:5.2f} M lines/s   / trec_eval 9.0.8: wall "
                  f"{wall / peer_wall:4.2f}  cpu {cpu / peer_cpu:4.2f}")
        print(f"median of {args.repeat}; target ratio <= {TARGET}; "
              f"load now {os.getloadavg()[0]:.1f}")
        for flags in (["-q"], []):
            print(" ".join(["appendix evaluate", *flags, "-c -M 1000 --format tsv:"]))
            done = subprocess.run([sys.executable, __file__, "--profile", *flags, "-c", "-M",
                                   "1000", "--format", "tsv", str(qrels), *plain],
                                  check=True, capture_output=True, text=True,
                                  env=environment)
            print(done.stdout, end="")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--profile"]:
        profile(sys.argv[2:])
    else:
        main()
