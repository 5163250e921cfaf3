"""The package as a library: importing it changes nothing of the process, and ``python -m
builder`` is the command line."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_importing_builder_changes_no_environment_variable() -> None:
    done = _python("import os; before = dict(os.environ); import builder; "
                   "print(sorted(set(os.environ.items()) ^ set(before.items())))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_importing_builder_imports_nothing_heavy() -> None:
    done = _python("import sys; import builder; "
                   "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                   "('numpy', 'pandas', 'pyarrow', 'pydantic') or m.startswith('builder.')))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_command_line_sets_what_it_needs_for_its_own_process() -> None:
    """``appendix`` (``builder.cli.main``) keeps numpy off transparent huge pages unless the
    user said otherwise, before numpy is imported."""
    code = ("import os, sys; os.environ.pop('NUMPY_MADVISE_HUGEPAGE', None); "
            "from builder.cli import main; sys.argv = ['appendix', '--version']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(os.environ.get('NUMPY_MADVISE_HUGEPAGE'))")
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0"


def test_python_dash_m_builder_is_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "builder", "--help"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: appendix ")
    assert "evaluate" in done.stdout and "build" in done.stdout
    wrong = subprocess.run([sys.executable, "-m", "builder", "no-such-command"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr
