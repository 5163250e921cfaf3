"""The installed version of appendix (``__version__``), which the command line's ``--version``,
the site's pages and its manifest print.

Looked up from the installed package's metadata when this module is first imported, not when
``builder`` is: ``importlib.metadata`` costs a command's start-up a tenth of a second.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("appendix")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
