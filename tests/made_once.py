"""What is costly to make and only read afterwards (the demo site, the TREC-COVID site, trec_eval
built from ../shared/tools), made once for a whole test run, also when the run is split over
pytest-xdist's worker processes, where each worker has its own session fixtures."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str,
              make: Callable[[Path], None]) -> Path:
    """The folder ``name`` filled by ``make(folder)`` once for the whole test run.

    Without xdist it is a fresh temporary folder. Under xdist every worker's base temporary
    folder (``.../pytest-N/popen-gwK``) has the same parent, made for this run alone: the
    first worker to get the lock there makes the folder and marks it complete, the others wait
    on the lock and take it as it is. A make that failed leaves no mark, so the next worker
    tries again (and fails with the same error rather than reading half a folder)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    folder = tmp_path_factory.getbasetemp().parent / name
    done = folder.with_name(f"{name}.done")
    with FileLock(folder.with_name(f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder
