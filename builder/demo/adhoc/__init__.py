"""The demo campaign's ad hoc task: qrels, topics, runs and run metadata, generated from a seed.

Relevance is simulated per topic: R relevant documents (grade 1 or 2), about 2R+80 judged
non-relevant ones from the pool, and unjudged documents to fill the rankings. A run scores each
candidate document as ``signal * difficulty(topic) * gain(doc) + noise`` (see
``builder.demo.adhoc.runs``) and keeps the best ``depth``.

Reproducible to the byte on any machine: only uniform draws (``Generator.random``, whose stream
numpy keeps fixed for a bit generator) and additions, no transcendental functions whose last bit
may differ between CPUs; noise is a centred sum of four uniforms (Irwin-Hall).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from builder.demo.adhoc.runs import RUNS, TEAMS, DemoRun
from builder.demo.adhoc.topics import FIRST_TOPIC, TOPICS

SEED = 20240401
DAYS, DOCS_PER_DAY = 1008, 50
UNJUDGED_CANDIDATES = 1100
GAIN = np.array([0.0, 1.0, 1.6])
"""How strongly a document of grade 0, 1, 2 draws a system's score."""
JUDGED_NONRELEVANT_GAIN = 0.45
"""Judged non-relevant documents were pooled because systems ranked them high: they look relevant."""


def write(directory: Path) -> None:
    """Write ``qrels.txt``, ``topics.txt``, ``runs.csv`` and ``runs/<name>.txt`` into ``directory``."""
    (directory / "runs").mkdir(parents=True, exist_ok=True)
    collection = _pools(np.random.Generator(np.random.PCG64([SEED, 0])))
    _write_text(directory / "qrels.txt", _qrels_text(collection))
    _write_text(directory / "topics.txt", _topics_text())
    _write_text(directory / "runs.csv", _metadata_text())
    for index, run in enumerate(RUNS, start=1):
        rng = np.random.Generator(np.random.PCG64([SEED, index]))
        table = _ranking(run, collection, rng)
        text = _run_text(table, run)
        if run.flaw == "malformed":
            text = _malform(text, run.tag)
        elif run.flaw == "duplicates":
            text = _duplicate(text)
        _write_text(directory / "runs" / f"{run.file_stem}.txt", text)


