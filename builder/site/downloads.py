"""Per-task downloads: all per-topic scores and the summaries as CSV and JSON, and findings.

The long score table keeps trec_eval's layout (run, topic, measure, value); the summary is
wide (one row per run, one column per measure). Rows are sorted, so files are byte-identical
for identical inputs.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterator
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
    scores = cache(partial(_long_scores, analysis))  # laid out once for both files
    files = [
        Download(task, "scores.json", "the same, as JSON records (values at full precision)",
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


def _long_scores(analysis: TaskAnalysis) -> LongScores:
    return LongScores.of(_per_topic_scores(analysis))


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
    """JSON records, numbers at full precision (shortest round-trip text), null where missing
    (pandas' own JSON keeps 15 digits at most)."""
    records = [{key: _json_value(value) for key, value in row.items()}
               for row in table.to_dict(orient="records")]
    path.write_text(json.dumps(records, separators=(",", ":"), allow_nan=False) + "\n",
                    encoding="utf-8")


def _json_value(value: object) -> object:
    """A table cell as JSON takes it: numpy scalars as Python ones, NaN and pd.NA as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is pd.NA or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return value


BLOCK_ROWS = 32_768
"""Rows laid out at a time by the long writers: fresh memory is costly on a VM, and blocks
reuse the same few megabytes where the whole table took hundreds."""


@dataclass(frozen=True)
class LongScores:
    """A long score table (run, topic, measure, value) laid out once for both score files:
    each name column as codes into its distinct values, each value as its shortest
    round-trip text (``repr``; None where it is not finite). Formatting the values is most of
    a writer's work, and both files then carry the same digits, all of them."""

    names: list[tuple[np.ndarray, list[str]]]
    values: list[str | None]

    @classmethod
    def of(cls, scores: pd.DataFrame) -> LongScores:
        names = []
        for column in ("run", "topic", "measure"):
            codes, distinct = pd.factorize(scores[column].astype(str), sort=False)
            names.append((codes, list(distinct)))
        numbers = scores["value"].to_numpy(float)
        values: list[str | None] = [repr(v) for v in numbers.tolist()]
        for missing in np.flatnonzero(~np.isfinite(numbers)).tolist():
            values[missing] = None
        return cls(names, values)

    def blocks(self, encode: Callable[[str], str]) -> Iterator[list[list[str | None]]]:
        """Per block of rows: the run, topic and measure texts (each distinct name encoded
        once by ``encode``) and the value texts."""
        encoded = [(codes, [encode(name) for name in distinct]) for codes, distinct in self.names]
        for start in range(0, len(self.values), BLOCK_ROWS):
            block = slice(start, start + BLOCK_ROWS)
            texts = [[names[code] for code in codes[block].tolist()] for codes, names in encoded]
            yield [*texts, self.values[block]]


def write_long_csv(scores: LongScores, path: Path) -> None:
    """The long score table as CSV, byte for byte as pandas'
    ``to_csv(index=False, lineterminator="\\n")`` writes it: names quoted as the csv module
    quotes them, values ``repr`` (pandas' shortest round-trip text), NaN empty."""
    with path.open("w", encoding="utf-8") as file:
        file.write("run,topic,measure,value\n")
        for runs, topics, measures, values in scores.blocks(_csv_field):
            file.write("".join([f"{run},{topic},{measure},{'' if value is None else value}\n"
                                for run, topic, measure, value
                                in zip(runs, topics, measures, values)]))


def write_long_json(scores: LongScores, path: Path) -> None:
    """The long score table as JSON records (run, topic, measure, value), every value at full
    precision (its shortest round-trip text, as in the CSV; null where not finite)."""
    from pandas.io.json import ujson_dumps

    run, topic, measure, value = (f"{ujson_dumps(key)}:" for key in SCORE_COLUMNS)
    with path.open("w", encoding="utf-8") as file:
        file.write("[")
        for count, (runs, topics, measures, values) in enumerate(scores.blocks(ujson_dumps)):
            file.write(("," if count else "") + ",".join([
                f"{{{run}{r},{topic}{t},{measure}{m},{value}{'null' if v is None else v}}}"
                for r, t, m, v in zip(runs, topics, measures, values)]))
        file.write("]\n")


def _csv_field(value: str) -> str:
    """``value`` as a csv field (quoted where the csv module would quote it)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([value, ""])
    return buffer.getvalue()[: -len(",\n")]
