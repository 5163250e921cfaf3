"""What the API is given as qrels and runs, made into the files the pipeline reads.

A path is read where it is. A table or a dict (``builder.formats.trec.frames``) is written as
TREC text into a temporary folder, and the findings about that file are said of the table
(``Sources.findings``): the read and validate stages then read and check it as they read and
check a file given to ``appendix evaluate``, and give it the same numbers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.findings import Finding, InputError

RunsLike = Any
"""A path, a DataFrame (one run, or several under a ``run`` column), pytrec_eval's dict of
dicts, a mapping from run name to any of those, or a sequence of them."""


@dataclass
class Sources:
    """The files written into ``folder`` for the tables given, and their labels."""

    folder: Path
    labels: dict[str, str] = field(default_factory=dict)
    """Written file -> the label findings give it."""

    def qrels(self, qrels: Any) -> Path:
        from builder.formats.trec.frames import dict_table, is_dict_of_dicts, write_qrels

        if isinstance(qrels, (str, os.PathLike)):
            return Path(qrels)
        if is_dict_of_dicts(qrels):
            qrels = dict_table(qrels, "rel")
        if not _is_table(qrels):
            raise TypeError("qrels: expected a path, a DataFrame or a dict {topic: {doc: rel}}, "
                            f"not {type(qrels).__name__}")
        path = self.folder / "qrels"
        self.labels[str(path)] = "qrels (table)"
        write_qrels(qrels, path, "qrels (table)")
        return path

    def runs(self, runs: RunsLike) -> list[Path]:
        """The run files of ``runs``, a table's runs each written under its name."""
        from builder.formats.trec.frames import is_dict_of_dicts

        if isinstance(runs, (str, os.PathLike)) or _is_table(runs) or is_dict_of_dicts(runs):
            return self._run(runs, None)
        if isinstance(runs, Mapping):
            return [path for name, run in runs.items() for path in self._run(run, str(name))]
        if isinstance(runs, Sequence):
            many = len(runs) > 1
            return [path for number, run in enumerate(runs, 1)
                    for path in self._run(run, f"run{number}" if many else None)]
        raise TypeError("runs: expected a path, a DataFrame, a dict {topic: {doc: score}}, or a "
                        f"mapping or list of them, not {type(runs).__name__}")

    def _run(self, run: Any, name: str | None) -> list[Path]:
        from builder.formats.trec.frames import (
            dict_table,
            is_dict_of_dicts,
            runs_of_table,
            write_run,
        )

        if isinstance(run, (str, os.PathLike)):
            return [Path(run)]
        if is_dict_of_dicts(run):
            run = dict_table(run, "score")
        if not _is_table(run):
            raise TypeError(f"run {name or ''}: expected a path, a DataFrame or a dict "
                            f"{{topic: {{doc: score}}}}, not {type(run).__name__}")
        paths = []
        for run_name, table in runs_of_table(run, "run", name or "run").items():
            path = self.folder / f"run{len(self.labels)}"
            label = f"run {run_name!r} (table)"
            self.labels[str(path)] = label
            write_run(table, run_name, path, label)
            paths.append(path)
        return paths

    def findings(self, findings: Iterable[Finding]) -> list[Finding]:
        """``findings`` said of the tables given rather than of the files written."""
        from builder.formats.trec.frames import Source

        return [Source(Path(f.file), self.labels[f.file]).finding(f)
                if f.file in self.labels else f for f in findings]

    def error(self, error: InputError) -> InputError:
        return InputError(self.findings(error.findings))


def _is_table(value: Any) -> bool:
    import pandas as pd

    return isinstance(value, pd.DataFrame)
