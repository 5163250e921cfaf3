"""Fixtures of the scale tests: robust03's one-shot evaluation, computed once for the run."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from builder.cli import main
from tests.made_once import made_once
from tests.scale.test_batched import robust03_args


@pytest.fixture(scope="session")
def robust03_one_shot(robust03_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``appendix evaluate -q -c --format tsv`` of robust03's 17 runs without a budget: what
    every batched or distributed evaluation of them must print (made once, ``made_once``)."""

    def evaluate(folder: Path) -> None:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["evaluate", "-q", "-c", "--format", "tsv",
                         *robust03_args(robust03_folder)]) == 0
        (folder / "scores.tsv").write_bytes(out.getvalue().encode())  # as printed, byte for byte

    folder = made_once(tmp_path_factory, "robust03-one-shot", evaluate)
    return (folder / "scores.tsv").read_bytes().decode()
