"""Benchmark: appendix beside trec_eval, pytrec_eval, ir_measures and ranx on TREC-COVID round 1.

    python benchmarks/bench_peers.py [CAMPAIGN] [--repeat N]

On CAMPAIGN (a folder of ../shared/data with ``runs/`` and a qrels file; default
trec_covid_round1, 143 runs, 30 topics), each program scores round 1's measures (nDCG@10, P@5,
bpref, MAP) of every run, per topic, as its users call it, each in a fresh process:

- trec_eval 9.0.8 (built with ``make`` in a temporary folder from ../shared/tools), ``-q -c
  -M1000 -m ndcg_cut.10 -m P.5 -m bpref -m map`` over each file in turn: the reference;
- ``appendix evaluate -q -c -M 1000 --format tsv`` with the same measures, all runs at once;
- pytrec_eval: ``parse_qrel``, ``parse_run`` and a ``RelevanceEvaluator`` made once;
- ir_measures: ``read_trec_qrels``, ``read_trec_run`` and ``iter_calc`` per run;
- ranx (when installed: ``pip install -e '.[bench]'``): ``Qrels.from_file``,
  ``Run.from_file`` and ``evaluate(..., return_mean=False)`` per run, cold (an empty numba
  cache, so its measures are compiled in the run, as on a first call) and warm (the cache
  filled by an untimed run before).

Every program reads the runs decompressed to a temporary folder (not timed), with its own
loaders. One untimed round compiles the Python bytecode and fills ranx's warm cache; then the
programs are run in turn, ``--repeat`` times (default 3), alternated, and the medians printed:
wall time, CPU time (user + system of the process and its children), peak memory (the largest
resident set of a process: for trec_eval, of one of its calls), each as a ratio to trec_eval;
and the agreement of each program's per-topic values with trec_eval's, which prints four
decimals: the share of the (run, topic, measure) values within 0.00005 of trec_eval's, the
largest difference and where it is, and the values one gives and the other does not. The
machine's load average is printed before and after: on a shared machine only the same-run
ratios mean much.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
TREC_EVAL_MEASURES = ["ndcg_cut.10", "P.5", "bpref", "map"]
"""Round 1's official measures (nDCG@10, P@5, bpref) and MAP, as trec_eval's ``-m`` names them;
they print as ``ndcg_cut_10``, ``P_5``, ``bpref``, ``map``, the names the values are compared by."""
IR_MEASURES = {"nDCG@10": "ndcg_cut_10", "P@5": "P_5", "Bpref": "bpref", "AP": "map"}
RANX = {"ndcg@10": "ndcg_cut_10", "precision@5": "P_5", "bpref": "bpref", "map": "map"}
GNU_TIME = "/usr/bin/time"
"""GNU time (Debian's ``time`` package), which prints the peak resident set of the program it
runs."""
TOLERANCE = 0.00005
"""Half the last decimal trec_eval prints: a value within it prints as trec_eval's."""

Values = dict[tuple[str, str, str], float]
"""Per-topic values by (run, topic, measure)."""


# Each peer, in its own process (``--peer NAME QRELS OUT RUN...``): scores every run and writes
# its per-topic values to OUT as ``run topic measure value`` lines.

def pytrec_eval_values(qrels: Path, runs: list[Path]) -> Iterator[tuple[str, str, str, float]]:
    import pytrec_eval

    with open(qrels) as lines:
        evaluator = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(lines),
                                                   set(TREC_EVAL_MEASURES))
    for path in runs:
        with open(path) as lines:
            for topic, scores in evaluator.evaluate(pytrec_eval.parse_run(lines)).items():
                for measure, value in scores.items():
                    yield path.name, topic, measure, value


def ir_measures_values(qrels: Path, runs: list[Path]) -> Iterator[tuple[str, str, str, float]]:
    import ir_measures

    measures = [ir_measures.parse_measure(name) for name in IR_MEASURES]
    judged = list(ir_measures.read_trec_qrels(str(qrels)))
    for path in runs:
        for metric in ir_measures.iter_calc(measures, judged,
                                            ir_measures.read_trec_run(str(path))):
            yield path.name, metric.query_id, IR_MEASURES[str(metric.measure)], metric.value


