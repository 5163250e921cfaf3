"""appendix: evaluation campaigns to static results sites."""

from __future__ import annotations

import os

# numpy asks Linux for transparent huge pages on every large array unless told otherwise.
# Evaluation allocates and drops hundreds of MB of short-lived arrays, and faulting in fresh
# huge pages cost four times more than small pages on the machines we measured (first touch
# of 1 GB: 2.0 s against 0.5 s; ad hoc evaluation of TREC-COVID round 1: 1.05 s against
# 0.65 s). numpy reads this variable when it is first imported, so it takes effect when the
# package is imported first, as the ``appendix`` command does; a value set by the user wins.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


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
