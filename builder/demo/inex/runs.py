"""The demo INEX tasks' runs: who submitted what to the focused and in-context tasks.

Each run is a simulated system (see ``builder.demo.inex.passages``): ``signal`` is how well
its score separates relevant from non-relevant articles (0 is a random article ranking),
``focus`` how closely its passages follow the highlighted text (1 returns exactly the
highlighted passages, 0 passages far wider or beside them), ``depth`` how many results it
returns per topic (passages in the focused task, articles in the in-context tasks). ``mode``
is how it cuts passages: ``passages`` near the highlighted ones, ``article`` whole articles,
``start`` (best in context) the article's first character as the entry point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from builder.demo.adhoc.runs import TEAMS

Task = Literal["focused", "relevant-in-context", "best-in-context"]
Mode = Literal["passages", "article", "start"]
Flaw = Literal["", "overlap", "interleaved"]

INEX_TEAMS = {code: TEAMS[code] for code in ("nbu", "kestrel", "iris")}


@dataclass(frozen=True)
class InexRun:
    tag: str
    task: Task
    team: str
    type: Literal["automatic", "manual"]
    description: str
    signal: float
    focus: float
    depth: int
    mode: Mode = "passages"
    flaw: Flaw = ""

    @property
    def file_name(self) -> str:
        return f"{self.tag}.txt"


RUNS: tuple[InexRun, ...] = (
    InexRun("nbuFocArticle", "focused", "nbu", "automatic",
            "BM25 article ranking; each article returned whole as one passage.",
            1.6, 0.0, 40, mode="article"),
    InexRun("nbuFocSection", "focused", "nbu", "automatic",
            "BM25 over sections; the best sections of each article, ranked by section score.",
            1.6, 0.55, 120),
    InexRun("kestrelFocDense", "focused", "kestrel", "automatic",
            "Dense passage retrieval with a cross-encoder choosing passage boundaries.",
            2.6, 0.85, 120),
    InexRun("kestrelFocBM25", "focused", "kestrel", "automatic",
            "BM25 over fixed windows of 500 characters, adjacent windows merged.",
            1.3, 0.35, 100),
    InexRun("irisFocManual", "focused", "iris", "manual",
            "Passages chosen by a librarian from the top articles of a query likelihood run.",
            2.0, 0.95, 60),
    InexRun("irisFocRandom", "focused", "iris", "automatic",
            "Sanity check: random passages of articles drawn almost at random from the pool.",
            0.1, 0.1, 80),
    InexRun("kestrelFocFusion", "focused", "kestrel", "automatic",
            "Fusion of kestrelFocDense and kestrelFocBM25 that kept overlapping passages.",
            2.2, 0.7, 100, flaw="overlap"),
    InexRun("nbuRicSection", "relevant-in-context", "nbu", "automatic",
            "BM25 article ranking; in each article, the sections that match the query.",
            1.6, 0.55, 50),
    InexRun("nbuRicArticle", "relevant-in-context", "nbu", "automatic",
            "BM25 article ranking; each article returned whole.",
            1.6, 0.0, 50, mode="article"),
    InexRun("kestrelRicDense", "relevant-in-context", "kestrel", "automatic",
            "Dense article ranking; passages of each article chosen by a cross-encoder.",
            2.6, 0.85, 50),
    InexRun("irisRicQL", "relevant-in-context", "iris", "automatic",
            "Query likelihood article ranking; passages around the query terms.",
            1.1, 0.4, 40),
    InexRun("kestrelRicMerged", "relevant-in-context", "kestrel", "automatic",
            "A merge of two runs that ranked passages, not articles: articles come back later.",
            2.0, 0.7, 40, flaw="interleaved"),
    InexRun("nbuBicStart", "best-in-context", "nbu", "automatic",
            "BM25 article ranking; every article entered at its first character.",
            1.6, 0.0, 50, mode="start"),
    InexRun("kestrelBicDense", "best-in-context", "kestrel", "automatic",
            "Dense article ranking; entry point at the start of the best-scoring passage.",
            2.6, 0.85, 50),
    InexRun("irisBicQL", "best-in-context", "iris", "automatic",
            "Query likelihood article ranking; entry point at the first query term.",
            1.1, 0.8, 40),
    InexRun("irisBicRandom", "best-in-context", "iris", "automatic",
            "Sanity check: random articles of the pool, entered at a random character.",
            0.1, 0.0, 40),
)
"""Every run of the three INEX tasks; files are named after the tag."""


def runs_of(task: Task) -> tuple[InexRun, ...]:
    return tuple(run for run in RUNS if run.task == task)
