"""Per-task downloads: all per-topic scores and the summaries as CSV and JSON, and findings;
and the downloads page that lists them.

The long score table keeps trec_eval's layout (run, topic, measure, value); the summary is
wide (one row per run, one column per measure). Rows are sorted, so files are byte-identical
for identical inputs.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.config.schema import SiteSpec
from builder.contract import SCORE_COLUMNS, SUMMARY_TOPIC, RunRead
from builder.findings import Finding, FindingCode
from builder.formats.source import open_regular
from builder.pipeline.analysis import TaskAnalysis
from builder.site.manifest import sha256
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.parallel import Cost
from builder.site.paths import portable_names
from builder.stats.significance.tables import format_significance


@dataclass(frozen=True)
class Download:
    """One download file of a task: its name, what the downloads page says of it, how to
    write it (the table is made when written, so the files can be written in parallel) and
    how long that takes, roughly (its place in the render queue). ``withheld``: why an input
    is listed but not published (nothing is written)."""

    task: str
    name: str
    description: str
    write: Callable[[Path], None]
    cost: Cost = Cost.LIGHT
    label: str = ""
    """What the downloads page calls it, when not its name: a published input by its own
    name, which its file may not carry (``builder.site.paths.portable_names``)."""
    withheld: str = ""
    """Why an input is listed but not published (outside the campaign, a rejected run)."""
    run: str = ""
    """The run whose submitted file this is (a published run file)."""
    source: Path | None = None
    """The input file this publishes (``publish_inputs``), as the config names it."""

    def path(self, out: Path) -> Path:
        return out / self.task / "downloads" / self.name

    @property
    def href(self) -> str:
        """Where the file is published, from the site root."""
        return f"{self.task}/downloads/{self.name}"

    def listed(self, out: Path) -> dict[str, str]:
        """The downloads page's entry, once written under ``out``. An input whose file could
        not be read when written (gone or swapped since it was read) is listed as withheld."""
        entry = {"href": self.href, "name": self.label or self.name,
                 "description": self.description, "input": self.name.startswith(f"{INPUTS}/"),
                 "withheld": self.withheld, "size": "", "sha256": ""}
        if not self.withheld and entry["input"] and not self.path(out).exists():
            entry["withheld"] = "not published: it could not be read when the site was built"
        if entry["withheld"]:
            return {**entry, "href": ""}
        return {**entry, "size": readable_size(self.path(out).stat().st_size),
                "sha256": sha256(self.path(out)) if entry["input"] else ""}


def readable_size(size: int) -> str:
    """A file size as people read it: ``512 bytes``, ``14.2 kB``, ``3.1 MB`` (powers of 1000,
    as the SI prefixes mean)."""
    if size < 1000:
        return f"{size} byte{'s' * (size != 1)}"
    for unit in ("kB", "MB", "GB"):
        size /= 1000
        if size < 1000 or unit == "GB":
            return f"{size:.1f} {unit}"
    raise AssertionError("unreachable")


def task_downloads(analysis: TaskAnalysis, site: SiteSpec) -> list[Download]:
    """The task's download files, not yet written; with the config's ``publish_inputs``,
    its input files too (``input_downloads``)."""
    from builder.site.pages.paper_tables import leaderboard_latex, leaderboard_markdown

    task = analysis.spec.id
    scores = cache(partial(_long_scores, analysis))  # laid out once for both files
    files = [
        Download(task, "scores.json", "the same, as JSON records (values at full precision)",
                 lambda path: write_long_json(scores(), path), Cost.HEAVY),
        Download(task, "scores.csv", "every run's per-topic scores (run, topic, measure, value)",
                 lambda path: write_long_csv(scores(), path), Cost.HEAVY),
        Download(task, "summary.csv", "every run's scores over all topics, one row per run",
                 lambda path: _write_csv(_summary(analysis), path)),
        Download(task, "summary.json", "the same, as JSON records",
                 lambda path: _write_json(_summary(analysis), path)),
        Download(task, "findings.csv", "every validation finding of every run file",
                 lambda path: _write_csv(_findings(analysis, site), path)),
        Download(task, "leaderboard.tex", "the leaderboard as a LaTeX table (booktabs), "
                 "† marking the runs not significantly different from the top run",
                 lambda path: path.write_text(leaderboard_latex(analysis), encoding="utf-8")),
        Download(task, "leaderboard.md", "the same, as a Markdown table",
                 lambda path: path.write_text(leaderboard_markdown(analysis), encoding="utf-8")),
    ]
    report = analysis.significance
    if report is not None:
        files.append(Download(
            task, "significance.csv", "every pair of runs tested (as appendix compare prints "
            "it): " + report.settings.describe(),
            lambda path: path.write_text(format_significance(report.table), encoding="utf-8"),
            Cost.MEDIUM))
    if site.config.publish_inputs:
        files += input_downloads(analysis, site)
    return files


INPUTS = "inputs"
"""The folder of a task's downloads that holds its input files (``publish_inputs``)."""

