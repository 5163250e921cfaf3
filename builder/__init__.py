"""appendix: evaluation campaigns to static results sites.

The public Python API (``builder.api``): ``evaluate``, ``compare``, ``read_run``,
``read_qrels``, ``build`` and ``InputError``, and ``__version__``. Each is imported when first
looked up (a module ``__getattr__``), so that ``import builder`` imports nothing and sets no
environment variable: the command line (``builder.cli.main``, run as ``appendix`` or
``python -m builder``) sets up the process it owns. No submodule is named as an API function
(``appendix build``'s stages are ``builder.building``): importing a submodule binds it in the
package, where it would hide the function of that name.
"""

from __future__ import annotations

import logging

# A library's loggers say nothing unless the program routes them (the logging HOWTO's advice
# for libraries): the command line installs its console (``builder.cli.console``).
logging.getLogger(__name__).addHandler(logging.NullHandler())

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

