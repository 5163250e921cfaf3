"""The house: no import cycle and no import up the stages, read from the source with ``ast``.

Every import counts: at module level, inside a function (an import moved into a function to
dodge a cycle hides the cycle, it does not remove it), under ``TYPE_CHECKING``, and a string
constant that names a module of ``builder`` (what ``importlib.import_module`` is given). An
import of a package's module does not count as an import of the package's ``__init__``: that
is how Python runs, not a dependency the code chose.

The layers, lowest first. A module may import its own layer and the layers below, never one
above. The order is that of dependence, not of execution: the config stage runs first but
checks measure names against the registry and reads YAML through the formats, so it sits
above them; validation rules use the measures' interval machinery.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.conftest import ROOT

LAYERS: tuple[tuple[str, ...], ...] = (
    ("builder.findings", "builder.contract", "builder.version"),  # what every stage speaks
    ("builder.formats",),  # read
    ("builder.measures",),  # the measures, each declared with its computation
    ("builder.validate",),  # rules over read tables
    ("builder.config",),  # the schema of site_config.yml and its loading
    ("builder.stats",),  # significance and reliability on score tables; pools on rankings
    ("builder.tasks",),  # the kinds: a reader, rules and measures bound together
    ("builder.pipeline",),  # the stages, the types they pass, and how an evaluation executes
    ("builder.site",),  # render and publish
    ("builder.demo",),  # the demo campaign's inputs
    ("builder.building",),  # appendix build: every stage in order
    ("builder.archive", "builder.serve"),  # archive and verify, preview: each builds the site
    ("builder.cli", "builder.__main__", "builder.api"),  # the command line, the Python API
)

MAX_ROOT_MODULES = 6
MAX_FOLDER_MODULES = 12
MAX_SHARED_PREFIX = 2


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, by dotted name (a package by its own)."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def import_graph(root: Path, package: str = "builder") -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports, anywhere in its source."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        own_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {_known(alias.name, modules) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = own_package.split(".")[: len(own_package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    imported.add(full if full in modules else _known(base, modules))
            elif isinstance(node, ast.Constant) and node.value in modules:
                imported.add(node.value)
        imported.discard(name)
        imported.discard("")
        graph[name] = imported
    return graph


def _known(name: str, modules: Mapping[str, Path]) -> str:
    """The longest prefix of ``name`` that is a module of the tree ("" when none is)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return ""


