"""Build a campaign's site again from its archived inputs, as it was built.

The inputs are put back so that the build names each as the first one did (the site names an
input by its path relative to the config's folder, or by its file name when it lay outside):
a file the manifest names by a relative path goes to that path under a new config folder, one
named by its file name alone goes to a folder of its own outside it (so it keeps being named
by its file name); the config is the manifest's (``published_config``) with each task's paths
pointed at them. The build date is the manifest's, so the pages carry the same date.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from builder.archive.deposit import Deposit, input_bytes
from builder.archive.pack import CORPUS_ROLE
from builder.building import Progress, build
from builder.site.manifest import CONFIG_ROLE, FILE_ROLES, RUN_ROLE

CAMPAIGN = "campaign"
OUTSIDE = "outside"
CORPORA = "corpora"


class CannotRebuild(Exception):
    """The archived inputs do not suffice to build the site again (say why)."""


@dataclass(frozen=True)
class Placed:
    """Where an input was put back, and what the config names it by."""

    path: Path
    named: str


def rebuild(deposit: Deposit, scratch: Path) -> Path:
    """Build the deposit's site again under ``scratch`` from its inputs; return the new site.
    ``CannotRebuild`` when an input is not at hand or the config reads more than its inputs
    (an XML corpus)."""
    manifest = deposit.manifest
    config = manifest.get("config")
    if not isinstance(config, dict) or not isinstance(config.get("tasks"), list):
        raise CannotRebuild("the manifest holds no config")
    placed: dict[str, list[Placed]] = defaultdict(list)
    for entry in manifest.get("inputs", []):
        roles = [role for role in entry.get("read_as", []) if role != CONFIG_ROLE]
        if not roles:
            continue
        if "sha256" not in entry or entry["sha256"] not in deposit.inputs:
            why = entry.get("withheld", f"the {deposit.label} does not hold it")
            raise CannotRebuild(f"input {entry['path']} is not at hand ({why})")
        for role in roles:
            placed[role].append(_put_back(deposit, entry, role, scratch))
    campaign = scratch / CAMPAIGN
    campaign.mkdir(parents=True, exist_ok=True)
    config_path = campaign / Path(manifest.get("config_file") or "site_config.yml").name
    config_path.write_text(yaml.safe_dump(_config(config, placed, scratch), sort_keys=False),
                           encoding="utf-8")
    out = scratch / "site"
    build(config_path, out=out, progress=Progress(quiet=True),
          when=datetime.fromisoformat(manifest["build_date"]))
    return out


def _put_back(deposit: Deposit, entry: dict[str, Any], role: str, scratch: Path) -> Placed:
    name = entry["path"]
    task, kind = role.split(":", 1)
    if kind == CORPUS_ROLE:  # a folder's files in a folder of the task's, a file as it is
        corpus = scratch / CORPORA / task
        target = corpus / entry["corpus_member"] if "corpus_member" in entry else corpus / name
        named = str(corpus if "corpus_member" in entry else target)
    elif "/" in name:
        target, named = scratch / CAMPAIGN / name, name
    else:
        folder = f"{task}-runs" if kind == RUN_ROLE else f"{entry['sha256'][:16]}"
        target = scratch / OUTSIDE / folder / name
        named = str(target)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(input_bytes(deposit.inputs[entry["sha256"]], entry["sha256"]))
    return Placed(target, named)


def _config(config: dict[str, Any], placed: dict[str, list[Placed]],
            scratch: Path) -> dict[str, Any]:
    """The manifest's config with every task's inputs where they were put back."""
    config = {**config, "output": "site", "tasks": [dict(task) for task in config["tasks"]]}
    for task in config["tasks"]:
        options = task.setdefault("options", {})
        if task.get("corpus") or options.get("corpus"):
            corpus = placed.get(f"{task['id']}:{CORPUS_ROLE}")
            if not corpus:
                raise CannotRebuild(f"task {task['id']} reads an XML corpus, which is not "
                                    "archived")
            task["corpus"] = corpus[0].named
            if options.get("corpus"):
                options["corpus"] = corpus[0].named
        for key in FILE_ROLES:
            files = placed.get(f"{task['id']}:{key}")
            if task.get(key) and files:
                task[key] = files[0].named
        runs = placed.get(f"{task['id']}:{RUN_ROLE}", [])
        outside = [run for run in runs if os.path.isabs(run.named)]
        if outside and len(outside) < len(runs):
            raise CannotRebuild(f"task {task['id']} reads runs both inside and outside its "
                                "config's folder")
        if outside or not runs:  # all in the task's own folder (made empty when no run)
            folder = scratch / OUTSIDE / f"{task['id']}-runs"
            folder.mkdir(parents=True, exist_ok=True)
            task["runs"] = str(folder)
    return config
