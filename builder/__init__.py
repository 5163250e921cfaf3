"""appendix: evaluation campaigns to static results sites.

The public Python API (``builder.api``): ``evaluate``, ``compare``, ``read_run``,
``read_qrels``, ``build`` and ``InputError``, and ``__version__``. Each is imported when first
looked up (a module ``__getattr__``), so that ``import builder`` imports nothing and sets no
environment variable: the command line (``builder.cli.main``, run as ``appendix`` or
``python -m builder``) sets up the process it owns.
"""

from __future__ import annotations

import sys
import types

API = ("evaluate", "compare", "read_run", "read_qrels", "build", "InputError")
__all__ = ["InputError", "__version__", "build", "compare", "evaluate", "read_qrels", "read_run"]


def __getattr__(name: str) -> object:
    """An API function or ``__version__``, imported when first asked for."""
    if name == "__version__":
        from builder.version import __version__ as found
    elif name in API:
        from builder import api

        found = getattr(api, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted([*globals(), *API])


class _Package(types.ModuleType):
    """The package, whose ``build`` stays the API's function: importing the stage module
    ``builder.build`` would otherwise set the package's attribute ``build`` to that module
    (Python binds a submodule to its parent's namespace). The module stays importable by its
    name (``from builder.build import ...``, ``sys.modules``)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "build" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