OUTSIDE_CAMPAIGN = ("not published: its real path lies outside the campaign's folders (the "
                    "config's folder and the folders it names)")
REJECTED = "not published: the run was rejected"

def input_downloads(analysis: TaskAnalysis, site: SiteSpec) -> list[Download]:
    """The task's inputs as published files: qrels, topics and run metadata as they are, each
    evaluated run gzip-compressed (a run already in gzip as it is), under ``inputs/``, each
    file under its own name where it is portable, else under a portable one (the page shows
    its own). Only files whose real path lies in the campaign's folders (``SiteSpec.inside``)
    are published, and no rejected run (it may be anything but a run: a folder's link to a
    key file); those are listed with the reason."""
    spec, task, display_path = analysis.spec, analysis.spec.id, site.relative
    inputs = [(path, what, path.name, _copy, "" if site.inside(path) else OUTSIDE_CAMPAIGN)
              for path, what in ((spec.qrels, "the relevance judgements"),
                                 (spec.topics, "the topics"),
                                 (spec.run_metadata, "the run metadata")) if path is not None]
    runs = []
    for read in analysis.result.inputs.reads:
        source = Path(read.path)
        gzipped = source.suffix == ".gz"
        runs.append((source, f"run {read.name}" + (", rejected" if read.rejected else ""),
                     source.name if gzipped else f"{source.name}.gz",
                     _copy if gzipped else _gzip, withheld_run(site, read) or "", read.name))
    files = []
    for folder, group in ((INPUTS, [(*i, "") for i in inputs]), (f"{INPUTS}/runs", runs)):
        names = portable_names({display_path(str(path)): name
                                for path, _, name, _, _, _ in group})
        files += [Download(task, f"{folder}/{names[display_path(str(path))]}", what,
                           partial(write, path), label=f"{folder}/{name}", withheld=why, run=run,
                           source=path)
                  for path, what, name, write, why, run in group]
    return files


