"""Run names: what a leaderboard calls each submitted run, the same rule for every task kind."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from builder.findings import Finding


def name_runs(
    paths: Sequence[Path | str], tables: Sequence[pd.DataFrame | None]
) -> list[tuple[str, list[Finding]]]:
    """Each run's name and naming findings, in file order.

    The name is the run tag (column ``tag``: TREC column 6, the FOL run id) when the file has
    exactly one, else the file name. A name an earlier file took is an error on the later one.
    """
    named: list[tuple[str, list[Finding]]] = []
    owner: dict[str, str] = {}
    for path, table in zip(paths, tables):
        tags = table["tag"].unique() if table is not None and len(table) else []
        name = str(tags[0]) if len(tags) == 1 else Path(path).name
        if name in owner:
            message = f"run name {name} already used by {Path(owner[name]).name}"
            named.append((name, [Finding(str(path), None, "error", message)]))
        else:
            owner[name] = str(path)
            named.append((name, []))
    return named
