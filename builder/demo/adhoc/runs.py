"""The demo ad hoc task's teams and runs: who submitted what, and how good each system is.

Each run is a simulated system: ``signal`` is how strongly its score separates relevant from
non-relevant documents (0 is a random ranking), ``coverage`` the share of the relevant documents
its first stage can find at all, ``decimals`` how its scores are rounded (few decimals make ties),
``scale`` the kind of score it prints (BM25-like, log-likelihood, cosine).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Scale = Literal["bm25", "loglik", "cosine"]
Flaw = Literal["", "malformed", "duplicates"]

TEAMS: dict[str, str] = {
    "nbu": "Northbridge University",
    "kestrel": "Kestrel Labs",
    "iris": "IRIS Group",
    "tamarind": "Tamarind Search",
    "lakeside": "Lakeside College",
}

ESCAPE_TAG = "<script>alert(1)</script>"
"""A valid run tag (no white space) that shows whether the site escapes text from runs."""


@dataclass(frozen=True)
class DemoRun:
    tag: str
    file_stem: str
    team: str
    type: Literal["automatic", "manual"]
    description: str
    signal: float
    coverage: float
    depth: int
    decimals: int
    scale: Scale
    missing_topics: tuple[int, ...] = ()
    flaw: Flaw = ""


RUNS: tuple[DemoRun, ...] = (
    DemoRun("nbuBM25", "nbuBM25", "nbu", "automatic",
            "BM25 (k1=0.9, b=0.4) on titles and descriptions, Porter stemming.",
            1.2, 0.80, 150, 4, "bm25"),
    DemoRun("nbuRM3", "nbuRM3", "nbu", "automatic",
            "BM25 followed by RM3 pseudo-relevance feedback (10 documents, 20 terms).",
            1.5, 0.88, 150, 4, "bm25"),
    DemoRun("nbuMonoT5", "nbuMonoT5", "nbu", "automatic",
            "The top 100 documents of nbuBM25 re-ranked by a monoT5 cross-encoder.",
            2.4, 0.80, 100, 4, "loglik"),
    DemoRun("kestrelDense", "kestrelDense", "kestrel", "automatic",
            "Dense retrieval with a bi-encoder fine-tuned on MS MARCO; cosine similarity.",
            1.7, 0.85, 200, 6, "cosine"),
    DemoRun("kestrelHybrid", "kestrelHybrid", "kestrel", "automatic",
            "Reciprocal rank fusion of kestrelDense and a BM25 run.",
            2.0, 0.92, 200, 4, "cosine"),
    DemoRun("kestrelTitle", "kestrelTitle", "kestrel", "automatic",
            "BM25 on topic titles only; scores rounded to two decimals.",
            1.0, 0.70, 100, 2, "bm25"),
    DemoRun("irisQL", "irisQL", "iris", "automatic",
            "Query likelihood with Dirichlet smoothing (mu=1000).",
            1.1, 0.78, 150, 4, "loglik"),
    DemoRun("irisQLprf", "irisQLprf", "iris", "automatic",
            "Query likelihood with relevance-model expansion.",
            1.4, 0.85, 150, 4, "loglik"),
    DemoRun("irisManual", "irisManual", "iris", "manual",
            "Queries written by a librarian after reading the narratives; several iterations.",
            2.8, 0.95, 200, 3, "bm25"),
    DemoRun("tamBase", "tamBase", "tamarind", "automatic",
            "TF-IDF vector space baseline; scores printed with one decimal, so many ties.",
            0.8, 0.70, 100, 1, "bm25"),
    DemoRun("tamNoStem", "tamNoStem", "tamarind", "automatic",
            "TF-IDF without stemming; returned nothing for topic 419.",
            0.6, 0.60, 100, 1, "bm25", missing_topics=(419,)),
    DemoRun("tamRandom", "tamRandom", "tamarind", "automatic",
            "Sanity check: documents drawn almost at random from the candidate pool.",
            0.1, 0.50, 100, 4, "bm25"),
    DemoRun("lakeLTR", "lakeLTR", "lakeside", "automatic",
            "LambdaMART over 40 lexical features, 1000 documents per topic.",
            1.9, 0.90, 1000, 4, "bm25"),
    DemoRun(ESCAPE_TAG, "lakeEscape", "lakeside", "automatic",
            "Sequential dependence model. Its tag checks that the site escapes text: "
            "<em>this is not emphasised</em> & neither is this.",
            1.3, 0.80, 100, 4, "loglik"),
    DemoRun("irisBroken", "irisBroken", "iris", "automatic",
            "Exported through a spreadsheet: some lines lost or gained a column, "
            "one score has a decimal comma.",
            1.2, 0.80, 100, 4, "loglik", flaw="malformed"),
    DemoRun("kestrelDup", "kestrelDup", "kestrel", "automatic",
            "A fusion run whose merge step kept some documents twice.",
            1.6, 0.85, 100, 4, "cosine", flaw="duplicates"),
)
