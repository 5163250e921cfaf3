"""What ``appendix serve`` watches, and whether it changed: a snapshot of each watched file's
modification time and size, taken twice a second.

Watched: the config; every file directly in the config's folder and in each folder a task
names (its run folder, the folders of its qrels, topics and run metadata), so that a run added
or removed is seen; every file under the templates. Not an XML corpus (it may hold hundreds of
thousands of articles): restart the server after changing one.

Hand-written polling rather than a watching library (watchfiles, watchdog): the files to watch
are known from the config and few (hundreds), a stat of each costs well under a millisecond
of the half second between two looks, and polling sees the same on every file system
(network and container mounts included, where inotify is silent).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from builder.config.schema import SiteSpec

Snapshot = dict[str, tuple[int, int]]


def watched_folders(config: Path, site: SiteSpec | None, templates: Path) -> list[Path]:
    """The folders whose files are watched (not recursively, the templates' recursively)."""
    folders = [config.resolve().parent]
    if site is not None:
        corpora = {Path(c).resolve() for task in site.tasks
                   if (c := getattr(task.options, "corpus", None)) is not None}
        folders += [folder for task in site.tasks for folder in task.folders
                    if folder.resolve() not in corpora]
    return [*dict.fromkeys(folders), templates]


def snapshot(config: Path, folders: list[Path], templates: Path) -> Snapshot:
    """Every watched file's modification time and size, by path."""
    seen: Snapshot = {}
    _record(seen, config)
    for folder in folders:
        if folder == templates:
            for path in sorted(templates.rglob("*")):
                _record(seen, path)
            continue
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            _record(seen, Path(entry.path))
    return seen


def _record(seen: Snapshot, path: Path) -> None:
    try:
        status = path.stat()
    except OSError:
        return
    if not stat.S_ISDIR(status.st_mode):  # one system call per file and poll
        seen[str(path)] = (status.st_mtime_ns, status.st_size)


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or changed between two snapshots, sorted."""
    return sorted(path for path in before.keys() | after.keys()
                  if before.get(path) != after.get(path))
