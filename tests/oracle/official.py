"""The official programs of ``../shared/tools``, built and run from a temporary folder.

trec_eval is compiled with ``make`` in a copy of its source (never inside the repository);
``trec_eval_rows`` runs it and reads its output as (measure, topic, value) rows.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2].parent / "shared" / "tools"


def build_trec_eval(version: str, folder: Path) -> Path:
    """Compile trec_eval ``version`` (``10.0`` or ``9.0.8``) in a copy under ``folder``."""
    source = TOOLS / f"trec_eval-{version}"
    if not source.is_dir() or not shutil.which("make") or not shutil.which("cc"):
        raise FileNotFoundError(f"cannot build {source}: source, make or cc missing")
    copy = folder / f"trec_eval-{version}"
    shutil.copytree(source, copy)
    subprocess.run(["make", "-s", "-j2"], cwd=copy, check=True, capture_output=True)
    return copy / "trec_eval"


def trec_eval_rows(
    binary: Path, flags: list[str], qrels: Path, run: Path
) -> tuple[int, list[tuple[str, str, str]]]:
    """trec_eval's exit code and its output lines as (measure, topic, value)."""
    done = subprocess.run(
        [str(binary), *flags, str(qrels), str(run)], check=False, capture_output=True, text=True
    )
    rows = []
    for line in done.stdout.splitlines():
        measure, topic, value = line.split("\t")
        rows.append((measure.strip(), topic, value))
    return done.returncode, rows
