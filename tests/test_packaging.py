"""The package list of pyproject.toml covers the source tree, templates included."""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_every_builder_package_is_listed_for_installation():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "builder").rglob("__init__.py")
    }
    assert set(config["packages"]) == on_disk | {"builder.templates"}
    assert config["package-dir"] == {"builder.templates": "templates"}


def test_every_template_file_is_package_data():
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["builder.templates"]
    templates = ROOT / "templates"
    files = [p.relative_to(templates).as_posix() for p in templates.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.name != "__init__.py"]
    assert files
    unlisted = [f for f in files if not any(fnmatch(f, pat) for pat in patterns)]
    assert not unlisted, f"template files not installed by a plain pip install: {unlisted}"


def test_ci_runs_exactly_the_test_command_readme_gives():
    """README's second command (install and run the tests) is the last line of .ci/run, as is,
    so what CI checks is what a user on a fresh machine types."""
    import re

    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    readme = [line for line in blocks[1].splitlines() if line and not line.startswith("#")]
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    assert len(readme) == 1 and "pytest" in readme[0]
    assert ci[-1] == readme[0]
    assert "install" in blocks[0] and "appendix build" in blocks[0]
