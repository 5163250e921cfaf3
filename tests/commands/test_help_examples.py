"""Every example of ``appendix --help`` and of each command's ``--help`` works as printed.

The examples are run in the order the help texts give them (the top-level help's first, then
each command's, in the order of the commands), in one temporary folder, by ``sh`` as a user
types them (globs, redirections, ``cd``), with ``appendix`` being ``python -m builder``. Each
must exit 0, or the status its description gives (``exit status N``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from builder.cli import COMMANDS

EXAMPLES_HEADING = re.compile(r"^examples?\b")
EXAMPLE = re.compile(r"^  (appendix|cd) ")
EXIT_STATUS = re.compile(r"exit status (\d+)")


def help_text(*command: str) -> str:
    return subprocess.run([sys.executable, "-m", "builder", *command, "--help"], check=True,
                          capture_output=True, text=True).stdout


def examples(text: str) -> list[tuple[str, int]]:
    """The examples of a help text (the indented lines that start with ``appendix`` or ``cd``
    in a paragraph that begins ``example``), each with the exit status its description gives (0
    when it gives none). A description stands beside its command, after three spaces or more,
    or on the more indented lines below it."""
    found: list[tuple[str, str]] = []
    listing = False
    for line in text.splitlines():
        if EXAMPLES_HEADING.match(line):
            listing = True
        elif listing and EXAMPLE.match(line):
            command, *description = re.split(r"\s{3,}", line.strip(), maxsplit=1)
            found.append((command, " ".join(description)))
        elif listing and found and line.startswith("    "):
            found[-1] = (found[-1][0], f"{found[-1][1]} {line.strip()}")
        elif listing and not line.strip():
            listing = False
    return [(command, int(status.group(1)) if (status := EXIT_STATUS.search(description)) else 0)
            for command, description in found]


@pytest.mark.slow
def test_every_help_example_runs_as_printed(tmp_path: Path) -> None:
    shim = tmp_path / "bin" / "appendix"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m builder "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    folder = tmp_path / "work"
    folder.mkdir()
    top = examples(help_text())
    assert len(top) >= 6 and top[0][0].startswith("appendix demo"), top
    ran = []
    for command, status in top + [e for name in COMMANDS for e in examples(help_text(name))]:
        if command.startswith("cd "):
            folder = folder / command.removeprefix("cd ").strip()
            assert folder.is_dir(), f"{command}: no such folder"
            continue
        done = subprocess.run(["sh", "-c", command], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == status, f"{command}: exit {done.returncode}\n{done.stderr}"
        ran.append(command.split()[1])
    assert {"demo", "build", "evaluate", "compare", "validate"} <= set(ran), ran
