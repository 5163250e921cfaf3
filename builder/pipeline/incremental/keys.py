"""The keys of the evaluation cache: SHA-256 of everything a run's evaluation follows from.

    task key = SHA-256(software version, kind, options as loaded, qrels file's bytes,
                       corpus fingerprint)
    run key  = SHA-256(task key, run name, run file's bytes, rows evaluated)

The corpus (a folder, tar or zip of XML articles, possibly gigabytes) is fingerprinted by each
file's path, size and modification time rather than its bytes, as ``make`` and ``rsync``
decide what changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from builder.config.schema import TaskSpec
from builder.contract import RunRead
from builder.formats.source import sha256
from builder.version import __version__


def corpus_fingerprint(corpus: Path | None) -> str:
    if corpus is None:
        return ""
    corpus = Path(corpus)
    files = sorted(corpus.rglob("*")) if corpus.is_dir() else [corpus]
    lines = []
    for path in files:
        if path.is_file():
            status = path.stat()
            lines.append(f"{os.path.relpath(path, corpus)}\t{status.st_size}\t{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def task_key(task: TaskSpec) -> str:
    options = task.options.model_dump_json() if hasattr(task.options, "model_dump_json") \
        else repr(task.options)
    parts = {"version": __version__, "kind": task.kind.name, "options": options,
             "qrels": sha256(task.qrels),
             "corpus": corpus_fingerprint(getattr(task.options, "corpus", None))}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()


def run_key(task: str, read: RunRead) -> str:
    rows = 0 if read.table is None else len(read.table)
    parts = [task, read.name, sha256(read.path), str(rows)]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
