"""The official programs of ``../shared/tools``, built and run from a temporary folder.

trec_eval is compiled with ``make`` in a copy of its source (never inside the repository);
``trec_eval_rows`` runs it and reads its output as (measure, topic, value) rows.
"""

from __future__ import annotations

import gzip
import os
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


def plain_copies(runs: list[Path], folder: Path) -> list[Path]:
    """``runs`` decompressed into ``folder`` (trec_eval reads no gzip), each named as its file
    without ``.gz``; a plain file is copied as it is."""
    folder.mkdir(parents=True, exist_ok=True)
    plain = []
    for path in runs:
        target = folder / path.name.removesuffix(".gz")
        with gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb") as source:
            target.write_bytes(source.read())
        plain.append(target)
    return plain


TREC_EVAL_HISTORY = "APPENDIX_TREC_EVAL_GIT"
"""The environment variable naming a git copy (bare or not) of usnistgov/trec_eval's history,
from which trec_eval 8.1 (tag ``v8.1``) is built; else ``../shared/tools/trec_eval.git``.
``../shared/tools`` holds no 8.1 source, and its source is not copied into this repository."""


def build_trec_eval_81(folder: Path) -> Path:
    """Compile trec_eval 8.1 from tag ``v8.1`` of a copy of usnistgov/trec_eval's history
    (``TREC_EVAL_HISTORY``), exported under ``folder``; FileNotFoundError when there is none."""
    history = Path(os.environ.get(TREC_EVAL_HISTORY, TOOLS / "trec_eval.git"))
    if not history.exists() or not shutil.which("git") or not shutil.which("make"):
        raise FileNotFoundError(f"no trec_eval history to build 8.1 from ({TREC_EVAL_HISTORY}, "
                                f"or {TOOLS / 'trec_eval.git'}), or no git or make")
    copy = folder / "trec_eval-8.1"
    copy.mkdir()
    archive = subprocess.run(["git", "-C", str(history), "archive", "v8.1"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
    subprocess.run(["make", "-s", "trec_eval"], cwd=copy, check=True, capture_output=True)
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
