"""What ``appendix build`` shows while it runs (``builder.cli.console``): a bar on a terminal,
plain lines through a pipe, colour only on a terminal without ``NO_COLOR``, ``-q`` and ``-v``,
and the same records for a caller who routes the ``builder`` loggers himself; every command's
``--help`` gives its exit statuses."""

from __future__ import annotations

import logging
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from builder.building import STAGES
from builder.cli import COMMANDS, main

RUNS = 30
QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n"


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    """A one-task campaign of ``RUNS`` tiny runs, one with a bad line (rejected)."""
    folder = tmp_path_factory.mktemp("campaign")
    (folder / "runs").mkdir()
    (folder / "q.txt").write_text(QRELS)
    for k in range(RUNS):
        (folder / "runs" / f"r{k:02}.txt").write_text(
            f"1 Q0 d1 1 {k + 2}.0 r{k:02}\n1 Q0 d2 2 1.0 r{k:02}\n2 Q0 d1 1 1.0 r{k:02}\n")
    (folder / "runs" / "r00.txt").write_text("1 Q0 d1\n")
    path = folder / "site_config.yml"
    path.write_text("campaign: {title: T}\ntasks:\n"
                    "  - {id: t, title: T, kind: adhoc, qrels: q.txt, runs: runs/}\n")
    return path


def run_under_terminal(argv: list[str], env: dict[str, str]) -> bytes:
    """What ``argv`` writes to a pseudo-terminal (its standard output and error both)."""
    main_end, child_end = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "builder", *argv], stdin=child_end,
                               stdout=child_end, stderr=child_end, env=env)
    os.close(child_end)
    written = b""
    while True:
        try:
            chunk = os.read(main_end, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        written += chunk
    os.close(main_end)
    assert process.wait(timeout=300) == 0, written.decode()
    return written


def terminal_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    return {**env, "TERM": "xterm", "SOURCE_DATE_EPOCH": "0", **extra}


def build_argv(config: Path, out: Path, *extra: str) -> list[str]:
    return ["build", "--config", str(config), "--out", str(out), *extra]


def test_a_terminal_shows_a_bar_redrawn_in_place_and_colour(config, tmp_path):
    written = run_under_terminal(build_argv(config, tmp_path / "site"), terminal_env())
    text = written.decode()
    bar = re.findall(r"\r +read +\[[█ ]+\] (\d+)/(\d+) run files", text)
    assert bar and all(int(total) == RUNS for _, total in bar)
    assert "\x1b[1m[2/7]\x1b[0m read" in text  # the stage numbers in bold
    # the bar is wiped before the stage's line: no stage line starts after a bar's text (the
    # lines the build says of the task, "t: ...", follow a stage's line: its runs r01-r29
    # rank the same documents, a duplicate group)
    assert all(line.startswith(("\x1b", "built", "\r", " ", "t: ")) or not line
               for line in text.split("\n"))


def test_no_color_means_no_escape_sequence_even_on_a_terminal(config, tmp_path):
    written = run_under_terminal(build_argv(config, tmp_path / "site"),
                                 terminal_env(NO_COLOR="1"))
    assert b"\x1b" not in written
    assert b"\r      read" in written  # the bar still, drawn with carriage returns only


def test_a_pipe_gets_plain_lines_a_tenth_at_a_time(config, tmp_path):
    done = subprocess.run([sys.executable, "-m", "builder", *build_argv(
        config, tmp_path / "site", "-v")], capture_output=True, text=True, check=True,
        env={**os.environ, "TERM": "xterm", "SOURCE_DATE_EPOCH": "0"}, timeout=300)
    err = done.stderr
    assert "\r" not in err and "\x1b" not in err
    stage_lines = re.findall(r"^\[(\d)/7\] (\w+)", err, re.MULTILINE)
    assert stage_lines == [(str(k + 1), name) for k, name in enumerate(STAGES)]
    read = re.findall(r"^ +read +(\d+)/(\d+) run files \((\d+)%\)$", err, re.MULTILINE)
    assert read[-1] == (str(RUNS), str(RUNS), "100")
    # one line per tenth crossed, not one per file
    assert len(read) <= 11 < RUNS
    assert [int(p) // 10 for _, _, p in read] == sorted({int(p) // 10 for _, _, p in read})
    assert re.search(r"^ +read +task t: 30 run files read", err, re.MULTILINE)  # -v's detail


def cli(capsys, *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_quiet_prints_nothing_but_errors(config, tmp_path, capsys):
    code, err = cli(capsys, *build_argv(config, tmp_path / "site", "-q"))
    assert (code, err) == (0, "")
    bad = tmp_path / "bad.yml"
    bad.write_text("campaign: {title: T}\ntasks: []\nnonsense: 1\n")
    code, err = cli(capsys, "build", "--config", bad, "-q")
    assert code == 2 and err.startswith("appendix build: invalid config") and "[1/7]" not in err


def test_verbose_prints_more_than_the_default(config, tmp_path, capsys):
    _, default = cli(capsys, *build_argv(config, tmp_path / "site"))
    _, verbose = cli(capsys, *build_argv(config, tmp_path / "site", "--verbose"))
    assert "[7/7] publish" in default and "built " in default
    # the rejected run named (by its file: no tag was read)
    assert re.search(r"29 accepted, 1 rejected: r00\s", default)
    # Every line of the default output is in the verbose one, in the same order. A progress
    # line ("      render    13/240 pages (5%)") is the exception: without --verbose it is
    # written only once its stage has run PLAIN_AFTER seconds, at the count reached by then,
    # which depends on the machine's load; --verbose writes every tenth from the start. So a
    # progress line of the default output is matched by its stage's progress in the verbose.
    def progress(line: str) -> str | None:
        found = re.match(r" {6}(\S+) +\d+(/\d+)? ", line)
        return found.group(1) if found else None

    kept = [line[:20] for line in default.splitlines() if progress(line) is None]
    assert kept == [line[:20] for line in verbose.splitlines()
                    if progress(line) is None and line[:20] in kept]
    assert ({progress(line) for line in default.splitlines()}
            <= {progress(line) for line in verbose.splitlines()})
    assert len(verbose.splitlines()) > len(default.splitlines())
    assert "task t: 29 runs evaluated" in verbose and "task t:" not in default


def test_a_callers_logging_handler_gets_the_stages_records(config, tmp_path):
    """The API prints nothing of its own; a handler on the ``builder`` logger gets every
    stage's line and the progress of reading as (done, total, unit)."""
    import builder

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("builder")
    handler, level = Keep(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        builder.build(config, tmp_path / "site")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert [r.stage for r in records if hasattr(r, "stage")] == list(STAGES)
    assert {r.name for r in records if hasattr(r, "stage")} == {f"builder.{s}" for s in STAGES}
    read = [r.progress for r in records if r.name == "builder.read" and hasattr(r, "progress")]
    assert read[-1] == (RUNS, RUNS, "run files") and len(read) <= 2 * 11
    assert any("29 accepted, 1 rejected" in r.getMessage() for r in records)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_documents_its_exit_statuses_and_verbosity(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = capsys.readouterr().out
    statuses = help_text.split("exit status:\n", 1)[1]
    assert re.match(r"  0 ", statuses)
    if command == "evaluate":  # -q is trec_eval's per-topic flag
        assert "--quiet" in help_text and "--verbose" in help_text
        assert re.search(r"^  -q +print per-topic", help_text, re.MULTILINE)
    else:
        assert "-q, --quiet" in help_text and "-v, --verbose" in help_text
