"""The manifest: what produced an archived site (inputs' SHA-256, tool version, config)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from builder.config.schema import SiteSpec
from builder.formats.source import open_problem, sha256
from builder.version import __version__

MANIFEST_NAME = "manifest.json"
TOOL = "appendix"
CHECKSUMS_NAME = "SHA256SUMS"
"""Every file of the site with its SHA-256, as ``sha256sum`` writes them (``sha256sum -c
SHA256SUMS`` checks a copy of the site; ``appendix verify`` checks it and its numbers)."""
INTERNAL_PREFIX = ".appendix-"
"""The files of the publishing machinery (``builder.site.publish``): not part of the site."""


def input_files(site: SiteSpec) -> list[Path]:
    """Every file the build read, config first, each once, in config order."""
    return list(input_roles(site))


CONFIG_ROLE = "config"
RUN_ROLE = "run"
FILE_ROLES = ("qrels", "topics", "run_metadata")
"""What a task reads besides its runs, as its config keys name them."""


def input_roles(site: SiteSpec) -> dict[Path, list[str]]:
    """Every file the build read, config first, each once, in config order, with what it was
    read as (``config``, ``TASK:qrels``, ``TASK:run``, ...): what a rebuild from archived
    inputs needs to put each file back in its place (``builder.archive``)."""
    roles: dict[Path, list[str]] = {site.path.resolve(): [CONFIG_ROLE]}
    for task in site.tasks:
        files = [(getattr(task, role), role) for role in FILE_ROLES]
        for path, role in [*files, *((run, RUN_ROLE) for run in task.run_files)]:
            if path is not None:
                roles.setdefault(path, []).append(f"{task.id}:{role}")
    return roles


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


def input_records(site: SiteSpec) -> dict[Path, dict[str, Any]]:
    """Every input's manifest entry (``input_record``, with what it was read as,
    ``input_roles``), by path: each file hashed once per build, for the manifest and for the
    run pages' submitted files."""
    return {path: {**input_record(site, path), "read_as": roles}
            for path, roles in input_roles(site).items()}


def manifest(site: SiteSpec, build_date: str,
             inputs: Mapping[Path, dict[str, Any]]) -> dict[str, Any]:
    """The manifest of a site: how it was built and from which inputs (``input_records``)."""
    return {
        "tool": TOOL,
        "version": __version__,
        "build_date": build_date,
        "config_file": site.relative(site.path),
        "config": published_config(site),
        "significance": {task.id: {**task.significance.as_dict(),
                                   "measures": list(task.significance_measures)}
                         for task in site.tasks if task.significance is not None},
        "inputs": list(inputs.values()),
    }


PATH_KEYS = ("qrels", "topics", "runs", "run_metadata", "corpus")
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


def write_checksums(out: Path) -> None:
    """``SHA256SUMS``: every file under ``out`` (the manifest too, the publishing machinery's
    own files not), sorted by path, one ``HEX  PATH`` line each."""
    files = sorted((path.relative_to(out).as_posix(), path) for path in out.rglob("*")
                   if path.is_file() and not path.name.startswith(INTERNAL_PREFIX)
                   and path.name != CHECKSUMS_NAME)
    lines = "".join(f"{sha256(path)}  {name}\n" for name, path in files)
    (out / CHECKSUMS_NAME).write_text(lines, encoding="utf-8")


def read_checksums(text: str) -> dict[str, str]:
    """``SHA256SUMS`` read back: path -> SHA-256."""
    pairs = (line.split("  ", 1) for line in text.splitlines() if line)
    return {name: digest for digest, name in pairs}
