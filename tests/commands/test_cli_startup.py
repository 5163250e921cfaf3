"""The command line starts fast: a run of one command builds only that command's arguments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from builder.cli import COMMANDS, build_parser

ADHOC = Path(__file__).resolve().parents[2] / "data" / "adhoc"
BEYOND_EVALUATION = ("plotly", "jinja2", "scipy", "lxml")
"""Libraries of the site (figures, templates), of the statistics and of XML corpora."""


def test_one_command_imports_neither_pandas_nor_the_measure_families():
    code = ("import sys; from builder.cli import build_parser; build_parser('evaluate'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'numpy') "
            "or m.startswith('builder.measures')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_top_level_help_imports_no_command():
    code = ("import sys; from builder.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('builder.cli.commands.') "
            "or m.split('.')[0] in ('pandas', 'pydantic')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]" and "COMMAND" in done.stdout


def test_every_command_is_listed_and_each_parses_its_own_arguments():
    help_text = build_parser("evaluate").format_help()
    assert all(name in help_text for name in COMMANDS)
    args = build_parser("evaluate").parse_args(["evaluate", "-q", "-m", "P.5", "q", "r"])
    assert (args.command, str(args.qrels), [str(r) for r in args.runs]) == ("evaluate", "q", ["r"])
    assert build_parser().parse_args(["demo", "folder"]).command == "demo"


def test_version_is_looked_up_only_when_asked_for():
    code = ("import sys; from builder.cli import build_parser; build_parser('evaluate'); "
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    shown = subprocess.run([sys.executable, "-m", "builder", "--version"],
                           capture_output=True, text=True, check=True)
    import builder

    assert shown.stdout == f"appendix {builder.__version__}\n" and builder.__version__ != "0.0.0"


@pytest.mark.parametrize("options", [[], ["-q", "-c", "-m", "all_trec", "--format", "json"]])
def test_evaluating_trec_runs_imports_nothing_beyond_evaluation(options):
    """``appendix evaluate`` on TREC files runs to the end without importing the site's, the
    statistics' or the XML corpora's libraries (each costs start-up time: about 0.3 s for lxml
    and 1 to 3 s for scipy.stats on a busy 2-core machine)."""
    runs = [str(ADHOC / "runs" / name) for name in ("irisManual.txt", "irisQL.txt")]
    code = ("import sys; from builder.cli import main; status = main(sys.argv[1:]); "
            f"print(status, sorted({{m.split('.')[0] for m in sys.modules}} & {set(BEYOND_EVALUATION)}),"
            " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "evaluate", *options,
                           str(ADHOC / "qrels.txt"), *runs],
                          capture_output=True, text=True, check=True)
    assert "irisManual" in done.stdout and "irisQL" in done.stdout  # the scores were printed
    assert done.stderr.splitlines()[-1] == "0 []"


INEX = ADHOC.parent / "inex"


@pytest.mark.parametrize(("task", "folder"), [("focused", "focused"), ("thorough", "focused"),
                                              ("relevant-in-context", "relevant-in-context")])
def test_evaluating_fol_runs_imports_nothing_beyond_evaluation(task, folder):
    """The same for INEX FOL runs: lxml is read for element runs only (their XML corpus), so
    a FOL run's evaluation goes without it."""
    runs = sorted((INEX / folder).glob("*.txt"))[:2]
    code = ("import sys; from builder.cli import main; status = main(sys.argv[1:]); "
            f"print(status, sorted({{m.split('.')[0] for m in sys.modules}} & {set(BEYOND_EVALUATION)}),"
            " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "evaluate", "--task", task, "--quiet",
                           str(INEX / "qrels.txt"), *map(str, runs)],
                          capture_output=True, text=True, check=True)
    assert all(run.stem in done.stdout for run in runs)  # the scores of both were printed
    assert done.stderr.splitlines()[-1] == "0 []"
