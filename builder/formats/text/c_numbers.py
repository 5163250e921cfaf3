"""C's ``atof`` and ``atol`` as glibc reads text: the number at the start, 0 when none.

trec_eval reads run scores with ``atof`` (``get_trec_results.c``), relevance values with
``atol`` (``get_qrels.c``) and measure parameters with both (``meas_init.c``). ``atof`` is
``strtod``: after optional blanks and a sign, a hexadecimal number (``0x1A`` is 26, ``0x1.8p1``
is 3), ``inf``/``infinity``/``nan``/``nan(chars)`` in any case, or a decimal number with an
optional exponent; whatever follows is ignored (``1.5abc`` is 1.5, ``1e`` is 1), and text
that starts with none of these is 0 (``.``, ``abc``). ``atol`` is ``strtol`` in base 10: an
optional sign, then digits (``2.0`` is 2, ``+-3`` and ``0x1A`` are 0). These rules are
ISO C's (C99 7.20.1.3, 7.20.1.4), which glibc follows.
"""

from __future__ import annotations

import re

_HEX = re.compile(r"\s*([+-]?)0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?")
_SPECIAL = re.compile(r"\s*([+-]?)(infinity|inf|nan(?:\([0-9A-Za-z_]*\))?)", re.IGNORECASE)
_DECIMAL = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_INTEGER = re.compile(r"\s*([+-]?\d+)")


def c_atof(text: str) -> float:
    """C's ``atof(text)``: the double ``strtod`` reads at the start of ``text``, else 0."""
    found = _HEX.match(text)
    if found:
        sign, digits, exponent = found.groups()
        try:
            return float.fromhex(f"{sign}0x{digits}{exponent or ''}")
        except OverflowError:  # strtod gives HUGE_VAL
            return float(f"{sign}inf")
    found = _SPECIAL.match(text)
    if found:
        sign, word = found.group(1), found.group(2).lower()
        return float(f"{sign}{'nan' if word.startswith('nan') else 'inf'}")
    found = _DECIMAL.match(text)
    return float(found.group(1)) if found else 0.0


def c_atol(text: str) -> int:
    """C's ``atol(text)``: the base-10 integer at the start of ``text``, else 0."""
    found = _INTEGER.match(text)
    return int(found.group(1)) if found else 0
