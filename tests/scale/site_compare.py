"""Two builds of one site compared file by file (the batched and distributed paths against the
one-shot one): every file byte for byte, the full-precision score downloads included (each
run's scores are summed from its own values only, whichever runs share its batch)."""

from __future__ import annotations

from pathlib import Path

from tests.site.site_checks import file_hashes


def compare_sites(one: Path, other: Path) -> list[str]:
    """The files of ``other`` that are not byte-identical to ``one``'s (names of missing,
    extra or different files)."""
    first, second = file_hashes(one), file_hashes(other)
    return sorted(set(first) ^ set(second)) + sorted(
        name for name in set(first) & set(second) if first[name] != second[name])