def submitted_files(analysis: TaskAnalysis, files: list[Download],
                    inputs: Mapping[Path, dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Run -> its submitted file as the run page shows it: its name, its SHA-256 as the
    manifest records it (``builder.site.manifest.input_records``: each file hashed once per
    build) and its published copy from the site root ("" when not published). No entry for a
    run whose hash the manifest withholds (outside the campaign, unreadable now) nor for
    another team's run in a team's bundle (no input of the config)."""
    published = {f.run: f.href for f in files if f.run and not f.withheld}
    return {read.name: {"name": Path(read.path).name, "sha256": record["sha256"],
                        "href": published.get(read.name, "")}
            for read in analysis.result.inputs.accepted
            if "sha256" in (record := inputs.get(Path(read.path), {}))}


def withheld_run(site: SiteSpec, read: RunRead) -> str | None:
    """Why ``publish_inputs`` does not publish the run file of ``read``, or None."""
    if not site.inside(read.path):
        return OUTSIDE_CAMPAIGN
    return REJECTED if read.rejected else None


def publication_findings(site: SiteSpec, read: RunRead) -> list[Finding]:
    """The finding of a run file ``publish_inputs`` does not publish for lying outside the
    campaign (a rejected run's own findings say why it is rejected)."""
    if not site.config.publish_inputs or site.inside(read.path):
        return []
    return [Finding(read.path, None, "warning", FindingCode.NOT_PUBLISHED, OUTSIDE_CAMPAIGN)]


def _copy(source: Path, path: Path) -> None:
    """``source`` as it is; nothing when it cannot be read now as a regular file (the listing
    says so)."""
    try:
        stream = open_regular(source)
    except OSError:
        return
    with stream, open(path, "wb") as copy:
        shutil.copyfileobj(stream, copy, 1 << 20)


def _gzip(source: Path, path: Path) -> None:
    """``source`` gzip-compressed, byte-identical from build to build (no name, no time);
    nothing when it cannot be read now as a regular file (the listing says so)."""
    try:
        stream = open_regular(source)
    except OSError:
        return
    with stream, open(path, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed:
        shutil.copyfileobj(stream, packed, 1 << 20)


LISTING_ORDER = ("scores.csv", "scores.json", "summary.csv", "summary.json", "findings.csv",
                 "significance.csv", "leaderboard.tex", "leaderboard.md")
"""The order of a task's files on the downloads page."""


def write_download(download: Download, out: Path) -> None:
    if download.withheld:
        return
    path = download.path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    download.write(path)


def listing(files: list[Download], out: Path) -> list[dict[str, str]]:
    """The downloads page's entries of written files, in ``LISTING_ORDER``."""
    def order(download: Download) -> tuple[int, str]:
        if download.name in LISTING_ORDER:
            return LISTING_ORDER.index(download.name), ""
        return len(LISTING_ORDER), download.name  # the inputs, by name

    return [download.listed(out) for download in sorted(files, key=order)]


def downloads_pages(build: SiteBuild) -> list[Page]:
    """The downloads page: each task's files, with their sizes (so, once they are written)."""
    page = Page("downloads.html", "downloads.html", "Downloads")
    page.context = {"tasks": [(a, build.downloads.get(a.spec.id, [])) for a in build.tasks]}
    return [page]


DOWNLOADS_PAGE = PageBuilder("downloads", Scope.SITE, downloads_pages, lists_downloads=True)


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


def _findings(analysis: TaskAnalysis, site: SiteSpec) -> pd.DataFrame:
    inputs, display_path = analysis.result.inputs, site.relative
    return pd.DataFrame(
        [(read.name, display_path(f.file), f.line, f.severity, f.message)
         for read in inputs.reads for f in [*read.findings, *publication_findings(site, read)]]
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
    round-trip text (Arrow's float formatting: ``0.1``, ``250``, ``0.00001``; null where not
    finite). Rows are assembled by Arrow's string kernels, a block at a time; both files
    carry the same digits, all of them."""

    names: list[tuple[np.ndarray, list[str]]]
    values: pa.Array

    @classmethod
    def of(cls, scores: pd.DataFrame) -> LongScores:
        names = []
        for column in ("run", "topic", "measure"):
            codes, distinct = pd.factorize(scores[column].astype(str), sort=False)
            names.append((codes.astype(np.int32), list(distinct)))
        numbers = scores["value"].to_numpy(float)
        values = pc.cast(pa.array(numbers, mask=~np.isfinite(numbers)), pa.string())
        return cls(names, values)

    def rows(self, encode: Callable[[str], str], pieces: Callable[..., list],
             missing: str) -> Iterator[str]:
        """Per block, its rows joined by ``pieces(run, topic, measure, value)`` (text arrays
        or scalars), the names encoded once each by ``encode``, missing values ``missing``."""
        encoded = [(codes, pa.array([encode(name) for name in distinct], pa.string()))
                   for codes, distinct in self.names]
        for start in range(0, len(self.values), BLOCK_ROWS):
            block = slice(start, start + BLOCK_ROWS)
            texts = [pa.DictionaryArray.from_arrays(pa.array(codes[block]), names)
                     .cast(pa.string()) for codes, names in encoded]
            values = pc.fill_null(self.values[block], missing)
            joined = pc.binary_join_element_wise(*pieces(*texts, values), "")
            yield "".join(joined.to_pylist())


def write_long_csv(scores: LongScores, path: Path) -> None:
    """The long score table as CSV (run, topic, measure, value): names quoted as the csv
    module quotes them, values their shortest round-trip text, missing ones empty."""
    with path.open("w", encoding="utf-8") as file:
        file.write("run,topic,measure,value\n")
        for block in scores.rows(_csv_field, lambda r, t, m, v: [r, ",", t, ",", m, ",", v, "\n"],
                                 missing=""):
            file.write(block)


def write_long_json(scores: LongScores, path: Path) -> None:
    """The long score table as JSON records (run, topic, measure, value), every value at full
    precision (its shortest round-trip text, as in the CSV; null where not finite)."""
    from pandas.io.json import ujson_dumps

    run, topic, measure, value = (f"{ujson_dumps(key)}:" for key in SCORE_COLUMNS)

    def record(r, t, m, v) -> list:
        return [f",{{{run}", r, f",{topic}", t, f",{measure}", m, f",{value}", v, "}"]

    with path.open("w", encoding="utf-8") as file:
        file.write("[")
        for count, block in enumerate(scores.rows(ujson_dumps, record, missing="null")):
            file.write(block if count else block[1:])
        file.write("]\n")


def _csv_field(value: str) -> str:
    """``value`` as a csv field (quoted where the csv module would quote it)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([value, ""])
    return buffer.getvalue()[: -len(",\n")]
