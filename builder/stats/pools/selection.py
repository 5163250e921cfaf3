"""Which runs feed the pool: all of them, those the run metadata marks, or at most N per team.

TREC asks each team to rank its runs by judging priority and pools the first few of each team
(TREC-COVID's submission form: a priority per run, the first of each team pooled in round 1).
The metadata columns read: ``pooled`` (yes/no: the organiser's own choice; also under
TREC-COVID's leaderboard name ``contributed judgments``), ``priority`` (1 is judged first),
``team``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

POOLED_VALUES = frozenset({"yes", "y", "true", "1", "pooled"})
"""Values of a run metadata ``pooled`` column that mark a run as pooled."""
POOLED_COLUMNS = ("pooled", "contributed judgments", "contributed_judgments")
"""The names of that column, first found first read."""


def marks_runs(metadata: pd.DataFrame) -> bool:
    """Whether the metadata says which runs were pooled (a pooled or priority column)."""
    return any(c in metadata.columns for c in (*POOLED_COLUMNS, "priority"))


def marked_runs(metadata: pd.DataFrame) -> set[str]:
    """The runs the metadata marks: its ``pooled`` column, else any run with a ``priority``."""
    column = next((c for c in POOLED_COLUMNS if c in metadata.columns), None)
    if column is not None:
        flags = metadata[column].astype(str).str.strip().str.lower().isin(POOLED_VALUES)
        return set(metadata.loc[flags, "run"].astype(str))
    if "priority" in metadata.columns:
        given = metadata["priority"].astype(str).str.strip() != ""
        return set(metadata.loc[given & metadata["priority"].notna(), "run"].astype(str))
    return set(metadata["run"].astype(str))


def named_in(column: pd.Series, names: Collection[str]) -> np.ndarray:
    """``column.astype(str).isin(names)`` as a boolean array, decided once per category of a
    categorical column (a run table's ``run`` and ``topic``: a few hundred names over millions
    of rows) instead of once per row; a missing value is in no set of names."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        known = np.asarray(column.cat.categories.astype(str).isin(list(names)), bool)
        return np.append(known, False)[column.cat.codes.to_numpy()]  # code -1: missing
    return np.asarray(column.astype(str).isin(list(names)), bool)


def teams_of(metadata: pd.DataFrame | None) -> dict[str, str]:
    """run -> team, for the runs the metadata gives a team; a missing or blank team is none,
    and a run without one is its own team. The one reading of the metadata's teams: the
    pool's runs per team, the reliability study's best runs per team and its pool bias."""
    if metadata is None or "team" not in metadata.columns:
        return {}
    teams = dict(zip(metadata["run"].astype(str), metadata["team"].fillna("").astype(str)))
    return {run: team for run, team in teams.items() if team.strip()}


def first_per_team(metadata: pd.DataFrame, per_team: int) -> set[str]:
    """At most ``per_team`` runs of each team of the metadata, by priority (lowest first; runs
    without a priority after, in the metadata's order)."""
    runs = metadata["run"].astype(str).to_numpy(object)
    teams = teams_of(metadata)
    team = np.array([teams.get(run, run) for run in runs], dtype=object)
    priority = pd.to_numeric(metadata.get("priority", pd.Series(np.nan, index=metadata.index)),
                             errors="coerce").fillna(np.inf).to_numpy(np.float64)
    frame = pd.DataFrame({"run": runs, "team": team, "priority": priority,
                          "position": np.arange(len(runs))})
    frame = frame.sort_values(["team", "priority", "position"], kind="mergesort")
    return set(frame.loc[frame.groupby("team").cumcount().to_numpy() < per_team, "run"])


def is_pooled(runs: Sequence[str], metadata: pd.DataFrame | None, *, marked: bool,
              per_team: int | None) -> dict[str, bool]:
    """Per run: whether it feeds the pool. ``marked``: only the runs the metadata marks;
    ``per_team``: at most that many of each team by priority. A run the metadata does not list
    is its own team, and is pooled unless only marked runs are."""
    if metadata is None or not len(metadata):
        return {run: not marked for run in runs}
    listed = set(metadata["run"].astype(str))
    chosen = marked_runs(metadata) if marked else set(listed)
    if per_team is not None:
        chosen &= first_per_team(metadata[metadata["run"].astype(str).isin(chosen)], per_team)
    return {run: run in chosen if run in listed else (not marked and per_team != 0)
            for run in runs}
