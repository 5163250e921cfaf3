"""Fixtures of the oracle tests: trec_eval built from ../shared/tools once for the whole run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.made_once import made_once
from tests.oracle.official import build_trec_eval


@pytest.fixture(scope="session")
def trec_eval_binary(shared_tools: Path,
                     tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``trec_eval_binary(version)``: trec_eval ``version`` (``10.0`` or ``9.0.8``) compiled in
    a temporary folder, once for the whole run (``made_once``); a missing source, ``make`` or
    C compiler fails the test."""

    def binary(version: str) -> Path:
        try:
            folder = made_once(tmp_path_factory, f"trec_eval-{version}",
                               lambda folder: build_trec_eval(version, folder).parent)
        except FileNotFoundError as missing:
            pytest.fail(str(missing))
        return folder / f"trec_eval-{version}" / "trec_eval"

    return binary
