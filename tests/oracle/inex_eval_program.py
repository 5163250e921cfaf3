"""inex_eval 3.1 (``../shared/tools/inex_eval/inex_eval.jar``) run on files, its output read
as rows, and our evaluation of the same files, for differential tests and benchmarks."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pandas as pd

from builder.tasks import get_kind
from tests.oracle.official import TOOLS

JAR = TOOLS / "inex_eval" / "inex_eval.jar"
FLAGS = {"focused": "-f", "thorough": "-t", "relevant-in-context": "-r",
         "restricted-relevant-in-context": "-i", "best-in-context": "-b"}


def parse_inex_eval(text: str, focused: bool = True) -> pd.DataFrame:
    """inex_eval's ``measure topic value`` lines as (measure, topic, official); in the focused
    and thorough tasks ``ircl_prn.x`` is our ``iP[x]``, in the in-context tasks it keeps its
    name (there ``-i`` also prints ``iP[x]`` rows, a focused measure we do not give).
    Java prints NaN as ``NaN``, which float() reads."""
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) != 3 or line.startswith(("Impossible", "<")):
            continue
        measure = fields[0]
        if focused and measure.startswith("ircl_prn."):
            measure = f"iP[{measure.removeprefix('ircl_prn.')}]"
        rows.append((measure, fields[1], float(fields[2])))
    return pd.DataFrame(rows, columns=["measure", "topic", "official"])


def inex_eval(kind: str, qrels: Path, run: Path, complete: bool = False) -> pd.DataFrame:
    """The official program's per-topic and summary rows for ``run``."""
    if shutil.which("java") is None or not JAR.is_file():
        raise FileNotFoundError("inex_eval needs java and ../shared/tools/inex_eval/inex_eval.jar")
    flags = [FLAGS[kind], "-q", *(["-c"] if complete else [])]
    done = subprocess.run(["java", "-jar", str(JAR), *flags, str(qrels), str(run)],
                          capture_output=True, text=True, check=True, timeout=300)
    return parse_inex_eval(done.stdout, focused=kind in ("focused", "thorough"))


def ours(kind_name: str, qrels: Path, run: Path, **options) -> tuple[pd.DataFrame, list]:
    """Our score table of ``run`` (read, validated and evaluated as ``appendix evaluate``
    does) and the run's findings."""
    kind = get_kind(kind_name)
    table = kind.read_qrels(qrels)
    settings = kind.options_model(**options)
    [read] = kind.read_runs([run], table, settings)
    if read.rejected:
        return pd.DataFrame(columns=["run", "topic", "measure", "value"]), read.findings
    return kind.evaluate(table, read.table, settings).scores, read.findings


def compared(official: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Every official row with our value beside it (NaN where we print none)."""
    scores = scores.assign(topic=scores["topic"].astype(str))
    return official.merge(scores[["measure", "topic", "value"]], on=["measure", "topic"],
                          how="left")
