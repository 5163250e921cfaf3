"""The demo campaign: deterministic inputs for every task kind, written by ``appendix demo DIR``.

``WRITERS`` is the table: a subfolder of the campaign and the module writing its qrels, topics,
runs and run metadata (the INEX kinds share one); ``write_demo`` runs each once, then writes the
campaign's ``site_config.yml`` (``builder.demo.config``).
The repository's ``data/`` folder is ``write_demo``'s output, checked in so a fresh clone builds
the demo site without generating it; ``tests/demo`` checks that the two agree byte for byte.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from builder.demo import adhoc, config, inex
from builder.demo.inex import elements

WRITERS: dict[str, ModuleType] = {
    "adhoc": adhoc,  # the adhoc task
    "inex": inex,  # the focused and in-context tasks
    "inex_elements": elements,  # the thorough task, over an XML corpus
}
"""Subfolder of the demo campaign -> the module whose ``write`` writes its inputs."""


def write_demo(directory: Path) -> list[Path]:
    """Write the whole demo campaign into ``directory`` (created if missing); the folders
    written, then its ``site_config.yml``."""
    written = []
    for name, module in WRITERS.items():
        module.write(Path(directory) / name)
        written.append(Path(directory) / name)
    return [*written, config.write(Path(directory))]
