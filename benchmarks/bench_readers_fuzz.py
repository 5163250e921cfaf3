"""Fuzzing every reader of a user's file: random bytes and mutated real lines.

    python benchmarks/bench_readers_fuzz.py [EXAMPLES] [READER,READER...]

For each reader of ``tests/formats/reader_cases.py`` (TREC run, TREC qrels, FOL run, INEX
qrels, TREC / XML / INEX topics, run metadata CSV and YAML, config, TREC-like element runs and
INEX XML submissions resolved over a small corpus, EPRUM navigation tables), EXAMPLES (default 10,000) random inputs are read, and the outcomes are
counted: read (possibly with findings), refused with the project's own ``InputError``, or
any other exception (a bug: the first one of each kind is printed with its input). The suite runs the same property derandomised on a
few hundred examples per reader (``tests/formats/test_reader_properties.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "formats"))
from reader_cases import READERS, contents, read_bytes_as


def fuzz(name: str, examples: int) -> tuple[Counter[str], dict[str, tuple[bytes, str]]]:
    reader = READERS[name]
    outcomes: Counter[str] = Counter()
    bugs: dict[str, tuple[bytes, str]] = {}

    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(contents(reader))
    def read(content: bytes) -> None:
        try:
            outcomes[read_bytes_as(reader, content)] += 1
        except Exception as error:  # noqa: BLE001 (counted and shown: that is the point)
            outcomes["other exception"] += 1
            bugs.setdefault(type(error).__name__, (content, traceback.format_exc(limit=-3)))

    read()
    return outcomes, bugs


def main(examples: int, names: list[str]) -> int:
    print(f"{examples:,} random inputs per reader (random bytes or mutated real lines)")
    print(f"{'reader':<18}{'examples':>9}{'read':>8}{'InputError':>12}{'other':>7}{'seconds':>9}")
    failed = 0
    for name in names:
        start = time.perf_counter()
        outcomes, bugs = fuzz(name, examples)
        seconds = time.perf_counter() - start
        total = sum(outcomes.values())
        print(f"{name:<18}{total:>9,}{outcomes['read']:>8,}{outcomes['input error']:>12,}"
              f"{outcomes['other exception']:>7,}{seconds:>9.1f}", flush=True)
        for kind, (content, trace) in bugs.items():
            print(f"  {kind} on {content[:200]!r}\n{trace}")
        failed += outcomes["other exception"]
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="?", type=int, default=10_000,
                        help="random inputs per reader (default: %(default)s)")
    parser.add_argument("readers", nargs="?", default=",".join(READERS),
                        help="readers fuzzed, separated by commas (default: all, %(default)s)")
    args = parser.parse_args()
    sys.exit(main(args.examples, args.readers.split(",")))
