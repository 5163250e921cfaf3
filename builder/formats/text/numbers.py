"""Number fields of text files: the one rule every run reader applies to a score (a finite
number as C's ``strtod`` reads a whole field), trec_eval's lenient reading (C's ``atof``), and
the whole numbers of INEX files (offsets and lengths, as inex_eval reads them)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from builder.findings import Finding, FindingCode
from builder.formats.text.c_numbers import c_atof
from builder.formats.text.table import TextLayout

FINITE_NUMBER = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"
"""A finite number as C's ``strtod`` reads a whole field (trec_eval reads scores with atof)."""
NON_FINITE = r"^[+-]?(nan(\([0-9A-Za-z_]*\))?|inf|infinity)$"
"""What ``strtod`` reads as NaN or infinity, in any case: one rule, an error (a run cannot be
ranked by such a score), however the line is spaced."""
HEX_NUMBER = r"^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?$"
"""A hexadecimal floating number as ``strtod`` reads a whole field (``0x1.8p1`` is 3)."""
_HEX = re.compile(HEX_NUMBER, re.ASCII)
_FINITE = re.compile(FINITE_NUMBER, re.ASCII)  # digits 0-9 only, as Arrow's parser
_NON_FINITE = re.compile(NON_FINITE, re.IGNORECASE)


def number_columns(table: pa.Table, layout: TextLayout) -> pa.Table:
    """The ``float64`` columns of ``layout`` read as text (not those Arrow parsed as numbers
    already), as numbers: a value that is not a finite number as ``FINITE_NUMBER`` says (nor
    ``nan`` nor ``inf``) becomes null, so that ``suspect_rows`` sends its line through the
    careful rules. One cast when every value reads (Arrow's cast and CSV reader parse
    numbers alike)."""
    for name in layout.names:
        text = table.column(name)
        if layout.type_of(name) != pa.float64() or text.type == pa.float64():
            continue
        try:
            numbers = pc.cast(text, pa.float64())
        except pa.ArrowInvalid:
            numbers = pc.cast(pc.if_else(pc.match_substring_regex(text, FINITE_NUMBER), text,
                                         pa.scalar(None, text.type)), pa.float64())
        table = table.set_column(table.schema.get_field_index(name), name, numbers)
    return table


def hex_as_decimal(text: str) -> str:
    """A field holding a whole hexadecimal number (``0x1.8p1``, which trec_eval's ``atof``
    reads as any number) as the decimal text of its value; any other text, and a hexadecimal
    number beyond the largest double, as it is."""
    if not _HEX.match(text):
        return text
    value = c_atof(text)
    return repr(value) if math.isfinite(value) else text


def number_problem(name: str, text: str) -> str | None:
    """What is wrong with a number field's text (None: nothing): the one rule of every run
    reader, a finite number as C's ``strtod`` reads a whole field."""
    if _FINITE.match(text):
        if math.isfinite(float(text)):
            return None
        return f"{name} {text} is not a finite number (beyond the largest double)"
    if _NON_FINITE.match(text):
        return f"{name} {text} is not a finite number"
    return f"{name} is not a number"


def read_as_atof(file: str, line: int, name: str, fields: list[str], i: int,
                 findings: list[Finding]) -> str | None:
    """trec_eval's reading of a number field that is not a number: ``fields[i]`` replaced by
    the value C's ``atof`` reads (a warning), or the problem when that value is not finite."""
    text = fields[i]
    value = c_atof(text)
    if not math.isfinite(value):
        return f"{name} {text} is not a finite number"
    findings.append(Finding(file, line, "warning", FindingCode.VALUE,
                            f"{name} {text} read as {value!r}, as trec_eval reads it (C's atof)"))
    fields[i] = repr(value)
    return None


WHOLE_NUMBER = r"[+-]?[0-9]+"
"""A whole number as inex_eval 3.1 reads offsets and lengths (Java's ``Integer.parseInt``: a
sign, decimal digits): ``1e3`` and ``1.5`` are not, alike."""
LARGEST_WHOLE = 2**53
"""Whole numbers beyond this are no article's positions (and would lose digits as doubles)."""


_WHOLE = re.compile(WHOLE_NUMBER, re.ASCII)
_WHOLE_DIGITS = len(str(LARGEST_WHOLE))
"""More significant digits than this: too large, told before the text is read as a number."""


def whole_numbers(texts: pd.Series | pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``texts`` read as whole numbers (``WHOLE_NUMBER``): the values (0 where not read),
    the rows that are not whole numbers, and the rows beyond ``LARGEST_WHOLE`` (too large,
    not "not an integer": ``99999999999999999999`` is one). A missing text is not a number.

    Arrow's compute kernels over the whole column (a pandas Series or an Arrow array), not
    Python per cell: the match, the count of significant digits, then Arrow's cast to int64
    of the texts that passed both (a leading ``+`` taken off, which the cast refuses).
    """
    cells = pc.fill_null(_arrow_strings(texts), "")
    whole = pc.match_substring_regex(cells, f"^{WHOLE_NUMBER}$").to_numpy(zero_copy_only=False)
    if whole.all():  # the usual column: one cast, when it reads every text (no "+", no overflow)
        try:
            values = pc.cast(cells, pa.int64()).to_numpy().astype(np.int64, copy=True)
        except pa.ArrowInvalid:
            pass
        else:
            huge = np.abs(values) > LARGEST_WHOLE
            values[huge] = 0
            return values, ~whole, huge
    digits = pc.utf8_length(pc.utf8_ltrim(pc.utf8_ltrim(cells, "+-"), "0")).to_numpy()
    huge = whole & (digits > _WHOLE_DIGITS)
    readable = pa.array(whole & ~huge)
    values = pc.cast(pc.if_else(readable, pc.utf8_ltrim(cells, "+"), "0"), pa.int64())
    values = values.to_numpy().astype(np.int64, copy=True)
    huge |= np.abs(values) > LARGEST_WHOLE
    values[huge] = 0
    return values, ~whole, huge


def _arrow_strings(texts: pd.Series | pa.Array) -> pa.Array:
    """The texts as one Arrow string array (a column of another type read as its ``str``)."""
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    if isinstance(texts, pa.Array):
        return texts if pa.types.is_string(texts.type) else pc.cast(texts, pa.string())
    try:
        array = pa.array(texts, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        array = pa.array(texts.astype(str), from_pandas=True)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_large_string(array.type) or not pa.types.is_string(array.type):
        array = pc.cast(array, pa.string())
    return array


def whole_number(text: str) -> int | None:
    """One ``text`` read by the rule of ``whole_numbers`` (for a value met alone, as an XML
    attribute): its value, ``None`` when it is not a whole number, ``OverflowError`` when it
    is beyond ``LARGEST_WHOLE``."""
    if _WHOLE.fullmatch(text) is None:
        return None
    if len(text.lstrip("+-").lstrip("0")) > _WHOLE_DIGITS or abs(int(text)) > LARGEST_WHOLE:
        raise OverflowError(text)
    return int(text)
