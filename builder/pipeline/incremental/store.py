"""The evaluation cache on disk: a folder beside the site (``.SITE-cache``), one file per run
evaluation (``TASK/KEY.pickle``), bounded to the entries the last build used.

The folder is marked with a ``CACHEDIR.TAG`` (the Cache Directory Tagging Specification,
which backup tools honour), and only files of ours are ever removed from it: entries named by
a key. An entry is written to a temporary name and renamed, so a build killed while writing
leaves no half entry; an entry that cannot be read is evaluated again. Entries are pickles: the
folder is the build's own, written by it alone, not a format for others.
"""

from __future__ import annotations

import os
import pickle
import re
import tempfile
from pathlib import Path
from typing import Any

TAG = "CACHEDIR.TAG"
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# The evaluations of appendix build's runs, kept for the next build.\n"
            "# Removing this folder only makes the next build evaluate every run again.\n")
ENTRY = re.compile(r"^[0-9a-f]{64}\.pickle$")


def cache_folder(output: Path) -> Path:
    """The cache of the site at ``output``: beside it, hidden, named after it."""
    return output.parent / f".{output.name}-cache"


class EvaluationStore:
    """Entries by task and key; ``prune`` keeps only those used since the store was opened."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: dict[str, set[str]] = {}
        self.hits = 0
        self.misses = 0

    def _path(self, task: str, key: str) -> Path:
        return self.folder / task / f"{key}.pickle"

    def get(self, task: str, key: str) -> Any | None:
        self.used.setdefault(task, set()).add(key)
        try:
            with open(self._path(task, key), "rb") as stream:
                value = pickle.load(stream)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, task: str, key: str, value: Any) -> None:
        self.used.setdefault(task, set()).add(key)
        folder = self.folder / task
        folder.mkdir(parents=True, exist_ok=True)
        tag = self.folder / TAG
        if not tag.exists():
            tag.write_text(TAG_TEXT, encoding="utf-8")
        handle, temporary = tempfile.mkstemp(prefix=".entry-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self._path(task, key))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def prune(self) -> int:
        """Remove the entries not used since the store was opened (runs gone or changed, tasks
        no longer in the config), and a killed build's temporary files; return how many."""
        if not (self.folder / TAG).is_file():
            return 0  # not a cache of ours: nothing in it is touched
        removed = 0
        for folder in self.folder.iterdir():
            if not folder.is_dir() or folder.is_symlink():
                continue
            kept = self.used.get(folder.name, set())
            for entry in folder.iterdir():
                ours = ENTRY.match(entry.name) or entry.name.startswith(".entry-")
                if ours and entry.is_file() and entry.name[:64] not in kept:
                    entry.unlink()
                    removed += 1
            if not any(folder.iterdir()):
                folder.rmdir()
        return removed
