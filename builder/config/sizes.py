"""A size as the config and the command line write it (``2G``, ``512M``, ``100000``), in bytes:
the memory budget of ``memory_budget:`` and ``--memory-budget``."""

from __future__ import annotations

import re

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(text: str) -> int:
    """``2G``, ``512M``, ``100000`` (bytes) -> bytes; ValueError with the reason otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", str(text), re.IGNORECASE)
    if match is None:
        raise ValueError(f"memory budget {text!r}: expected a size such as 2G, 512M or 100000")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])
