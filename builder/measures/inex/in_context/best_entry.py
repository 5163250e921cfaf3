"""Best in context: how close a run's entry point is to the best entry point (BEP).

With ``d = |bep - entry|`` in characters (seed 001, ``d(x, b)``; inex_eval 3.1 uses the offset
of the article's one result as the entry point x):

- ``inex_eval``: ``s = (n - d) / n`` if ``d <= n`` else 0, n = 500 (inex_eval 3.1's ``-n``);
- ``paper_eq9``: the same formula with the paper's n = 1000 (seed 001, eq. 9);
- ``paper_eq8``: ``s = A * L / (A * L + d)``, L the article's length (seed 001, eq. 8), A = 0.1.

An article without relevant text, or without a BEP in the qrels, scores 0 (eq. 10 and
inex_eval). inex_eval places an unknown entry point (offset ``X``) at -10000 so it scores 0
under its formula; we keep that position for every formula.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

BepScore = Literal["inex_eval", "paper_eq8", "paper_eq9"]

DEFAULT_N: dict[str, int] = {"inex_eval": 500, "paper_eq9": 1000}
UNKNOWN_ENTRY = -10000


def bep_distance(entry: np.ndarray, bep: np.ndarray) -> np.ndarray:
    """d(x, b) = |b - x| (seed 001, section 5.2)."""
    return np.abs(np.asarray(bep, np.int64) - np.asarray(entry, np.int64))


def distance_score(distance: np.ndarray, n: int) -> np.ndarray:
    """Seed 001 eq. 9 (inex_eval's formula): (n - d) / n for d <= n, else 0."""
    distance = np.asarray(distance, np.float64)
    return np.where(distance <= n, (n - distance) / n, 0.0)


def length_normalised_score(distance: np.ndarray, length: np.ndarray, a: float) -> np.ndarray:
    """Seed 001 eq. 8: A * L / (A * L + d)."""
    scaled = a * np.asarray(length, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = scaled / (scaled + np.asarray(distance, np.float64))
    return np.nan_to_num(score, nan=0.0)


def best_entry_scores(
    entry: np.ndarray, bep: np.ndarray, doc_chars: np.ndarray, relevant: np.ndarray,
    formula: BepScore = "inex_eval", n: int | None = None, a: float = 0.1,
) -> np.ndarray:
    """S(d) of each retrieved article (seed 001 eq. 10); ``bep < 0`` means no BEP."""
    distance = bep_distance(entry, bep)
    if formula == "paper_eq8":
        score = length_normalised_score(distance, doc_chars, a)
    else:
        score = distance_score(distance, n if n is not None else DEFAULT_N[formula])
    return np.where(np.asarray(relevant, bool) & (np.asarray(bep) >= 0), score, 0.0)
