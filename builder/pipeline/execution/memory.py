"""Memory let go between batches: run tables emptied once evaluated, and the freed memory
returned to the system, so that a long series of batches does not creep up the resident set."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from builder.contract import RunRead


def drop_tables(reads: list[RunRead]) -> None:
    """Each read's table emptied (no row, same columns), its memory freed."""
    for read in reads:
        if read.table is not None and len(read.table):
            read.table = empty_like(read.table)
    give_back()


def empty_like(table: pd.DataFrame) -> pd.DataFrame:
    """A table of no row with the columns and dtypes of ``table``, made anew: an empty slice
    of an Arrow column (the document names) would keep its whole buffer alive, a run's worth
    of memory for each run dropped."""
    import pandas as pd

    return pd.DataFrame({name: pd.array([], dtype=dtype) for name, dtype in table.dtypes.items()})


def give_back() -> None:
    """Free memory returned to the system (glibc's ``malloc_trim``): a batch's arrays, once
    freed, would otherwise stay in the heap, fragmented, and the resident set creep up batch
    after batch."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None (another C library: its own allocator's business)."""
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
