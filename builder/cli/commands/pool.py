"""``appendix pool RUN... --depth K``: the judgement pool of the runs, for the assessors.

Per topic, the union of the pooled runs' first K documents, each run ranked as the evaluation
ranks it (score descending, ties by docno descending: the pool and the scores agree on ties).
Printed one ``TOPIC DOCNO`` line per pooled document, grouped by topic (topics in string
order), each topic's documents by best rank over the pooled runs, or in a seeded random order
(``--shuffle``). ``--stats`` prints instead, per pooled run, ``run team contributed unique
unique_relevant``: the documents of its top K in the pool, those no run of another team put
there, and those of them the ``--qrels`` judge relevant.

Exit status: 0; 1 when a run has an error or takes a name already taken (it is left out, the
others are pooled); 2 on bad arguments, an unusable metadata or qrels file, or a run file that
cannot be read at all (as ``appendix evaluate``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DESCRIPTION = __doc__.split("\n\n", 1)[1].rsplit("\n\nExit status", 1)[0]
EXIT_STATUS = """\
  0    every run was pooled
  1    a run has an error or takes a name already taken: it is left out, the others pooled
  2    bad arguments, an unusable metadata or qrels file, or a run file that cannot be read"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""
EPILOG = """\
examples:
  appendix pool runs/nbu*.txt runs/lake*.txt --depth 20 > pool.txt
  appendix pool runs/*.txt --metadata runs.csv --per-team 1 --depth 50 > pool.txt
                                    the first run of each team; exit status 1: the runs
                                    with errors (irisBroken, kestrelDup) are left out
  appendix pool runs/nbu*.txt --strategy take --budget 30 --exclude qrels.txt --shuffle 7
                                    30 documents per topic not judged yet, in a random order
  appendix pool runs/nbu*.txt runs/lake*.txt --depth 20 --metadata runs.csv --stats --qrels qrels.txt"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from builder.cli.flags import add_config_argument
    from builder.stats.pools import RRF_K, STRATEGIES

    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="run files")
    add_config_argument(parser)
    parser.add_argument("--depth", "-k", type=int, default=100, metavar="K",
                        help="each run's first K documents per topic (default 100)")
    parser.add_argument("--strategy", choices=STRATEGIES, default="depth",
                        help="depth: every document of the union (default); take: a budget "
                        "per topic by best rank (Take@N); rrf: a budget per topic by "
                        f"reciprocal rank fusion (k={RRF_K})")
    parser.add_argument("--budget", type=int, metavar="N",
                        help="documents per topic for --strategy take or rrf (take reads the "
                        "runs to depth N)")
    parser.add_argument("--metadata", type=Path, metavar="FILE",
                        help="run metadata (CSV or YAML): columns run, team, pooled, priority")
    parser.add_argument("--pooled", choices=("all", "marked"), default="all",
                        help="pool every run given (default) or those the metadata marks "
                        "(its pooled column, else a priority)")
    parser.add_argument("--per-team", type=int, metavar="N",
                        help="at most N runs of each team, by the metadata's priority")
    parser.add_argument("--exclude", type=Path, metavar="QRELS",
                        help="leave out the documents these qrels judged (each ranking is "
                        "read past them: a run still brings K new documents)")
    parser.add_argument("--shuffle", type=int, metavar="SEED",
                        help="each topic's documents in a random order drawn from SEED, so "
                        "that assessors do not see the systems' order")
    parser.add_argument("--stats", action="store_true",
                        help="print per pooled run: run team contributed unique "
                        "unique_relevant (tab-separated)")
    parser.add_argument("--qrels", type=Path, metavar="QRELS",
                        help="with --stats: count the unique documents judged relevant")
    parser.add_argument("-l", dest="rel_level", type=int, default=1, metavar="LEVEL",
                        help="lowest relevance counted as relevant (default 1, trec_eval -l)")
    parser.add_argument("--run-names", choices=("tag", "file"), default="tag",
                        help="name runs by their tag (default) or file name")


def run(args: argparse.Namespace) -> int:
    from builder.findings import FindingCode, InputError, sort_findings
    from builder.formats.run_metadata import read_run_metadata
    from builder.stats.pools.ranking import judged_keys
    from builder.stats.pools.selection import is_pooled, teams_of
    from builder.stats.pools.union import PoolBuilder
    from builder.tasks.adhoc.pooling import pool_run_files
    from builder.tasks.adhoc.reading import read_qrels

    problem = _argument_problem(args)
    if problem:
        print(f"appendix pool: {problem}", file=sys.stderr)
        return 2
    try:
        metadata = read_run_metadata(args.metadata)[0] if args.metadata else None
        exclude = judged_keys(read_qrels(args.exclude)) if args.exclude else None
        qrels = read_qrels(args.qrels) if args.qrels else None
    except InputError as error:
        for finding in error.findings:
            print(finding.format(), file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"appendix pool: {error}", file=sys.stderr)
        return 2
    builder = PoolBuilder(teams=teams_of(metadata), keep_owners=args.stats)
    selected: dict[str, bool] = {}

    def pooled(run: str) -> bool:
        if run not in selected:
            selected.update(is_pooled([run], metadata, marked=args.pooled == "marked",
                                      per_team=args.per_team))
        return selected[run]

    depth = args.budget if args.strategy == "take" else args.depth
    findings = pool_run_files(args.runs, builder, depth, pooled=pooled, exclude=exclude,
                              run_names=args.run_names)
    for finding in sort_findings(findings):
        print(finding.format(), file=sys.stderr)
    out = sys.stdout
    if args.stats:
        relevant = None
        if qrels is not None:
            relevant = judged_keys(qrels[qrels["rel"].to_numpy() >= max(args.rel_level, 0)])
        table = builder.stats(relevant)
        out.write("run\tteam\tcontributed\tunique\tunique_relevant\n")
        out.writelines(f"{r.run}\t{r.team}\t{r.contributed}\t{r.unique}\t{r.unique_relevant}\n"
                       for r in table.itertuples(index=False))
    else:
        pool = builder.pool(args.strategy, args.budget, args.shuffle)
        out.write(pool_text(pool))
    if any(f.code == FindingCode.UNREADABLE for f in findings):
        return 2
    return 1 if any(f.severity == "error" for f in findings) else 0


def pool_text(pool) -> str:
    """``TOPIC DOCNO`` lines, joined by Arrow (no Python loop per document)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(pool):
        return ""
    lines = pc.binary_join_element_wise(pa.array(pool["topic"].array), pa.array(pool["doc"].array),
                                        pa.scalar(" ", pa.large_string()))
    return "\n".join(lines.to_pylist()) + "\n"


def _argument_problem(args: argparse.Namespace) -> str:
    """What is wrong with the arguments together ("" when nothing)."""
    if args.depth < 1:
        return "--depth must be at least 1"
    if args.strategy != "depth" and (args.budget is None or args.budget < 1):
        return f"--strategy {args.strategy} needs --budget N (N >= 1)"
    if args.strategy == "depth" and args.budget is not None:
        return "--budget applies to --strategy take or rrf"
    if args.stats and args.strategy != "depth":
        return ("--stats describes a depth-K pool (every run's first K documents); "
                "use --strategy depth")
    if args.qrels and not args.stats:
        return "--qrels is read with --stats"
    if args.stats and args.shuffle is not None:
        return "--shuffle orders the pool printed; --stats prints no pool"
    if (args.pooled == "marked" or args.per_team is not None) and args.metadata is None:
        return "--pooled marked and --per-team read the run metadata: give --metadata FILE"
    if args.per_team is not None and args.per_team < 1:
        return "--per-team must be at least 1"
    return ""