def find_cycle(graph: Mapping[str, set[str]]) -> list[str]:
    """One import cycle of the graph (its modules, the first repeated last), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def find_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Import cycles of the graph until none is left, each found cycle's closing import set
    aside before looking again: every cycle is named at least by one of them."""
    remaining = {module: set(imported) for module, imported in graph.items()}
    cycles = []
    while cycle := find_cycle(remaining):
        cycles.append(cycle)
        remaining[cycle[-2]].discard(cycle[-1])
    return cycles


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int | None:
    for rank, prefixes in enumerate(layers):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def upward_imports(graph: Mapping[str, set[str]],
                   layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """``module -> imported`` for every import of a layer above the importer's."""
    found = []
    for module, imported in sorted(graph.items()):
        rank = layer_of(module, layers)
        for target in sorted(imported):
            other = layer_of(target, layers)
            if rank is not None and other is not None and other > rank:
                found.append(f"{module} -> {target}")
    return found


def test_every_module_has_a_layer() -> None:
    graph = import_graph(ROOT)
    assert [m for m in graph if m != "builder" and layer_of(m) is None] == []


def test_no_import_cycle() -> None:
    assert [" -> ".join(cycle) for cycle in find_cycles(import_graph(ROOT))] == []


def test_no_import_runs_up_the_stages() -> None:
    assert upward_imports(import_graph(ROOT)) == []


def test_package_root_imports_only_the_api_and_only_when_asked() -> None:
    """``import builder`` stays light: the package root names the API and the version, each
    imported inside its ``__getattr__`` when first looked up, none at import."""
    assert import_graph(ROOT)["builder"] == {"builder.api", "builder.version"}
    tree = ast.parse((ROOT / "builder" / "__init__.py").read_text(encoding="utf-8"))
    at_import = [alias.name if isinstance(node, ast.Import) else node.module
                 for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
                 for alias in node.names]
    assert [name for name in at_import if name and name.startswith("builder")] == []



def test_no_submodule_is_named_as_an_api_function() -> None:
    """Importing ``builder.X`` binds the module to the package's ``X``: a submodule named as
    an API function would hide it once imported (``builder.build`` the function, the stages
    of ``appendix build`` in ``builder.building``)."""
    import builder

    submodules = {path.stem for path in (ROOT / "builder").glob("*.py")} | {
        path.parent.name for path in (ROOT / "builder").glob("*/__init__.py")}
    assert submodules & set(builder.API) == set()

def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_behind_a_function_level_import_is_found(tmp_path: Path) -> None:
    _write(tmp_path, {
        "builder/__init__.py": "",
        "builder/pipeline/__init__.py": "",
        "builder/pipeline/stages.py": "from builder.pipeline.batches import run\n",
        "builder/pipeline/batches.py": ("def run():\n"
                                        "    from builder.pipeline.stages import Model\n"),
        "builder/pipeline/other.py": "import builder.pipeline.stages\n",
    })
    cycle = find_cycle(import_graph(tmp_path))
    assert set(cycle) == {"builder.pipeline.stages", "builder.pipeline.batches"}


def test_a_cycle_through_a_relative_import_and_a_module_import_is_found(tmp_path: Path) -> None:
    _write(tmp_path, {
        "builder/__init__.py": "",
        "builder/tasks/__init__.py": "",
        "builder/tasks/adhoc/__init__.py": "from . import overlap\n",
        "builder/tasks/adhoc/overlap.py": "from builder.tasks import adhoc\n",
    })
    assert set(find_cycle(import_graph(tmp_path))) == {"builder.tasks.adhoc",
                                                       "builder.tasks.adhoc.overlap"}


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    _write(tmp_path, {
        "builder/__init__.py": "",
        "builder/measures/__init__.py": "",
        "builder/measures/dcg.py": ("from typing import TYPE_CHECKING\n"
                                    "if TYPE_CHECKING:\n"
                                    "    from builder.site.pages import Page\n"),
        "builder/measures/names.py": "PAGE = 'builder.site.pages'\n",
        "builder/site/__init__.py": "",
        "builder/site/pages.py": "import os\n",
    })
    graph = import_graph(tmp_path)
    assert find_cycle(graph) == []
    assert upward_imports(graph) == ["builder.measures.dcg -> builder.site.pages",
                                     "builder.measures.names -> builder.site.pages"]


def test_a_tree_without_cycles_passes(tmp_path: Path) -> None:
    _write(tmp_path, {
        "builder/__init__.py": "",
        "builder/formats/__init__.py": "",
        "builder/formats/run.py": "import os\n",
        "builder/measures/__init__.py": "from builder.formats import run\n",
    })
    graph = import_graph(tmp_path)
    assert find_cycle(graph) == [] and upward_imports(graph) == []


def _folders(root: Path) -> dict[Path, list[str]]:
    folders: dict[Path, list[str]] = {}
    for path in sorted((root / "builder").rglob("*.py")):
        folders.setdefault(path.parent, []).append(path.stem)
    return folders


def test_the_package_root_holds_few_modules() -> None:
    root_modules = _folders(ROOT)[ROOT / "builder"]
    assert len(root_modules) <= MAX_ROOT_MODULES, root_modules


@pytest.mark.parametrize("folder", sorted(p.relative_to(ROOT).as_posix()
                                          for p in _folders(ROOT)))
def test_a_folder_is_one_concept(folder: str) -> None:
    """At most 12 modules, and no prefix shared by three modules: a folder never made."""
    modules = _folders(ROOT)[ROOT / folder]
    assert len(modules) <= MAX_FOLDER_MODULES, modules
    prefixes: dict[str, list[str]] = {}
    for name in modules:
        if "_" in name.strip("_"):
            prefixes.setdefault(name.split("_")[0], []).append(name)
    assert {p: names for p, names in prefixes.items() if len(names) > MAX_SHARED_PREFIX} == {}
