"""``appendix build --team TEAM``: a bundle for one team before the results are public.

The team's runs appear in full; every other run keeps its rank and its scores under a name
that says nothing (``other-017``: its rank on the official measure), without its team, type,
description, file name, findings or run tag. Rejected runs of other teams are left out. This
is done once, on the evaluated tables between the evaluate and analyse stages, so every page,
figure, download and data file of the bundle is made from the anonymised tables alone.

A run belongs to a team by the ``team`` column of the task's run metadata.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from builder.config.schema import SiteSpec, TaskSpec
from builder.contract import SUMMARY_TOPIC, Evaluation, LazyTables, RunRead
from builder.pipeline.model import TaskInputs, TaskResult

PSEUDONYM = "other-{rank:03d}"


class TeamError(ValueError):
    """The team is unknown: no task's run metadata names it."""


def team_runs(inputs: TaskInputs, team: str) -> set[str]:
    """The runs of ``team`` in the task, by its run metadata's ``team`` column."""
    metadata = inputs.metadata
    if metadata.empty or "team" not in metadata.columns:
        return set()
    return set(metadata.loc[metadata["team"].astype(str) == team, "run"].astype(str))


def known_teams(inputs: list[TaskInputs]) -> list[str]:
    teams: set[str] = set()
    for task in inputs:
        if "team" in task.metadata.columns:
            teams |= set(task.metadata["team"].dropna().astype(str))
    return sorted(t for t in teams if t)


def check_team(inputs: list[TaskInputs], team: str) -> None:
    """Raise ``TeamError`` unless some task has a run of ``team``."""
    if not any(team_runs(task, team) & {read.name for read in task.reads} for task in inputs):
        teams = known_teams(inputs)
        known = f"; teams in the run metadata: {', '.join(teams)}" if teams else (
            "; no task has run metadata with a team column")
        raise TeamError(f"no run of team {team!r}{known}")


def pseudonyms(result: TaskResult, own: set[str]) -> dict[str, str]:
    """Each other accepted run -> ``other-NNN``, NNN its rank on the official measure among
    all the task's runs (ties broken by name, as on the leaderboard)."""
    from builder.measures.registry import measures_of

    spec = result.inputs.spec
    accepted = [read.name for read in result.inputs.accepted]
    if result.evaluation is None:
        return {}
    scores = result.evaluation.scores
    official = scores[(scores["topic"].astype(str) == SUMMARY_TOPIC)
                      & (scores["measure"] == spec.official_measure)]
    value = dict(zip(official["run"].astype(str), official["value"].astype(float)))
    lower_is_better = {m.name for m in measures_of(spec.kind.family) if not m.higher_is_better}
    sign = 1.0 if spec.official_measure in lower_is_better else -1.0
    ranked = sorted(accepted, key=lambda run: (sign * value.get(run, float("-inf") * sign), run))
    names = {}
    for rank, run in enumerate(ranked, start=1):
        if run not in own:
            name = PSEUDONYM.format(rank=rank)
            while name in own:  # an own run could be called other-003
                name += "_"
            names[run] = name
    return names


def _renamed(table: pd.DataFrame, names: Mapping[str, str]) -> pd.DataFrame:
    """The table with run names replaced, in a ``run`` column and in an index of runs."""
    table = table.copy()
    if "run" in table.columns:
        column = table["run"]
        if isinstance(column.dtype, pd.CategoricalDtype):
            table["run"] = column.cat.rename_categories(lambda c: names.get(str(c), c))
        else:
            table["run"] = column.astype(str).map(lambda r: names.get(r, r))
    index = table.index
    if index.name in (None, "run") and (index.dtype == object
                                        or pd.api.types.is_string_dtype(index.dtype)):
        table = table.rename(index=lambda r: names.get(r, r) if isinstance(r, str) else r)
    return table


def _evaluation(evaluation: Evaluation, names: Mapping[str, str]) -> Evaluation:
    extras = evaluation.extras
    renamed = LazyTables({key: (lambda key=key: _renamed(extras[key], names)) for key in extras})
    return Evaluation(_renamed(evaluation.scores, names), renamed)


def anonymise(result: TaskResult, team: str) -> TaskResult:
    """The task as ``team`` may see it (see the module's docstring)."""
    inputs = result.inputs
    own = team_runs(inputs, team)
    names = pseudonyms(result, own)
    reads = []
    for read in inputs.reads:
        if read.name in own:
            reads.append(read)
        elif read.name in names and not read.rejected:
            table = None if read.table is None else _renamed(read.table, names)
            # its folder stays (the site names it as it names the team's own files)
            path = str(Path(read.path).parent / f"{names[read.name]} (file name withheld)")
            reads.append(RunRead(path=path, name=names[read.name], table=table))
    metadata = inputs.metadata[inputs.metadata["run"].astype(str).isin(own)].reset_index(drop=True)
    spec = team_spec(inputs.spec, own, {read.name: Path(read.path) for read in inputs.reads})
    anonymous = dataclasses.replace(inputs, spec=spec, reads=reads, metadata=metadata,
                                    findings=[])
    evaluation = None if result.evaluation is None else _evaluation(result.evaluation, names)
    return dataclasses.replace(result, inputs=anonymous, evaluation=evaluation)


def team_spec(spec: TaskSpec, own: set[str], files: Mapping[str, Path]) -> TaskSpec:
    """The task's spec naming only the team's run files and no run metadata file (the manifest
    and the published inputs list what the spec names)."""
    own_files = {files[name].resolve() for name in own if name in files}
    return dataclasses.replace(
        spec, run_files=tuple(p for p in spec.run_files if Path(p).resolve() in own_files),
        run_metadata=None)


def team_site(site: SiteSpec, results: list[TaskResult], team: str) -> SiteSpec:
    """The site's spec for the bundle: the anonymised tasks, and a title that says for whom."""
    campaign = site.campaign.model_copy(update={
        "title": f"{site.campaign.title}: results for team {team}",
        "description": (f"Prepared for team {team} before the public release: the other "
                        f"teams' runs are shown by rank only. {site.campaign.description}"
                        ).strip()})
    return dataclasses.replace(site, campaign=campaign,
                               tasks=tuple(r.inputs.spec for r in results))
