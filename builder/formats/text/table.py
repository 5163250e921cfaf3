"""What the TREC text reader (``builder.formats.text.reader``) is asked for and what it gives
back: the layout of a file's fields, and its rows with their line numbers and problems."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from builder.findings import Finding


@dataclass
class TextTable:
    """Rows of a TREC text file: typed or string columns, 1-based line numbers, and problems."""

    table: pa.Table
    lines: np.ndarray
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class TextLayout:
    """What the reader must produce: ``names`` of the fields, the ``kept`` ones and their types."""

    file: str
    names: list[str]
    kept: list[str]
    types: dict[str, pa.DataType]
    extra_fields_allowed: bool
    atof: bool = False

    def type_of(self, name: str) -> pa.DataType:
        return self.types.get(name, pa.large_string())
