"""Every remaining difference from inex_eval 3.1, one row each, as the measures page and
``docs/inex_eval.md`` list them; everything else follows the program, checked value by value
against its jar on random campaigns of every task."""

from __future__ import annotations

from builder.measures.registry import Difference

INEX_EVAL = "inex_eval 3.1"

NO_RELEVANT_TEXT = Difference(
    INEX_EVAL, "a topic without relevant text (qrels 1 Q0 10 100 1000 0 0:100, 2 Q0 20 0 1000; "
    "run of both topics; -f)",
    "art_rec, char_rec, gR[r], AgP of topic 2: 0, and means that count it 0; "
    "option no_relevant_text: nan prints the program's NaN",
    "NaN (0/0), and NaN means (MAiP, MAgP)",
    "0 keeps a leaderboard's means readable.")
"""The measures it concerns point at it (``Difference.see``) rather than saying it again."""

INEX_EVAL_DIFFERENCES: tuple[Difference, ...] = (
    NO_RELEVANT_TEXT,
    Difference(INEX_EVAL, "a run none of whose topics is in the qrels, without -c (qrels "
               "1 Q0 10 100 1000 0 0:100; run 2 Q0 20 1 -1 r 0 100; -f)",
               "means 0 (option no_relevant_text: nan: NaN)", "every mean NaN (0/0)",
               "A mean over no topic is shown as 0 on a leaderboard, as above."),
    Difference(INEX_EVAL, "in-context tasks, a topic's lines in two blocks around another "
               "topic's, when the second block ranks more articles than the first has",
               "scored, each block's articles after the topic's earlier ones",
               "stops: IndexOutOfBoundsException, no output",
               "A defect: the run is valid; the warning names the line where the topic starts "
               "again."),
    Difference(INEX_EVAL, "a topic's lines in two blocks that retrieve the same article, or "
               "overlapping passages across the blocks; best in context: a second entry "
               "point for the previous line's article",
               "scored (as the lines of one block would be in the focused and thorough tasks)",
               "refuses the run (\"interleaved\", an overlap, \"multiple results from single "
               "article\")", "The program's checks read the blocks as one; the run is valid."),
    Difference(INEX_EVAL, "a run line whose score is not a finite number (nan, inf, 1e999, "
               "abc)", "an error naming file and line", "ignored (the score field is never "
               "read)", "The run page shows the scores; one that could not rank a result "
               "is a finding."),
)
