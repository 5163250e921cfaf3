"""Per-task downloads: all per-topic scores and the summaries as CSV and JSON, and findings.

The long score table keeps trec_eval's layout (run, topic, measure, value); the summary is
wide (one row per run, one column per measure). Rows are sorted, so files are byte-identical
for identical inputs.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import numpy as np
import pandas as pd

from builder.site.analysis import TaskAnalysis
from builder.stats.significance import write_significance_csv
from builder.tasks import SCORE_COLUMNS, SUMMARY_TOPIC


@dataclass(frozen=True)
class Download:
    """One download file of a task: its name, what the downloads page says of it, and how to
    write it (the table is made when written, so the files can be written in parallel)."""

    task: str
    name: str
    description: str
    write: Callable[[Path], None]

    def path(self, out: Path) -> Path:
        return out / self.task / "downloads" / self.name

    def listed(self, out: Path) -> dict[str, str]:
        """The downloads page's entry, once written under ``out``."""
        return {"href": f"{self.task}/downloads/{self.name}", "name": self.name,
                "description": self.description, "bytes": str(self.path(out).stat().st_size)}


def task_downloads(analysis: TaskAnalysis, display_path: Callable[[str], str]) -> list[Download]:
    """The task's download files, most costly first, not yet written."""
    task = analysis.spec.id
    scores = cache(partial(_per_topic_scores, analysis))  # sorted once for both files
    files = [
        Download(task, "scores.json", "the same, as JSON records",
                 lambda path: write_long_json(scores(), path)),
        Download(task, "scores.csv", "every run's per-topic scores (run, topic, measure, value)",
                 lambda path: write_long_csv(scores(), path)),
        Download(task, "summary.csv", "every run's scores over all topics, one row per run",
                 lambda path: _write_csv(_summary(analysis), path)),
        Download(task, "summary.json", "the same, as JSON records",
                 lambda path: _write_json(_summary(analysis), path)),
        Download(task, "findings.csv", "every validation finding of every run file",
                 lambda path: _write_csv(_findings(analysis, display_path), path)),
    ]
    report = analysis.significance
    if report is not None:
        files.insert(2, Download(
            task, "significance.csv", "every pair of runs tested (as appendix compare prints "
            "it): " + report.settings.describe(),
            lambda path: write_significance_csv(report.table, path)))
    return files


LISTING_ORDER = ("scores.csv", "scores.json", "summary.csv", "summary.json", "findings.csv",
                 "significance.csv")
"""The order of a task's files on the downloads page."""


def write_download(download: Download, out: Path) -> None:
    path = download.path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    download.write(path)


def listing(files: list[Download], out: Path) -> list[dict[str, str]]:
    """The downloads page's entries of written files, in ``LISTING_ORDER``."""
    ordered = sorted(files, key=lambda download: LISTING_ORDER.index(download.name))
    return [download.listed(out) for download in ordered]


def _per_topic_scores(analysis: TaskAnalysis) -> pd.DataFrame:
    evaluation = analysis.result.evaluation
    scores = evaluation.scores if evaluation is not None else pd.DataFrame(
        columns=["run", "topic", "measure", "value"])
    scores = scores.assign(topic=scores["topic"].astype(str))
    is_summary = scores["topic"] == SUMMARY_TOPIC
    return scores[~is_summary].sort_values(["run", "topic", "measure"], kind="mergesort")


def _summary(analysis: TaskAnalysis) -> pd.DataFrame:
    summary = analysis.summary.reindex(index=analysis.runs, columns=analysis.measure_order())
    return summary.rename_axis(index="run", columns=None).reset_index()


def _findings(analysis: TaskAnalysis, display_path: Callable[[str], str]) -> pd.DataFrame:
    inputs = analysis.result.inputs
    return pd.DataFrame(
        [(read.name, display_path(f.file), f.line, f.severity, f.message)
         for read in inputs.reads for f in read.findings]
        + [("", display_path(f.file), f.line, f.severity, f.message) for f in inputs.findings],
        columns=["run", "file", "line", "severity", "message"],
    ).astype({"line": "Int64"}).sort_values(["run", "file", "line", "message"], kind="mergesort")


