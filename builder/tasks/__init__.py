"""Task kinds: what binds a reader, rules, an evaluator and options for one kind.

Each kind (``adhoc``, ``focused``, ``thorough``, ``relevant-in-context``, ...) lives in its own
module of this package and exposes ``KIND: TaskKind`` (or ``KINDS``, several kinds sharing one
module); ``TaskKind``, what a kind gives the pipeline, is part of the contract every stage
speaks (``builder.contract``). ``KIND_MODULES`` is the one table of kinds: the CLI lists its
names without importing them (``appendix --help`` stays fast), and everything else the pipeline
asks of a kind is a field of its ``TaskKind``. Each kind's options, which the command line reads
for its flags before it imports any kind, are ``builder.tasks.options.KIND_OPTIONS``. A kind
knows nothing of the stages after it: the site's table of page models (``builder.site.runs``)
and the demo's table of writers (``builder.demo``) name the kinds.
"""

from __future__ import annotations

import importlib

from builder.contract import TaskKind

__all__ = ["KIND_MODULES", "TaskKind", "get_kind"]

KIND_MODULES: dict[str, str] = {
    "adhoc": "builder.tasks.adhoc",
    "focused": "builder.tasks.inex.focused",
    "thorough": "builder.tasks.inex.thorough",
    "relevant-in-context": "builder.tasks.inex.in_context",
    "restricted-relevant-in-context": "builder.tasks.inex.in_context",
    "best-in-context": "builder.tasks.inex.in_context",
    "eprum": "builder.tasks.eprum",
    "eprum-documents": "builder.tasks.eprum_documents",
}


def get_kind(name: str) -> TaskKind:
    """The task kind called ``name``."""
    try:
        module = importlib.import_module(KIND_MODULES[name])
    except KeyError:
        raise KeyError(f"unknown task kind {name!r}; known: {', '.join(KIND_MODULES)}") from None
    kinds = getattr(module, "KINDS", None)
    if kinds is not None:
        return kinds[name]
    return module.KIND
