"""Differential benchmark: thousands of random campaigns scored by inex_eval 3.1 (the jar,
run with java) and by us, agreement counts printed per measure and task.

    python benchmarks/bench_inex_differential.py [--campaigns 2000] [--batch 250] [--split 200]
        [--foreign 100]

The campaigns are the differential test's (``tests/oracle/test_differential_inex_eval.py``):
judged and unjudged articles, passages past the article's end, unknown offsets, a topic
absent from the qrels, overlapping and nested passages for the thorough task, topics without
relevant text; best in context gets one entry point per article. ``--batch`` campaigns are
renumbered into one qrels file and one run (topic ``campaign * 100 + topic``), so one java
start scores them all; their per-topic values are compared. A row agrees when both values
are within 1e-9 or both are NaN (inex_eval's NaN of a topic without relevant text is compared
with our option ``no_relevant_text: nan``). ``--show N`` prints the first N disagreeing values
with their campaign (seed = topic // 100), to replay with ``campaign_text``. ``--split N``
scores N more campaigns of the in-context tasks whose first topics' lines are cut in two
around the next topic's, one program run each (inex_eval stops on the whole run when such a
topic trips it), and counts the campaigns it scores, those it stops on, and the values, the
``all`` rows included. ``--foreign N`` scores N campaigns of every task whose run shares no
topic with the qrels (every other one with ``-c``), one program run each, every row compared.
Kinds: focused (-f), thorough (-t), relevant in context (-r), restricted relevant in context
(-i), best in context (-b).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.oracle.inex_eval_program import compared, inex_eval, ours
from tests.oracle.test_differential_inex_eval import campaign_text

KINDS = ["focused", "thorough", "relevant-in-context", "restricted-relevant-in-context",
         "best-in-context"]
IN_CONTEXT = KINDS[2:]


def renumbered(text: str, campaign: int) -> list[str]:
    """The lines of one campaign with topic t renamed campaign * 100 + t."""
    lines = []
    for line in text.splitlines():
        topic, rest = line.split(" ", 1)
        lines.append(f"{campaign * 100 + int(topic)} {rest}")
    return lines


def batch(kind: str, seeds: range, folder: Path) -> pd.DataFrame:
    """Official and our rows of the campaigns ``seeds``, scored in one program run."""
    qrels, run = [], []
    for seed in seeds:
        q, r = campaign_text(seed, overlapping=kind == "thorough", empty_topics=seed % 4 == 0,
                             entry_points=kind == "best-in-context")
        qrels += renumbered(q, seed)
        run += renumbered(r, seed)
    (folder / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (folder / "run.txt").write_text("\n".join(run) + "\n")
    official = inex_eval(kind, folder / "qrels.txt", folder / "run.txt")
    official = official[~official["measure"].str.startswith("iP[") | (kind in ("focused", "thorough"))]
    scores, _ = ours(kind, folder / "qrels.txt", folder / "run.txt", no_relevant_text="nan")
    return compared(official[official["topic"] != "all"], scores)


def single_campaigns(kind: str, count: int, folder: Path, label: str, **options) -> None:
    """Campaigns scored one program run each (``options``: ``campaign_text``'s ``split`` or
    ``foreign``; ``foreign`` alternates ``-c``): outcomes and agreeing values, every row."""
    outcomes = {"scored": 0, "index error": 0, "refused": 0}
    agree = values = 0
    for seed in range(count):
        complete = bool(options.get("foreign")) and seed % 2 == 1
        qrels_text, run_text = campaign_text(seed, overlapping=kind == "thorough",
                                             entry_points=kind == "best-in-context",
                                             empty_topics=seed % 4 == 0, **options)
        (folder / "qrels.txt").write_text(qrels_text)
        (folder / "run.txt").write_text(run_text)
        try:
            official = inex_eval(kind, folder / "qrels.txt", folder / "run.txt", complete)
        except subprocess.CalledProcessError:
            outcomes["index error"] += 1
            continue
        if kind in IN_CONTEXT:
            official = official[~official["measure"].str.startswith("iP[")]
        if official.empty:
            outcomes["refused"] += 1
            continue
        outcomes["scored"] += 1
        scores, _ = ours(kind, folder / "qrels.txt", folder / "run.txt", no_relevant_text="nan",
                         complete=complete)
        table = compared(official, scores)
        values += len(table)
        agree += int(np.isclose(table["value"], table["official"], rtol=0, atol=1e-9,
                                equal_nan=True).sum())
    print(f"{kind}, {label}: {count} campaigns, inex_eval " + ", ".join(
        f"{what} {n}" for what, n in outcomes.items()) + f"; {agree} / {values} values agree")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--kinds", nargs="*", default=KINDS)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--split", type=int, default=0)
    parser.add_argument("--foreign", type=int, default=0)
    args = parser.parse_args()
    for kind in args.kinds:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            table = pd.concat(
                [batch(kind, range(s, min(s + args.batch, args.campaigns)), Path(tmp))
                 for s in range(0, args.campaigns, args.batch)], ignore_index=True)
        table["agree"] = np.isclose(table["value"], table["official"], rtol=0, atol=1e-9,
                                    equal_nan=True)
        family = table["measure"].str.replace(r"\[.*\]$", "[r]", regex=True)
        counts = table.groupby(family)["agree"].agg(["sum", "size"])
        print(f"{kind}: {args.campaigns} campaigns, {len(table)} per-topic values, "
              f"{int(table['agree'].sum())} agree ({time.perf_counter() - start:.1f} s)")
        for measure, row in counts.iterrows():
            print(f"  {measure:<14} {int(row['sum']):>7} / {int(row['size'])}")
        if args.show:
            print(table[~table["agree"]].head(args.show).to_string())
        with tempfile.TemporaryDirectory() as tmp:
            if args.split and kind in IN_CONTEXT:
                single_campaigns(kind, args.split, Path(tmp), "split topics", split=True)
            if args.foreign:
                single_campaigns(kind, args.foreign, Path(tmp), "no topic in the qrels",
                                 foreign=True)


if __name__ == "__main__":
    main()