def _write_csv(table: pd.DataFrame, path: Path) -> None:
    table.to_csv(path, index=False, lineterminator="\n")


def _write_json(table: pd.DataFrame, path: Path) -> None:
    path.write_text(table.to_json(orient="records", double_precision=15) + "\n", encoding="utf-8")


BLOCK_ROWS = 32_768
"""Rows laid out at a time by the long writers: fresh memory is costly on a VM, and blocks
reuse the same few megabytes where the whole table took hundreds."""


def write_long_csv(scores: pd.DataFrame, path: Path) -> None:
    """Write a long score table (run, topic, measure, value) byte for byte as pandas'
    ``to_csv(index=False, lineterminator="\\n")`` would, two to three times faster: each
    distinct name is quoted once by the csv module, each value is ``repr`` (pandas' shortest
    round-trip text), NaN is empty, and the lines are joined a block at a time."""
    names = [_distinct_texts(scores[column], _csv_field) for column in ("run", "topic", "measure")]
    numbers = scores["value"].to_numpy(float)
    with path.open("w", encoding="utf-8") as file:
        file.write("run,topic,measure,value\n")
        for block in _blocks(len(scores)):
            part = numbers[block]
            values = [repr(v) for v in part.tolist()]
            for missing in np.flatnonzero(np.isnan(part)).tolist():
                values[missing] = ""
            file.write("".join([f"{run},{topic},{measure},{value}\n" for run, topic, measure, value
                                in zip(*_texts_of(names, block), values)]))


def write_long_json(scores: pd.DataFrame, path: Path) -> None:
    """Write a long score table as JSON records byte for byte as pandas'
    ``to_json(orient="records", double_precision=15)`` (and a newline) would, in half the time
    and a fraction of the memory: pandas' own encoder writes each distinct name once and the
    values a block at a time, as an array whose texts are then laid out into the records."""
    from pandas.io.json import ujson_dumps

    if list(scores.columns) != SCORE_COLUMNS:
        _write_json(scores, path)
        return
    run, topic, measure, value = (f"{ujson_dumps(key)}:" for key in SCORE_COLUMNS)
    names = [_distinct_texts(scores[column], ujson_dumps) for column in SCORE_COLUMNS[:3]]
    numbers = scores["value"].to_numpy(float)
    with path.open("w", encoding="utf-8") as file:
        file.write("[")
        for count, block in enumerate(_blocks(len(scores))):
            values = ujson_dumps(numbers[block], double_precision=15)[1:-1].split(",")
            file.write(("," if count else "") + ",".join([
                f"{{{run}{r},{topic}{t},{measure}{m},{value}{v}}}"
                for r, t, m, v in zip(*_texts_of(names, block), values)]))
        file.write("]\n")


def _blocks(rows: int) -> list[slice]:
    return [slice(start, start + BLOCK_ROWS) for start in range(0, rows, BLOCK_ROWS)]


def _distinct_texts(column: pd.Series,
                    encode: Callable[[str], str]) -> tuple[np.ndarray, list[str]]:
    """The column as codes into its distinct values, each encoded once."""
    codes, distinct = pd.factorize(column.astype(str), sort=False)
    return codes, [encode(value) for value in distinct]


def _texts_of(columns: list[tuple[np.ndarray, list[str]]], block: slice) -> list[list[str]]:
    """The encoded values of a block of rows, per column."""
    return [[texts[code] for code in codes[block].tolist()] for codes, texts in columns]


def _csv_field(value: str) -> str:
    """``value`` as a csv field (quoted where the csv module would quote it)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([value, ""])
    return buffer.getvalue()[: -len(",\n")]
