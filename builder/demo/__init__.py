"""The demo campaign: deterministic inputs for every task kind, written by ``appendix demo DIR``.

Each task kind names the writer module of its inputs here (``TaskKind.demo``; the INEX kinds
share one); ``write_demo`` runs each once, into a subfolder named after it.
The repository's ``data/`` folder is ``write_demo``'s output, checked in so a fresh clone builds
the demo site without generating it; ``tests/demo`` checks that the two agree byte for byte.
"""

from __future__ import annotations

import importlib
from pathlib import Path


def demo_writers() -> dict[str, str]:
    """Subfolder name -> module writing its qrels, topics, runs and run metadata, from the
    table of task kinds, in its order."""
    from builder.tasks import KIND_MODULES, get_kind

    modules = dict.fromkeys(get_kind(name).demo for name in KIND_MODULES)
    return {module.rsplit(".", 1)[1]: module for module in modules if module}


def write_demo(directory: Path) -> list[Path]:
    """Write the whole demo campaign into ``directory`` (created if missing); the folders
    written."""
    folders = []
    for name, module in demo_writers().items():
        importlib.import_module(module).write(Path(directory) / name)
        folders.append(Path(directory) / name)
    return folders
