"""Differential agreement with the official trec_eval on thousands of random cases.

    python benchmarks/agreement_trec_eval.py [CASES] [VERSION]

Builds trec_eval VERSION (10.0 default, or 9.0.8) from ../shared/tools in a temporary folder,
draws CASES random qrels and runs (default 2000; ties, scores equal only in single precision,
grades -1..4, gains per level and set_F, utility, rbp_resid with parameters, rankings of
unjudged documents only, topics missing on either side, -M, -l 2, -J, -N, with and without -c; in half
the cases scores and relevance values that are not numbers, read by ``--reading atof``), runs
``trec_eval -q -m all_trec`` and ``appendix evaluate --profile VERSION`` on each and prints, per
measure, the lines that agree and those that differ (a line missing on one side differs).
``-nan`` lines of trec_eval (-J on a ranking left empty: 0/0) are counted apart.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from builder.cli import main as appendix
from tests.oracle.official import build_trec_eval, trec_eval_rows
from tests.oracle.test_differential_trec_eval import GAINS, ODD_GRADES, ODD_SCORES, UNJUDGED_DOCS

TOPICS = ["1", "2", "10"]
DOCS = ["d0", "d1", "d2", "d3", "d4", "d5", "d10", "d11", "D1", "doc-7", "a", "zz9"]
SCORES = [1.0, 2.0, 0.5, 1.0000000001, 1.0000000002, -3.25, 1e-7, 12.0]


def random_case(rng: random.Random, version: str) -> tuple[str, str, list[str], bool]:
    complete = rng.random() < 0.5
    atof = rng.random() < 0.5
    qrels_topics = rng.sample(TOPICS, rng.randint(1, 3))
    run_topics = set(rng.sample(TOPICS, rng.randint(1, 3)))
    if not complete and version == "10.0":
        run_topics |= set(qrels_topics)  # 10.0 exits 4 without -c on a qrels topic without results
    qrels, run = [], []
    for topic in qrels_topics:
        docs = rng.sample(DOCS, rng.randint(1, 10))
        grades = [rng.choice(ODD_GRADES) if atof and rng.random() < 0.3
                  else str(rng.randint(-1, 4)) for _ in docs]
        grades[0] = "0" if grades[0] == "-1" else grades[0]
        qrels += [f"{topic} 0 {d} {g}" for d, g in zip(docs, grades)]
    for topic in sorted(run_topics):
        pool = UNJUDGED_DOCS if rng.random() < 0.15 else DOCS + UNJUDGED_DOCS
        docs = rng.sample(pool, rng.randint(1, min(12, len(pool))))
        run += [f"{topic} Q0 {d} {i} "
                f"{rng.choice(ODD_SCORES) if atof and rng.random() < 0.3 else repr(rng.choice(SCORES))} r"
                for i, d in enumerate(docs, 1)]
    flags = ["-q", *parameterised(rng, version), "-m", "all_trec"] + (["-c"] if complete else [])
    flags += rng.choice([[], ["-M", "3"], ["-M", "5"]])
    flags += rng.choice([[], ["-l", "2"]])
    flags += rng.choice([[], [], ["-J"], ["-N", "40"]])
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n", flags, atof


def parameterised(rng: random.Random, version: str) -> list[str]:
    """-m requests with parameters: gains per level 0-4 (fractional, less than 1 apart,
    negative) for ndcg, G, ndcg_rel, Rndcg and binG; set_F.x; utility; rbp_resid (10.0)."""
    flags = []
    for family in rng.sample(["ndcg", "G", "ndcg_rel", "Rndcg", "binG"], rng.randint(0, 3)):
        pairs = ",".join(f"{rng.randint(0, 4)}={rng.choice(GAINS)}"
                         for _ in range(rng.randint(1, 3)))
        flags += ["-m", f"{family}.{pairs}"]
    if rng.random() < 0.5:
        flags += ["-m", f"set_F.{rng.choice(['0.5', '2', '0.25', '3'])}"]
    if rng.random() < 0.5:
        flags += ["-m", "utility." + ",".join(rng.choice(["1", "-1", "-0.5", "0.25", "2"])
                                              for _ in range(4))]
    if version == "10.0" and rng.random() < 0.5:
        flags += ["-m", f"rbp_resid.p={rng.choice(['0.5', '0.8', '0.95'])}"]
    return flags


def ours(flags: list[str], qrels: Path, run: Path, version: str, atof: bool
         ) -> tuple[int, list[tuple]]:
    out = io.StringIO()
    flags = flags if "-c" in flags else [*flags, "--no-complete"]
    flags += ["--reading", "atof"] if atof else []
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = appendix(["evaluate", "--profile", version, *flags, str(qrels), str(run)])
    return code, [tuple(f.strip() for f in line.split("\t")) for line in out.getvalue().splitlines()]


def main(cases: int, version: str) -> None:
    rng = random.Random(20261123)
    agree, differ, nan = Counter(), Counter(), Counter()
    exit_codes = Counter()
    with tempfile.TemporaryDirectory() as folder:
        binary = build_trec_eval(version, Path(folder))
        qrels, run = Path(folder) / "qrels", Path(folder) / "run"
        for _ in range(cases):
            qrels_text, run_text, flags, atof = random_case(rng, version)
            qrels.write_text(qrels_text)
            run.write_text(run_text)
            code, theirs = trec_eval_rows(binary, flags, qrels, run)
            our_code, mine = ours(flags, qrels, run, version, atof)
            exit_codes[(code, our_code)] += 1
            theirs = {(m, t): v.strip() for m, t, v in theirs}
            mine = {(m, t): v for m, t, v in mine}
            for key in theirs.keys() | mine.keys():
                measure = key[0]
                if theirs.get(key, "").endswith("nan"):
                    nan[measure] += 1
                elif theirs.get(key) == mine.get(key):
                    agree[measure] += 1
                else:
                    differ[measure] += 1
    print(f"trec_eval {version}: {cases} random cases; exit codes (trec_eval, appendix): "
          + ", ".join(f"{k}: {n}" for k, n in sorted(exit_codes.items())))
    print(f"{'measure':<24}{'agree':>8}{'differ':>8}{'-nan':>8}")
    for measure in sorted(agree.keys() | differ.keys() | nan.keys()):
        print(f"{measure:<24}{agree[measure]:>8}{differ[measure]:>8}{nan[measure]:>8}")
    print(f"{'all lines':<24}{sum(agree.values()):>8}{sum(differ.values()):>8}"
          f"{sum(nan.values()):>8}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", type=int, default=2000,
                        help="random cases drawn (default: %(default)s)")
    parser.add_argument("version", nargs="?", choices=["10.0", "9.0.8"], default="10.0",
                        help="the trec_eval built from ../shared/tools (default: %(default)s)")
    args = parser.parse_args()
    main(args.cases, args.version)
