"""Evaluation measures, one module per family; each measure declared once in the registry.

Importing this package imports every family, so the registry (``builder.measures.registry``)
is complete whatever was imported before: the command line, the config's measure-name checks,
the site's measures page and the docs' measure reference all read the same full list. A new
family adds its module to ``FAMILIES``.
"""

from __future__ import annotations

import importlib

FAMILIES = (
    "builder.measures.adhoc.scores",
    "builder.measures.inex.focused.precision",
    "builder.measures.inex.thorough.scores",
    "builder.measures.inex.in_context.scores",
    "builder.measures.eprum.scores",
)
"""The module of each family, which declares its measures when imported."""

for _module in FAMILIES:
    importlib.import_module(_module)