def docnos() -> np.ndarray:
    """The collection's document numbers, ``AX<yyyymmdd>-<nnnn>``: 50 a day over 36 months."""
    day = np.arange(DAYS * DOCS_PER_DAY) // DOCS_PER_DAY
    serial = np.arange(DAYS * DOCS_PER_DAY) % DOCS_PER_DAY
    date = (1988 + day // 336) * 10000 + ((day % 336) // 28 + 1) * 100 + day % 28 + 1
    return np.char.add(np.char.add("AX", date.astype(str)),
                       np.char.add("-", np.char.zfill(serial.astype(str), 4)))


def _pools(rng: np.random.Generator) -> pd.DataFrame:
    """Per topic: relevant, judged non-relevant and unjudged candidate documents.

    Columns topic, doc (index into ``docnos()``), grade (-1 unjudged), difficulty (topic's).
    """
    frames = []
    for offset in range(len(TOPICS)):
        relevant = 4 + int(rng.random() ** 1.5 * 56)
        judged = 2 * relevant + 80
        size = relevant + judged + UNJUDGED_CANDIDATES
        docs = np.argsort(rng.random(DAYS * DOCS_PER_DAY), kind="stable")[:size]
        grade = np.full(size, -1)
        grade[:relevant] = np.where(rng.random(relevant) < 0.35, 2, 1)
        grade[relevant:relevant + judged] = 0
        frames.append(pd.DataFrame({
            "topic": FIRST_TOPIC + offset, "doc": docs, "grade": grade,
            "difficulty": 0.4 + rng.random(),
        }))
    return pd.concat(frames, ignore_index=True)


def _ranking(run: DemoRun, pools: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """The run's ranked documents: columns topic, doc, score (unrounded), over all topics."""
    grade = pools["grade"].to_numpy()
    gain = np.where(grade > 0, GAIN[grade.clip(0)], np.where(grade == 0, JUDGED_NONRELEVANT_GAIN, 0))
    noise = (rng.random(len(pools)) + rng.random(len(pools)) + rng.random(len(pools))
             + rng.random(len(pools)) - 2.0) * np.sqrt(3.0)
    found = (grade <= 0) | (rng.random(len(pools)) < run.coverage)
    latent = run.signal * pools["difficulty"].to_numpy() * gain + noise
    ranked = pools.assign(latent=latent)[found & ~pools["topic"].isin(run.missing_topics)]
    ranked = ranked.sort_values(["topic", "latent"], ascending=[True, False], kind="stable")
    ranked = ranked.groupby("topic", sort=False).head(run.depth)
    return ranked[["topic", "doc", "latent"]].reset_index(drop=True)


def _scores(latent: np.ndarray, run: DemoRun) -> np.ndarray:
    """Latent scores printed the way the simulated system prints them."""
    if run.scale == "bm25":
        return 20.0 + 4.0 * latent
    if run.scale == "loglik":
        return -9.0 + 0.75 * latent
    return 0.55 + 0.06 * latent


def _run_text(table: pd.DataFrame, run: DemoRun) -> str:
    """TREC run lines ``qid Q0 docno rank score tag``; tied scores keep the system's own order."""
    lines = pd.DataFrame({
        "topic": table["topic"],
        "q0": "Q0",
        "docno": docnos()[table["doc"].to_numpy()],
        "rank": table.groupby("topic").cumcount() + 1,
        "score": np.round(_scores(table["latent"].to_numpy(), run), run.decimals),
        "tag": run.tag,
    })
    return lines.to_csv(sep=" ", header=False, index=False, lineterminator="\n",
                        float_format=f"%.{run.decimals}f")


def _malform(text: str, tag: str) -> str:
    """Damage three lines as a spreadsheet export would: 5 columns, 7 columns, a decimal comma."""
    lines = text.splitlines()
    lines[4] = lines[4].rsplit(" ", 1)[0]
    lines[260] = lines[260].replace(tag, f"{tag} v2")
    fields = lines[1210].split(" ")
    fields[4] = fields[4].replace(".", ",")
    lines[1210] = " ".join(fields)
    return "\n".join(lines) + "\n"


def _duplicate(text: str) -> str:
    """Repeat the docno of rank 3 at rank 9, in two topics, as a faulty fusion step would."""
    lines = text.splitlines()
    for first in (200, 1400):
        fields = lines[first + 8].split(" ")
        fields[2] = lines[first + 2].split(" ")[2]
        lines[first + 8] = " ".join(fields)
    return "\n".join(lines) + "\n"


def _qrels_text(pools: pd.DataFrame) -> str:
    """TREC qrels ``qid 0 docno grade``, judged documents only, sorted by topic and docno."""
    judged = pools[pools["grade"] >= 0]
    qrels = pd.DataFrame({
        "topic": judged["topic"], "iteration": 0,
        "docno": docnos()[judged["doc"].to_numpy()], "grade": judged["grade"],
    }).sort_values(["topic", "docno"], kind="stable")
    return qrels.to_csv(sep=" ", header=False, index=False, lineterminator="\n")


def _topics_text() -> str:
    """The topics in the TREC format (``<top>``, ``<num>``, ``<title>``, ``<desc>``, ``<narr>``)."""
    blocks = [
        f"<top>\n<num> Number: {FIRST_TOPIC + offset}\n<title> {title}\n"
        f"<desc> Description:\n{description}\n<narr> Narrative:\n{narrative}\n</top>\n"
        for offset, (title, description, narrative) in enumerate(TOPICS)
    ]
    return "\n".join(blocks)


def _metadata_text() -> str:
    """``runs.csv``: run, team, description, type (automatic or manual)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run", "team", "description", "type"])
    for run in RUNS:
        writer.writerow([run.tag, TEAMS[run.team], run.description, run.type])
    return out.getvalue()


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")
