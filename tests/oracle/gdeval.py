"""Run the TREC Web track's ``gdeval.pl`` (shipped inside the ir_measures package) with Perl."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pandas as pd


def gdeval_script() -> Path | None:
    """The path of gdeval.pl, or None when ir_measures or perl is missing."""
    try:
        script = resources.files("ir_measures") / "bin" / "gdeval.pl"
    except ModuleNotFoundError:
        return None
    return Path(str(script)) if shutil.which("perl") and script.is_file() else None


def zero_iteration_qrels(qrels: Path, folder: Path) -> Path:
    """The qrels with iteration 0 on every line (gdeval refuses TREC-COVID's ``0.5``), as
    ir_measures writes them for gdeval."""
    lines = []
    for line in qrels.read_text().splitlines():
        topic, _, doc, rel = line.split()
        lines.append(f"{topic} 0 {doc} {rel}\n")
    out = folder / "qrels.txt"
    out.write_text("".join(lines))
    return out


def run_gdeval(script: Path, qrels: Path, run: Path, k: int, folder: Path) -> pd.DataFrame:
    """gdeval's per-topic rows: run, topic, ``ndcg@k``, ``err@k`` (printed with 5 decimals)."""
    plain = folder / "run.txt"
    opener = gzip.open if run.suffix == ".gz" else open
    with opener(run, "rb") as source, open(plain, "wb") as target:
        shutil.copyfileobj(source, target)
    text = subprocess.run(
        ["perl", str(script), str(qrels), str(plain), str(k)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    rows = [line.split(",") for line in text.splitlines()[1:] if line]
    table = pd.DataFrame(rows, columns=["run", "topic", f"ndcg@{k}", f"err@{k}"])
    return table.melt(id_vars=["run", "topic"], var_name="measure", value_name="value")
