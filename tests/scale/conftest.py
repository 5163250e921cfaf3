"""Fixtures of the scale tests: robust03's one-shot evaluation, computed once."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from builder.cli import main
from tests.scale.test_batched import robust03_args


@pytest.fixture(scope="session")
def robust03_one_shot(robust03_folder: Path) -> str:
    """``appendix evaluate -q -c --format tsv`` of robust03's 17 runs without a budget: what
    every batched or distributed evaluation of them must print."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["evaluate", "-q", "-c", "--format", "tsv", *robust03_args(robust03_folder)]) == 0
    return out.getvalue()
