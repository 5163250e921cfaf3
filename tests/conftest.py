"""Shared fixtures: where the real campaigns of ../shared/data live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; its absence fails the run in CI and skips the test elsewhere."""
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SHARED_DATA} is missing in CI")
        pytest.skip(f"{SHARED_DATA} is missing")
    return SHARED_DATA


@pytest.fixture(scope="session")
def stamped_demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo site built once, with the golden hashes' SOURCE_DATE_EPOCH
    (``tests.site.test_build.build_demo``), for every test that checks it or compares another
    build of the demo with it. Tests only read it (copy it to change it)."""
    from tests.site.test_build import build_demo

    out = tmp_path_factory.mktemp("demo") / "site"
    assert build_demo(out) == 0
    return out
