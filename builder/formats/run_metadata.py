"""Run metadata: who submitted each run and how, from a CSV or YAML file.

CSV: a header line naming the columns, one run per line. YAML: a list of mappings, or a
mapping from run name to a mapping. Recognised columns (with accepted aliases):
``run`` (tag, runid), ``team`` (group, participant), ``description`` (desc), ``type``
(runtype, run_type: automatic, manual or feedback). Other columns are kept as they are and
shown with the run.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, InputError
from builder.formats.long_values import too_long
from builder.formats.source import read_text

METADATA_COLUMNS = ["run", "team", "description", "type"]
RUN_TYPES = ("automatic", "manual", "feedback")

_ALIASES = {
    "run": "run", "tag": "run", "runid": "run", "run_id": "run",
    "team": "team", "group": "team", "participant": "team",
    "description": "description", "desc": "description",
    "type": "type", "runtype": "type", "run_type": "type",
}


def read_run_metadata(path: Path) -> tuple[pd.DataFrame, list[Finding]]:
    """The metadata of ``path``: ``METADATA_COLUMNS`` then any other columns, one row per run."""
    path = Path(path)
    text = read_text(path)
    if path.suffix.lower() in (".yml", ".yaml"):
        records, findings = _yaml_records(str(path), text)
    else:
        records, findings = _csv_records(str(path), text)
    rows: list[dict[str, str]] = []
    seen: dict[str, int] = {}
    for line, record in records:
        row = {_ALIASES.get(str(k).strip().lower(), str(k).strip()): _text(v)
               for k, v in record.items()}
        run = row.get("run", "")
        if not run:
            findings.append(Finding(str(path), line, "error", FindingCode.SYNTAX, "no run name"))
            continue
        long = [f for name in ("run", "team") for f in too_long(
            str(path), np.array([line]), np.array([len(row.get(name, ""))]), name)]
        if long:  # a name shown on every page of the run
            findings += long
            continue
        if run in seen:
            message = f"run {run!r} already described on line {seen[run]}"
            findings.append(Finding(str(path), line, "error", FindingCode.DUPLICATE, message))
            continue
        seen[run] = line
        kind = row.get("type", "").lower()
        if kind and kind not in RUN_TYPES:
            message = f"run type {row['type']!r} is not one of {', '.join(RUN_TYPES)}"
            findings.append(Finding(str(path), line, "error", FindingCode.VALUE, message))
        row["type"] = kind
        rows.append(row)
    extra = sorted({k for row in rows for k in row} - set(METADATA_COLUMNS))
    columns = METADATA_COLUMNS + extra
    table = pd.DataFrame([[row.get(c, "") for c in columns] for row in rows], columns=columns)
    return table, findings


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _csv_records(file: str, text: str) -> tuple[list[tuple[int, dict[str, Any]]], list[Finding]]:
    reader = csv.DictReader(io.StringIO(text))
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text)))  # a long description is still a description
    records = []
    try:
        if not reader.fieldnames or not any(_ALIASES.get(f.strip().lower()) == "run"
                                            for f in reader.fieldnames):
            return [], [Finding(file, 1, "error", FindingCode.SYNTAX,
                                "header has no 'run' column")]
        start = reader.line_num + 1
        for record in reader:
            record.pop(None, None)  # cells beyond the header
            records.append((start, {k: v for k, v in record.items() if k is not None}))
            start = reader.line_num + 1
    except csv.Error as error:
        return [], [Finding(file, reader.line_num or None, "error", FindingCode.SYNTAX,
                            f"not valid CSV: {error}")]
    finally:
        csv.field_size_limit(limit)
    return records, []


def _yaml_records(file: str, text: str) -> tuple[list[tuple[int, dict[str, Any]]], list[Finding]]:
    from builder.formats.yaml_text import load_yaml

    try:
        data, node = load_yaml(text, file)
    except InputError as error:
        return [], error.findings
    if isinstance(data, list) and all(isinstance(item, dict) for item in data):
        lines = [item.start_mark.line + 1 for item in node.value]
        return list(zip(lines, data)), []
    if isinstance(data, dict) and all(isinstance(item, dict) for item in data.values()):
        lines = [key.start_mark.line + 1 for key, _ in node.value]
        return [(line, {"run": run, **item}) for line, (run, item) in zip(lines, data.items())], []
    message = "expected a list of mappings or a mapping from run name to a mapping"
    return [], [Finding(file, 1, "error", FindingCode.SYNTAX, message)]
