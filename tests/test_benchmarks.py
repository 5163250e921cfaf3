"""Every script of ``benchmarks/`` answers ``--help`` with its usage and purpose, and does
nothing else: argparse reads its arguments, so a flag is never taken for a campaign name, a
number or a file (``bench_adhoc.py --help`` once looked for a campaign called ``--help``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_each_benchmark_answers_help(script: Path):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                          text=True, timeout=300, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"usage: {script.name} [-h]")
    purpose = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))).splitlines()[0]
    assert " ".join(purpose.split()) in " ".join(done.stdout.split())
