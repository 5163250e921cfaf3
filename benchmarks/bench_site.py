"""Site build time beside evaluation alone, and run page sizes.

    python benchmarks/bench_site.py [CONFIG] [--disk DIR]   (default: examples/trec_covid_round1.yml)

Targets: the whole build costs at most 1.5 times the evaluation alone (read, validate and
evaluate every run); a run page weighs under 100 KB apart from the shared assets.

Each measurement runs in a fresh process (this script again, with ``--evaluate`` or
``--build``), so neither side inherits the other's warm caches or memory; evaluation and
build alternate, three times each, and the medians are compared: the wall time and the CPU
time of each process (its own and its analyse and render workers'), per stage too, with the
machine's load average before and after the series (on a shared machine the wall time
follows the load; the CPU time much less so). Each starts once the files
written before it are on disk, and the built sites are kept until the end: writing back or
removing a site of thousands of files slows the file creations that follow.

The sites are built in memory (``/dev/shm``) unless ``--disk DIR`` names a folder to build
in: on the machines we measured, creating a file on disk cost from 0.02 to 0.6 ms depending
on what the file system had done in the seconds before (deletions above all), and a site has
some 1,500 files, so on disk the figures measure the disk's state as much as the build.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from builder.cli import prepare_process

prepare_process()  # before numpy is imported, as the ``appendix`` command does: its page policy

ROOT = Path(__file__).resolve().parents[1]
REPETITIONS = 3


def evaluation_alone(config: Path) -> dict:
    """Read, validate and evaluate every run of the config's tasks (no pages)."""
    from builder.pipeline.stages import evaluate_task, load_config, read_task, validate_task

    start = time.perf_counter()
    for task in load_config(config).tasks:
        inputs = read_task(task)
        validate_task(inputs)
        evaluate_task(inputs)
    return {"seconds": time.perf_counter() - start}


def full_build(config: Path, out: Path) -> dict:
    """The whole ``appendix build`` into ``out``, with its stages' seconds."""
    from builder.building import Progress, build

    @dataclass
    class StageTimes(Progress):
        seconds: dict[str, float] = field(default_factory=dict)
        cpu: dict[str, float] = field(default_factory=dict)

        @contextmanager
        def stage(self, name: str) -> Iterator[Progress]:
            start, start_cpu = time.perf_counter(), _cpu_with_workers()
            with super().stage(name) as progress:
                yield progress
            self.seconds[name] = time.perf_counter() - start
            self.cpu[name] = _cpu_with_workers() - start_cpu

    progress = StageTimes(quiet=True)
    summary = build(config, out=out, progress=progress)
    run_pages = sorted(p.stat().st_size for p in out.glob("*/runs/*.html"))
    return {
        "seconds": summary.seconds, "stages": progress.seconds,
        "stages_cpu": progress.cpu, "pages": summary.pages,
        "run_pages": run_pages,
        "assets": sum(p.stat().st_size for p in (out / "assets").iterdir()),
        "total": sum(p.stat().st_size for p in out.rglob("*") if p.is_file()),
    }


def _cpu_with_workers() -> float:
    """CPU seconds of this process and of the workers it forked and joined (the analyse and
    render stages' workers are joined before their stage ends)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def in_fresh_process(mode: str, config: Path, out: Path | None = None) -> dict:
    os.sync()  # the previous build's files are written back now, not during this measurement
    command = [sys.executable, __file__, mode, str(config)] + ([str(out)] if out else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    measured = json.loads(done.stdout.splitlines()[-1])
    # the process and the render worker it forked, from its start (imports included)
    measured["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return measured


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main(config: Path, disk: Path | None) -> None:
    evaluations, builds = [], []
    memory = Path("/dev/shm")
    where = disk if disk is not None else (memory if memory.is_dir() else None)
    load_before = _load()
    with tempfile.TemporaryDirectory(dir=where) as folder:
        for repetition in range(REPETITIONS):
            evaluations.append(in_fresh_process("--evaluate", config))
            builds.append(in_fresh_process("--build", config,
                                           Path(folder) / f"site-{repetition}"))
    load_after = _load()
    evaluation = statistics.median(e["seconds"] for e in evaluations)
    whole = statistics.median(b["seconds"] for b in builds)
    evaluation_cpu = statistics.median(e["cpu"] for e in evaluations)
    whole_cpu = statistics.median(b["cpu"] for b in builds)
    last = builds[-1]
    run_pages = last["run_pages"]
    shown = config.relative_to(ROOT) if config.is_relative_to(ROOT) else config
    print(f"config               {shown}")
    print(f"sites built in       {where or tempfile.gettempdir()}")
    print(f"evaluation alone     {evaluation:8.2f} s   (read, validate, evaluate; median of "
          f"{REPETITIONS} fresh processes: {_listed(evaluations)})")
    print(f"full site build      {whole:8.2f} s   (median of {REPETITIONS}: {_listed(builds)})")
    print(f"ratio (wall)         {whole / evaluation:8.2f} x  evaluation (target <= 1.5 x)")
    print(f"CPU of the process   {evaluation_cpu:8.2f} s evaluation, {whole_cpu:.2f} s build "
          f"(medians: {_listed(evaluations, 'cpu')} | {_listed(builds, 'cpu')})")
    print(f"ratio (CPU)          {whole_cpu / evaluation_cpu:8.2f} x  evaluation")
    print(f"load average         {load_before} before, {load_after} after (1, 5, 15 min)")
    stages = last["stages"]
    print("build stages         " + ", ".join(
        f"{name} {statistics.median(b['stages'][name] for b in builds):.2f}"
        for name in stages) + "  (s, medians)")
    print("their CPU             " + ", ".join(
        f"{name} {statistics.median(b['stages_cpu'][name] for b in builds):.2f}"
        for name in stages) + "  (s, medians, the process's and its workers')")
    print(f"pages                {last['pages']:8d}")
    if run_pages:
        print(f"run pages            {len(run_pages):8d}   largest "
              f"{run_pages[-1] / 1000:.1f} KB, median "
              f"{run_pages[len(run_pages) // 2] / 1000:.1f} KB (target < 100 KB)")
    print(f"site size            {last['total'] / 1e6:8.1f} MB   "
          f"(shared assets {last['assets'] / 1e6:.1f} MB)")


def _listed(measurements: list[dict], key: str = "seconds") -> str:
    return " ".join(f"{m[key]:.2f}" for m in measurements)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", nargs="?", type=Path,
                        default=ROOT / "examples" / "trec_covid_round1.yml",
                        help="the site's configuration (default: examples/trec_covid_round1.yml)")
    parser.add_argument("--disk", type=Path,
                        help="build the sites in this folder rather than in memory (/dev/shm)")
    # the timed passes, each in a fresh process: --evaluate CONFIG, --build CONFIG OUT
    parser.add_argument("--evaluate", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--build", type=Path, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.evaluate is not None:
        print(json.dumps(evaluation_alone(args.evaluate)))
    elif args.build is not None:
        print(json.dumps(full_build(*args.build)))
    else:
        main(args.config.resolve(), args.disk.resolve() if args.disk is not None else None)
