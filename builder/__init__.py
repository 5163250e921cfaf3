"""appendix: evaluation campaigns to static results sites.

Importing the package does nothing but define ``__version__``: no environment variable is set
and nothing of the pipeline is imported. The command line (``builder.cli.main``, run as
``appendix`` or ``python -m builder``) sets up the process it owns.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """``__version__``, looked up when first asked for (the installed package's metadata:
    ``importlib.metadata`` costs a command's start-up a tenth of a second)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("appendix")
    except PackageNotFoundError:  # running from a source tree that is not installed
        found = "0.0.0"
    globals()["__version__"] = found
    return found
