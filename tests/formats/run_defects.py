"""Run files with one defect each, on line 4 of an otherwise clean file: those the full
reader reports and those it reads its own way without a word (``test_clean_run.py``, and
``appendix pool`` in ``tests/commands/test_pool.py``)."""

from __future__ import annotations

CLEAN = b"1 Q0 d3 1 2.5 tagA\n1 Q0 d1 2 2.5 tagA\n2 Q0 d1 1 -1e3 tagA\n"
"""A clean run: two topics, a tie."""

DEFECTS = {
    "a doubled blank (five fields)": CLEAN + b"3  d9 1 1 tagA\n",
    "a blank ending a line (five fields)": CLEAN + b"3 Q0 d9 1 1 \n",
    "five fields": CLEAN + b"3 Q0 d9 1 1\n",
    "seven fields": CLEAN + b"3 Q0 d9 1 1 tagA extra\n",
    "a score that is not a number": CLEAN + b"3 Q0 d9 1 high tagA\n",
    "a score of nan": CLEAN + b"3 Q0 d9 1 nan tagA\n",
    "an infinite score": CLEAN + b"3 Q0 d9 1 -inf tagA\n",
    "a lone carriage return": CLEAN + b"3 Q0 d9 1 1 tagA\r3 Q0 d8 2 1 tagA\n",
    "a byte that is not UTF-8": CLEAN + b"3 Q0 d\xff 1 1 tagA\n",
}
"""Files the full reader reports (a finding on the line, or the file refused)."""
ODDITIES = {
    "a blank line": CLEAN + b"\n2 Q0 d2 2 -2 tagA\n",
    "a line of blanks": CLEAN + b"  \n",
    "a blank starting a line": CLEAN + b" 3 Q0 d9 1 1 tagA\n",
    "a comment of six fields": CLEAN + b"#3 Q0 d9 1 1 tagA\n",
    "tabs and spaces": CLEAN + b"3\tQ0\td9\t1\t1\ttagA\n",
    "a byte order mark": b"\xef\xbb\xbf" + CLEAN,
    "no line": b"",
}
"""Files the full reader reads its own way without a word (trec_eval's: blank and comment
lines skipped, any run of blanks a separator): the light reader leaves them to it."""
