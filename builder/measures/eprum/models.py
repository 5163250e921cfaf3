"""EPRUM user models: ``P(k ~> x)`` from what rank k points at and where the ideal element x is.

Piwowarski and Dupret (SIGIR 2006). Every model works on character ranges ``[start, end)`` of a
file (a document), so it applies to passages (FOL runs: ``offset``, ``offset + length``) and to
XML elements alike (an element is the range of its text); a whole document is the range of the
document. Navigation never leaves the file. For a pointed range x and an ideal range y:

- ``classical`` (section 3.3): 1 if x and y are the same range, else 0. EPRUM is then TREC
  precision at the natural recall points.
- ``tree`` (section 7): ``len(x)/len(y)`` if y contains x, ``len(y)/len(x)`` if x contains y
  (1 when they are equal), else 0; on passages, containment is interval containment.
- ``distance`` (section 3.3): ``1 / (1 + exp(theta * d))``, d the number of characters between
  x and y (0 when they overlap), theta > 0 per character. As the paper writes it, a user
  reaches an overlapping element with probability 1/2.

A navigation table given by the user needs no model (``builder.formats.eprum.navigation``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

ModelName = Literal["classical", "tree", "distance"]
MODELS: tuple[str, ...] = ("classical", "tree", "distance")
DEFAULT_THETA = 0.01
"""Distance model's theta per character: P = 0.27 at 100 characters, 0.007 at 500."""

POINTER_COLUMNS = ["topic", "rank", "file", "start", "end"]
IDEAL_COLUMNS = ["topic", "element", "file", "start", "end"]
NAVIGATION_COLUMNS = ["topic", "rank", "element", "probability"]


@dataclass(frozen=True)
class UserModel:
    """A navigation model: its name and, for ``distance``, theta (per character)."""

    name: ModelName = "classical"
    theta: float = DEFAULT_THETA

    def __post_init__(self) -> None:
        if self.name not in MODELS:
            raise ValueError(f"unknown EPRUM model {self.name!r}; known: {', '.join(MODELS)}")
        if self.name == "distance" and not self.theta > 0:
            raise ValueError(f"the distance model needs theta > 0, got {self.theta}")

    def probability(
        self, start: np.ndarray, end: np.ndarray, ideal_start: np.ndarray, ideal_end: np.ndarray
    ) -> np.ndarray:
        """``P(k ~> x)`` for pointed ranges [start, end) and ideal ranges, element-wise."""
        same = (start == ideal_start) & (end == ideal_end)
        if self.name == "classical":
            return same.astype(float)
        if self.name == "tree":
            length = (end - start).astype(float)
            ideal_length = (ideal_end - ideal_start).astype(float)
            inside = (ideal_start <= start) & (end <= ideal_end)
            around = (start <= ideal_start) & (ideal_end <= end)
            with np.errstate(divide="ignore", invalid="ignore"):
                value = np.where(
                    inside, length / ideal_length, np.where(around, ideal_length / length, 0.0)
                )
            return np.where(same, 1.0, np.nan_to_num(value, nan=0.0, posinf=0.0))
        from scipy.special import expit

        gap = np.maximum(0, np.maximum(ideal_start - end, start - ideal_end))
        return expit(-self.theta * gap.astype(float))


def navigation_table(
    pointers: pd.DataFrame, ideal: pd.DataFrame, model: UserModel, keys: list[str] | None = None
) -> pd.DataFrame:
    """``P(k ~> x) > 0`` for every pointer and ideal element of the same topic and file.

    pointers: ``POINTER_COLUMNS`` plus ``keys`` (``run``, ...); ideal: ``IDEAL_COLUMNS``.
    Returns ``keys + NAVIGATION_COLUMNS``, zero probabilities left out, all lists at once.
    """
    keys = keys or []
    pairs = pointers[keys + POINTER_COLUMNS].merge(
        ideal[IDEAL_COLUMNS], on=["topic", "file"], suffixes=("", "_ideal")
    )
    probability = model.probability(
        pairs["start"].to_numpy(),
        pairs["end"].to_numpy(),
        pairs["start_ideal"].to_numpy(),
        pairs["end_ideal"].to_numpy(),
    )
    pairs = pairs.assign(probability=probability)
    return pairs.loc[pairs["probability"] > 0, keys + NAVIGATION_COLUMNS].reset_index(drop=True)


def ideal_list(ideal: pd.DataFrame, idealism: pd.Series | None = None) -> pd.DataFrame:
    """Section 7's ideal list: each topic's ideal elements by decreasing idealism, as pointers.

    Ties keep the order of ``ideal`` (stable sort). Returns ``POINTER_COLUMNS`` + ``element``.
    """
    order = ideal.assign(idealism=1.0 if idealism is None else idealism.to_numpy())
    order = order.sort_values(["topic", "idealism"], ascending=[True, False], kind="stable")
    order["rank"] = order.groupby("topic", sort=False).cumcount() + 1
    return order[POINTER_COLUMNS + ["element"]].reset_index(drop=True)


def document_pointers(runs: pd.DataFrame, depth: int) -> pd.DataFrame:
    """Pointers of TREC runs (``run, topic, doc, score``): whole documents, ranked as trec_eval
    ranks them (score descending, ties by docno descending; the file's rank column ignored),
    the first ``depth`` of each topic. Returns ``run`` + ``POINTER_COLUMNS``."""
    ranked = runs.sort_values(
        ["run", "topic", "score", "doc"], ascending=[True, True, False, False], kind="stable"
    )
    ranked = ranked.assign(rank=ranked.groupby(["run", "topic"], sort=False).cumcount() + 1)
    ranked = ranked[ranked["rank"] <= depth]
    return pd.DataFrame(
        {
            "run": ranked["run"].to_numpy(),
            "topic": ranked["topic"].to_numpy(),
            "rank": ranked["rank"].to_numpy(),
            "file": ranked["doc"].to_numpy(),
            "start": 0,
            "end": 0,
        }
    )


def document_ideal(qrels: pd.DataFrame, rel_level: int = 1) -> pd.DataFrame:
    """Ideal elements of TREC qrels (``topic, doc, rel``): documents judged at ``rel_level`` or
    above, each a whole document. Returns ``IDEAL_COLUMNS``."""
    relevant = qrels[qrels["rel"] >= rel_level]
    return pd.DataFrame(
        {
            "topic": relevant["topic"].to_numpy(),
            "element": relevant["doc"].to_numpy(),
            "file": relevant["doc"].to_numpy(),
            "start": 0,
            "end": 0,
        }
    )
