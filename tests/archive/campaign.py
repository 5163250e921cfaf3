"""A small ad hoc campaign written inline (three topics, three runs), for the tests of
archiving, verifying and rebuilding: the smallest input that has score tables, a
leaderboard, run pages and downloads."""

from __future__ import annotations

import os
from pathlib import Path

from builder.cli import main

QRELS = "".join(f"{topic} 0 d{doc} {int(doc % topic == 0)}\n"
                for topic in (1, 2, 3) for doc in range(1, 9))
EPOCH = "1700000000"
ROOT_DIR = Path(__file__).resolve().parents[2]
"""The repository's root, where ``python -m builder`` finds the package."""


def run_text(name: str, order: list[int]) -> str:
    """A run retrieving documents ``order`` for every topic, best first."""
    return "".join(f"{topic} Q0 d{doc} {rank} {10 - rank} {name}\n"
                   for topic in (1, 2, 3) for rank, doc in enumerate(order, start=1))


RUNS = {"alpha": [1, 2, 3, 4, 5, 6], "beta": [6, 5, 4, 3, 2, 1], "gamma": [2, 4, 6, 8, 1, 3]}


def write_campaign(folder: Path, publish_inputs: bool = True,
                   runs: dict[str, list[int]] = RUNS) -> Path:
    """The campaign's files under ``folder``; the config's path."""
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    (folder / "qrels.txt").write_text(QRELS)
    for name, order in runs.items():
        (folder / "runs" / f"{name}.txt").write_text(run_text(name, order))
    (folder / "runs.csv").write_text("run,team,description\n" + "".join(
        f"{name},team-{name[0]},the {name} run\n" for name in runs))
    config = folder / "site_config.yml"
    config.write_text(
        "campaign: {title: Small campaign, year: 2024}\n"
        f"publish_inputs: {'true' if publish_inputs else 'false'}\n"
        "significance: {B: 200}\n"
        "tasks:\n"
        "  - {id: adhoc, title: Ad hoc, kind: adhoc, qrels: qrels.txt, runs: runs/,\n"
        "     run_metadata: runs.csv, official_measure: map, measures: [map, P_5]}\n")
    return config


def appendix(*args: str) -> int:
    """``appendix ARGS`` in this process, with the fixed build date of reproducible builds."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        return main([*args])
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous
