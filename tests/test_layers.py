"""The stages import downward only: measures and statistics know nothing of task kinds,
commands, the pipeline or the site, and the site knows nothing of task kinds or commands."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

FORBIDDEN = {
    "builder/measures": ("builder.tasks", "builder.pipeline", "builder.analysis", "builder.site",
                         "builder.commands", "builder.build"),
    "builder/stats": ("builder.tasks", "builder.pipeline", "builder.analysis", "builder.site",
                      "builder.commands", "builder.build"),
    "builder/site": ("builder.tasks", "builder.commands", "builder.build"),
}


def imported(path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_runs_back_up(package: str) -> None:
    upward = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in imported(path)
        if name.startswith(FORBIDDEN[package])
    }
    assert not upward
