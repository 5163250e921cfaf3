"""trec_eval's ``relstring``: the relevance of a ranking's first documents, as a string.

``m_relstring.c`` (trec_eval 9.0.8 and 10.0, in ``all_trec`` after ``P``) prints, for each
topic and only per topic (``-q``), one character per document of the first N
(``-m relstring.N``, default 10; C's ``(long)`` of the parameter, none when negative) of the
judged ranking, after ``-M`` and ``-J``:

- the relevance value when it is 0 to 9, ``>`` above 9;
- ``-`` for a document the qrels do not list (``RELVALUE_NONPOOL``);
- ``.`` for one they list with a negative value (in the pool, unjudged: ``RELVALUE_UNJUDGED``);

as ``relstring<TAB>topic<TAB>'10-2>.'``. It is text, not a number: it is kept out of the score
table and printed by ``appendix evaluate``'s trec layout only.

Built by columns: each retained row's character, then one string per (run, topic) cell cut
from one buffer by the cells' offsets (Arrow), not a Python join per cell.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from builder.measures.adhoc.judged.ranking import NOT_IN_POOL, UNJUDGED, JudgedRanking
from builder.measures.adhoc.trec_measure import TrecMeasure

RELSTRING = TrecMeasure("relstring", None, ())
"""trec_eval's entry, for its place in ``-m`` requests and ``all_trec`` (no registry entry:
not a number, never summarised)."""
DEFAULT_LENGTH = 10


def relevance_strings(judged: JudgedRanking, length: float = DEFAULT_LENGTH) -> pd.DataFrame:
    """One row per (run, topic) cell of ``judged``: run, topic and text, the characters of its
    first ``length`` documents (``length`` truncated toward zero as C's ``(long)``)."""
    keep = judged.rank <= max(int(length), 0)
    rel = judged.rel[keep].astype(np.int64)
    chars = np.select(
        [rel > 9, rel >= 0, rel == NOT_IN_POOL, rel == UNJUDGED],
        [ord(">"), ord("0") + rel, ord("-"), ord(".")], default=ord("<")).astype(np.uint8)
    sizes = np.bincount(judged.cell[keep], minlength=judged.num_cells)
    offsets = np.r_[0, np.cumsum(sizes)].astype(np.int32)
    texts = pa.StringArray.from_buffers(judged.num_cells, pa.py_buffer(offsets),
                                        pa.py_buffer(chars.tobytes()))
    n_topics = len(judged.topics)
    return pd.DataFrame({
        "run": np.repeat(np.asarray(judged.runs, dtype=object), n_topics),
        "topic": np.tile(np.asarray(judged.topics, dtype=object), len(judged.runs)),
        "text": texts.to_pandas(),
    })
