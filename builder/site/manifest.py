"""The manifest: what produced an archived site (inputs' SHA-256, tool version, config)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from builder.config.schema import SiteSpec
from builder.formats.source import open_problem, open_regular
from builder.version import __version__

MANIFEST_NAME = "manifest.json"
TOOL = "appendix"


def sha256(path: Path) -> str:
    """The SHA-256 of ``path``, a regular file (``OSError`` when it cannot be read as one)."""
    digest = hashlib.sha256()
    with open_regular(path) as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def input_files(site: SiteSpec) -> list[Path]:
    """Every file the build read, config first, each once, in config order."""
    files: list[Path] = [site.path.resolve()]
    for task in site.tasks:
        files += [p for p in (task.qrels, task.topics, task.run_metadata) if p is not None]
        files += list(task.run_files)
    return list(dict.fromkeys(files))


OUTSIDE = ("not read for the manifest: its real path lies outside the campaign's folders "
           "(the config's folder and the folders it names)")
"""Why the manifest records an input without its size and hash."""


def input_record(site: SiteSpec, path: Path) -> dict[str, Any]:
    """The manifest's entry of an input: its name, size and SHA-256; or, for a file outside
    the campaign's folders or one that cannot be read now as a regular file (a run rejected
    for its permissions, a file gone or swapped for a pipe since it was read), its name and
    why there is no hash. Never an error: a bad input costs its own entry, not the build."""
    entry: dict[str, Any] = {"path": site.relative(path)}
    if not site.inside(path):
        return {**entry, "withheld": OUTSIDE}
    try:
        digest = sha256(path)
        size = path.stat().st_size
    except OSError as error:
        return {**entry, "withheld": open_problem(error)}
    return {**entry, "bytes": size, "sha256": digest}


def manifest(site: SiteSpec, build_date: str, files: Iterable[Path]) -> dict[str, Any]:
    return {
        "tool": TOOL,
        "version": __version__,
        "build_date": build_date,
        "config_file": site.relative(site.path),
        "config": published_config(site),
        "significance": {task.id: {**task.significance.as_dict(),
                                   "measures": list(task.significance_measures)}
                         for task in site.tasks if task.significance is not None},
        "inputs": [input_record(site, path) for path in files],
    }


PATH_KEYS = ("qrels", "topics", "runs", "run_metadata")
"""The keys of a task whose values are paths (or a glob) relative to the config's folder."""


def published_config(site: SiteSpec) -> dict[str, Any]:
    """The config as loaded, its paths named as the site names inputs (``SiteSpec.relative``:
    a glob or folder outside the config's folder by its last part), so that the manifest
    tells no folder of the build machine."""
    config = site.config.model_dump(mode="json")
    config["output"] = site.output.name
    for task in config["tasks"]:
        for key in PATH_KEYS:
            if task.get(key):
                task[key] = site.relative(site.base / task[key])
    return config


def write_manifest(out: Path, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    (out / MANIFEST_NAME).write_text(text + "\n", encoding="utf-8")
