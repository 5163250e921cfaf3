"""Run names: what a leaderboard calls each submitted run, the same rule for every task kind."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.findings import Finding, FindingCode

if TYPE_CHECKING:  # the command line builds its flags from the options without pandas
    import pandas as pd

RunNames = Literal["tag", "file"]


class RunNamingOptions(BaseModel):
    """The option every task kind has: what names its runs (task ``options: {run_names:
    file}`` in ``site_config.yml``, ``-o run_names=file`` on the command line)."""

    # Validators made on first use, not when the command line reads every kind's options for
    # its flags (builder.tasks.options): 0.5 ms a model instead of 30.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    run_names: RunNames = Field(
        "tag", description="Name each run by its run tag (tag) or by its file name (file), "
        "for runs that share a tag.")


def name_runs(
    paths: Sequence[Path | str], tables: Sequence[pd.DataFrame | None], by: RunNames = "tag"
) -> list[tuple[str, list[Finding]]]:
    """Each run's name and naming findings, in file order.

    By ``tag`` (the default), the name is the run tag (column ``tag``: TREC column 6, the FOL
    run id) when the file has exactly one, else the file name; by ``file``, always the file
    name. A name an earlier file took is an error on the later one.
    """
    named: list[tuple[str, list[Finding]]] = []
    owner: dict[str, str] = {}
    for path, table in zip(paths, tables):
        tags = table["tag"].unique() if by == "tag" and table is not None and len(table) else []
        name = run_name(path, tags, by)
        if name in owner:
            named.append((name, [name_taken(path, name, owner[name], by)]))
        else:
            owner[name] = str(path)
            named.append((name, []))
    return named


def run_name(path: Path | str, tags: Sequence[str], by: RunNames = "tag") -> str:
    """A run's name by ``name_runs``' rule, from the distinct ``tags`` of its file."""
    return str(tags[0]) if by == "tag" and len(tags) == 1 else Path(path).name


def name_taken(path: Path | str, name: str, owner: Path | str, by: RunNames = "tag") -> Finding:
    """The error on a run file whose name ``name`` the earlier file ``owner`` took."""
    message = (f"run name {name} already used by {Path(owner).name}"
               + (" (task option run_names: file names runs by file name)" if by == "tag" else ""))
    return Finding(str(path), None, "error", FindingCode.NAMING, message)
