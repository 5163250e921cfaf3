"""Shared fixtures: where the real campaigns and the official programs of ../shared live.

A test that reads ``../shared/data`` or ``../shared/tools`` takes the fixture ``shared_data``,
``shared_tools`` or ``robust03_folder`` (never the path itself), so that without them it is
skipped with the reason, and in CI (``CI=true``, where ``.ci/run`` has already refused to
start without them) it fails.

The suite runs in parallel (pytest-xdist, ``addopts`` in pyproject.toml), where a session
fixture runs once per worker process: what is costly to make and only read afterwards is made
once for the whole run with ``tests.made_once``. A test that takes tens of seconds is marked
``slow``: its file is handed to a worker first (``pytest_collection_modifyitems``), so that
the long ones run beside the many short ones instead of after them; ``-m "not slow"`` leaves
them out of a quick run while working."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.made_once import made_once

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
SHARED_TOOLS = ROOT.parent / "shared" / "tools"


def shared_folder(folder: Path) -> Path:
    """``folder`` of ``../shared``; its absence fails the run in CI and skips the test
    elsewhere."""
    if not folder.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{folder} is missing in CI")
        pytest.skip(f"{folder} is missing")
    return folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold a ``slow`` test first, each file's tests kept together and in their
    order: xdist's ``worksteal`` deals the tests out in this order and idle workers take from
    the end of a busy one's share, so the long tests start early and the short ones even out
    the end."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``: the real campaigns, read in place."""
    return shared_folder(SHARED_DATA)


@pytest.fixture(scope="session")
def shared_tools() -> Path:
    """``../shared/tools``: the official programs' sources (trec_eval, inex_eval)."""
    return shared_folder(SHARED_TOOLS)


@pytest.fixture(scope="session")
def robust03_folder(shared_data: Path) -> Path:
    """TREC 2003 Robust: ``robust03_qrels.txt`` and ``runs/`` (17 gzip runs)."""
    return shared_data / "robust03"


@pytest.fixture(scope="session")
def stamped_demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo site built once, with the golden site's SOURCE_DATE_EPOCH
    (``tests.site.test_build.build_demo``), for every test that checks it or compares another
    build of the demo with it. Tests only read it (copy it to change it)."""
    from tests.site.test_build import build_demo

    def build(folder: Path) -> None:
        assert build_demo(folder / "site") == 0

    return made_once(tmp_path_factory, "demo", build) / "site"