def ranx_values(qrels: Path, runs: list[Path]) -> Iterator[tuple[str, str, str, float]]:
    import warnings

    from numba.core.errors import NumbaTypeSafetyWarning
    from ranx import Qrels, Run, evaluate

    warnings.simplefilter("ignore", NumbaTypeSafetyWarning)  # of ranx's nDCG, on every run
    judged = Qrels.from_file(str(qrels), kind="trec")
    for path in runs:
        run = Run.from_file(str(path), kind="trec")
        scores = evaluate(judged, run, list(RANX), return_mean=False, make_comparable=True)
        topics = list(run.keys())
        for metric, values in scores.items():
            for topic, value in zip(topics, values, strict=True):
                yield path.name, topic, RANX[metric], float(value)


PEERS = {"pytrec_eval": pytrec_eval_values, "ir_measures": ir_measures_values,
         "ranx": ranx_values}


def run_peer(name: str, qrels: Path, out: Path, runs: list[Path]) -> None:
    with open(out, "w") as values:
        values.writelines(f"{run}\t{topic}\t{measure}\t{value!r}\n"
                          for run, topic, measure, value in PEERS[name](qrels, runs))


# The series: each program a list of commands, timed in turn.

def timed(commands: list[list[str]], environment: dict[str, str], out: Path
          ) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and the largest peak resident set (MB) of
    ``commands`` run one after another, the output of the ``i``-th in ``out / f"{i}.out"``.

    The peak is GNU time's (``%M``): the resident set a process's ``wait4`` reports starts from
    its parent's high-water mark (the child runs in the parent's memory until it calls
    ``exec``), so this script, once it has read the runs, would lend every program its own
    peak; GNU time is a small program, its children start from almost nothing."""
    out.mkdir(exist_ok=True)
    wall, cpu, peak = time.perf_counter(), 0.0, 0.0
    for index, command in enumerate(commands):
        with open(out / f"{index}.out", "w") as output:
            process = subprocess.Popen([GNU_TIME, "-f", "%M", "-o", str(out / f"{index}.kb"),
                                        *command], stdout=output, env=environment)
            _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(command[:6])} ...")
        cpu += usage.ru_utime + usage.ru_stime
        peak = max(peak, int((out / f"{index}.kb").read_text().split()[-1]) / 1024)
    return time.perf_counter() - wall, cpu, peak


def read_values(path: Path, columns: tuple[int, int, int, int], run: str = "") -> Values:
    """``path``'s tab-separated lines as values; ``columns``: where run, topic, measure and
    value are (run at ``-1``: every line is of ``run``, as in trec_eval's output of one run).
    The ``all`` lines (the summary) are left out: per-topic values only."""
    run_at, topic_at, measure_at, value_at = columns
    values: Values = {}
    for line in path.read_text().splitlines():
        fields = [field.strip() for field in line.split("\t")]
        if fields[topic_at] != "all":
            key = (run if run_at < 0 else fields[run_at], fields[topic_at], fields[measure_at])
            values[key] = float(fields[value_at])
    return values


def agreement(values: Values, reference: Values) -> str:
    """How far ``values`` are from trec_eval's (``reference``)."""
    shared = values.keys() & reference.keys()
    differences = {key: abs(values[key] - reference[key]) for key in shared}
    within = sum(difference <= TOLERANCE for difference in differences.values())
    worst = max(differences, key=differences.get) if differences else None
    text = f"{within:,}/{len(reference):,} values within {TOLERANCE}"
    if worst is not None and differences[worst] > TOLERANCE:
        text += (f"; largest difference {differences[worst]:.4f} ({' '.join(worst)}: "
                 f"{values[worst]:.4f} against {reference[worst]:.4f})")
    extra, absent = len(values.keys() - reference.keys()), len(reference.keys() - values.keys())
    if extra or absent:
        text += f"; {absent:,} of trec_eval's values absent, {extra:,} not in trec_eval's"
    return text


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", default="trec_covid_round1",
                        help="a folder of ../shared/data with runs/ and a qrels file "
                             "(default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds of the alternated series (default: %(default)s)")
    args = parser.parse_args()
    if not Path(GNU_TIME).is_file():
        raise SystemExit(f"{GNU_TIME} (GNU time, apt-get install time) measures peak memory")
    sys.path.insert(0, str(ROOT))
    from tests.oracle.official import build_trec_eval, plain_copies

    folder = DATA / args.campaign
    qrels = next(path for path in sorted(folder.iterdir()) if "qrels" in path.name)
    work = Path(tempfile.mkdtemp(prefix="bench_peers_"))
    try:
        runs = plain_copies(sorted((folder / "runs").iterdir()), work / "runs")
        lines = sum(path.read_bytes().count(b"\n") for path in runs)
        trec_eval = build_trec_eval("9.0.8", work / "tools")
        measure_flags = [flag for name in TREC_EVAL_MEASURES for flag in ("-m", name)]
        peer = [sys.executable, __file__, "--peer"]
        programs: dict[str, list[list[str]]] = {
            "trec_eval 9.0.8": [[str(trec_eval), "-q", "-c", "-M1000", *measure_flags,
                                 str(qrels), str(run)] for run in runs],
            "appendix": [[sys.executable, "-m", "builder", "evaluate", "-q", "-c", "-M", "1000",
                          "--format", "tsv", *measure_flags, str(qrels), *map(str, runs)]],
        }
        for name in PEERS:
            try:
                __import__(name)
            except ImportError:
                print(f"{name} is not installed: left out")
                continue
            command = [[*peer, name, str(qrels), str(work / f"{name}.tsv"), *map(str, runs)]]
            programs.update({f"{name} cold": command, f"{name} warm": command}
                            if name == "ranx" else {name: command})
        # Bytecode written once (to ``work``) and read again, as from an installed package;
        # ranx's compiled measures in a cache of their own: emptied before each cold run.
        environment = {key: value for key, value in os.environ.items()
                       if key != "PYTHONDONTWRITEBYTECODE"}
        environment["PYTHONPYCACHEPREFIX"] = str(work / "bytecode")
        environments = {name: {**environment, "NUMBA_CACHE_DIR": str(work / "numba-warm")}
                        for name in programs}
        outputs = {name: work / name.replace(" ", "_") for name in programs}
        print(f"{args.campaign}: {len(runs)} runs, {lines:,} lines; {os.cpu_count()} cores; "
              f"load {load()}")
        for name, commands in programs.items():  # untimed: bytecode, ranx's warm cache
            timed(commands, environments[name], outputs[name])
        figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in programs}
        for _ in range(args.repeat):
            for name, commands in programs.items():
                if name == "ranx cold":
                    cold = work / "numba-cold"
                    shutil.rmtree(cold, ignore_errors=True)
                    environments[name]["NUMBA_CACHE_DIR"] = str(cold)
                figures[name].append(timed(commands, environments[name], outputs[name]))
        reference: Values = {}
        for index, run in enumerate(runs):
            reference |= read_values(outputs["trec_eval 9.0.8"] / f"{index}.out", (-1, 1, 0, 2),
                                     run.name)
        base = [statistics.median(figure[i] for figure in figures["trec_eval 9.0.8"])
                for i in range(3)]
        print(f"median of {args.repeat} alternated rounds; ratios to trec_eval 9.0.8:")
        for name in programs:
            wall, cpu, peak = (statistics.median(figure[i] for figure in figures[name])
                               for i in range(3))
            print(f"{name:<16} wall {wall:6.2f} s ({wall / base[0]:5.2f})  cpu {cpu:6.2f} s "
                  f"({cpu / base[1]:5.2f})  peak {peak:6.0f} MB ({peak / base[2]:5.1f})")
        for name in programs:
            if name == "trec_eval 9.0.8":
                continue
            tsv = work / f"{name.split()[0]}.tsv"
            values = (read_values(outputs[name] / "0.out", (0, 2, 1, 3)) if name == "appendix"
                      else read_values(tsv, (0, 1, 2, 3)))
            print(f"agreement {name:<16} {agreement(values, reference)}")
        print(f"load now {load()}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--peer"]:
        name, qrels, out, *runs = sys.argv[2:]
        run_peer(name, Path(qrels), Path(out), [Path(run) for run in runs])
    else:
        main()
