"""``appendix pool``: against trectools on TREC-COVID round 1, and against a brute force,
written here line by line in plain Python, on a small generated campaign with tied scores,
teams, several runs per team, judged documents left out and unreadable runs."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from builder.cli import main
from builder.stats.pools import union
from tests.formats.run_defects import CLEAN, DEFECTS

TOPICS = ["1", "2", "10"]
TEAMS = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B", "c1": "C"}


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main([str(a) for a in argv])
    return status, out.getvalue()


def pool_lines(text: str) -> dict[str, list[str]]:
    pool: dict[str, list[str]] = {}
    for line in text.splitlines():
        topic, doc = line.split(" ")
        pool.setdefault(topic, []).append(doc)
    return pool


# -- the brute force ---------------------------------------------------------------------

def read_run(path: Path) -> dict[str, list[tuple[float, str]]]:
    rankings: dict[str, list[tuple[float, str]]] = {}
    for line in path.read_text().splitlines():
        topic, _, doc, _, score, _ = line.split()
        rankings.setdefault(topic, []).append((float(score), doc))
    return rankings


def brute_top(path: Path, depth: int, excluded: set[tuple[str, str]]) -> dict[str, list[str]]:
    """trec_eval's order: score descending, then docno descending; judged documents out."""
    top = {}
    for topic, rows in read_run(path).items():
        ranked = sorted(rows, key=lambda row: (row[0], row[1]), reverse=True)
        top[topic] = [doc for _, doc in ranked if (topic, doc) not in excluded][:depth]
    return top


def brute_stats(tops: dict[str, dict[str, list[str]]], teams: dict[str, str],
                relevant: set[tuple[str, str]]) -> list[list[str]]:
    brought: dict[tuple[str, str], set[str]] = {}
    for run, top in tops.items():
        for topic, docs in top.items():
            for doc in docs:
                brought.setdefault((topic, doc), set()).add(teams.get(run, run))
    rows = []
    for run, top in tops.items():
        team = teams.get(run, run)
        mine = {(topic, doc) for topic, docs in top.items() for doc in docs}
        unique = {key for key in mine if brought[key] == {team}}
        rows.append([run, team, str(len(mine)), str(len(unique)), str(len(unique & relevant))])
    return rows


# -- the small campaign -----------------------------------------------------------------

@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """Six runs of three teams over 3 topics and 40 documents, scores drawn from few values
    (many ties, some straddling the cut), one run ranking from 0, qrels judging some documents
    (one with a negative grade: in the pool, not judged), an earlier round's qrels."""
    rng = random.Random(3)
    (tmp_path / "runs").mkdir()
    for run in TEAMS:
        lines = []
        for topic in TOPICS:
            docs = rng.sample([f"D{n:02d}" for n in range(40)], rng.randint(8, 30))
            for rank, doc in enumerate(docs):
                score = rng.choice([0.5, 1.0, 1.5, 2.0, 2.5])
                lines.append(f"{topic} Q0 {doc} {rank} {score} {run}")
        rng.shuffle(lines)
        (tmp_path / "runs" / f"{run}.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "runs" / "zz_broken.txt").write_text("1 Q0 D01 1 high zz\n")
    qrels, earlier = [], []
    for topic in TOPICS:
        for n in rng.sample(range(40), 25):
            qrels.append(f"{topic} 0 D{n:02d} {rng.choice([-1, 0, 0, 1, 2])}")
        for n in rng.sample(range(40), 6):
            earlier.append(f"{topic} 0 D{n:02d} {rng.choice([-1, 0, 1])}")
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (tmp_path / "earlier.txt").write_text("\n".join(earlier) + "\n")
    meta = ["run,team,priority"] + [f"{run},{team},{n}" for n, (run, team) in
                                    enumerate(reversed(TEAMS.items()))]
    (tmp_path / "runs.csv").write_text("\n".join(meta) + "\n")
    return tmp_path


def qrels_pairs(path: Path, at_least: int) -> set[tuple[str, str]]:
    pairs = set()
    for line in path.read_text().splitlines():
        topic, _, doc, rel = line.split()
        if int(rel) >= at_least:
            pairs.add((topic, doc))
    return pairs


@pytest.mark.parametrize("depth", [1, 5, 12])
@pytest.mark.parametrize("exclude", [False, True])
def test_stats_equal_the_brute_force(campaign: Path, depth: int, exclude: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(union, "MERGE_ROWS", 7)  # merged every few runs: batching is invisible
    runs = sorted((campaign / "runs").glob("*.txt"))
    extra = ["--exclude", campaign / "earlier.txt"] if exclude else []
    status, out = cli("pool", *runs, "--depth", depth, "--metadata", campaign / "runs.csv",
                      "--stats", "--qrels", campaign / "qrels.txt", *extra)
    assert status == 1  # the broken run is left out, the others pooled
    excluded = qrels_pairs(campaign / "earlier.txt", 0) if exclude else set()
    tops = {p.stem: brute_top(p, depth, excluded) for p in runs if p.stem in TEAMS}
    expected = brute_stats(tops, TEAMS, qrels_pairs(campaign / "qrels.txt", 1))
    lines = out.splitlines()
    assert lines[0].split("\t") == ["run", "team", "contributed", "unique", "unique_relevant"]
    assert [line.split("\t") for line in lines[1:]] == expected
    assert any(int(row[3]) for row in expected) and any(row[3] != row[2] for row in expected)

    status, out = cli("pool", *runs, "--depth", depth, *extra)
    pool = pool_lines(out)
    for topic in TOPICS:
        union_docs = {doc for top in tops.values() for doc in top.get(topic, [])}
        assert sorted(pool[topic]) == sorted(union_docs)
        best = {doc: min(top[topic].index(doc) + 1 for top in tops.values()
                         if doc in top.get(topic, [])) for doc in union_docs}
        assert [best[doc] for doc in pool[topic]] == sorted(best.values())
    assert list(pool) == sorted(TOPICS)


def test_teams_come_from_the_metadata_else_each_run_is_its_own(campaign: Path) -> None:
    runs = sorted((campaign / "runs").glob("[a-c]*.txt"))
    _, out = cli("pool", *runs, "--depth", 5, "--stats")
    tops = {p.stem: brute_top(p, 5, set()) for p in runs}
    own = brute_stats(tops, {}, set())
    assert [line.split("\t")[:4] for line in out.splitlines()[1:]] == [r[:4] for r in own]
    assert [line.split("\t")[4] for line in out.splitlines()[1:]] == [""] * len(runs)


def fused(tops: dict[str, dict[str, list[str]]], topic: str) -> dict[str, tuple[float, int]]:
    scores: dict[str, tuple[float, int]] = {}
    for top in tops.values():
        for rank, doc in enumerate(top.get(topic, []), 1):
            fusion, best = scores.get(doc, (0.0, rank))
            scores[doc] = (fusion + 1 / (60 + rank), min(best, rank))
    return scores


def test_take_and_fusion_budgets_equal_the_brute_force(campaign: Path) -> None:
    runs = sorted((campaign / "runs").glob("[a-c]*.txt"))
    _, out = cli("pool", *runs, "--strategy", "take", "--budget", 9)
    take = pool_lines(out)
    _, out = cli("pool", *runs, "--strategy", "rrf", "--budget", 9, "--depth", 15)
    rrf = pool_lines(out)
    tops9 = {p.stem: brute_top(p, 9, set()) for p in runs}
    tops15 = {p.stem: brute_top(p, 15, set()) for p in runs}
    for topic in TOPICS:
        by_best = fused(tops9, topic)
        # docno descending among full ties: written as a second stable sort
        expected = sorted(sorted(by_best, reverse=True),
                          key=lambda d: (by_best[d][1], -by_best[d][0]))[:9]
        assert take[topic] == expected
        by_fusion = fused(tops15, topic)
        expected = sorted(sorted(by_fusion, reverse=True),
                          key=lambda d: (-by_fusion[d][0], by_fusion[d][1]))[:9]
        assert rrf[topic] == expected


def test_shuffle_is_a_seeded_permutation_of_each_topic(campaign: Path) -> None:
    runs = sorted((campaign / "runs").glob("[a-c]*.txt"))
    plain = pool_lines(cli("pool", *runs, "--depth", 10)[1])
    first = pool_lines(cli("pool", *runs, "--depth", 10, "--shuffle", 5)[1])
    again = pool_lines(cli("pool", *runs, "--depth", 10, "--shuffle", 5)[1])
    other = pool_lines(cli("pool", *runs, "--depth", 10, "--shuffle", 6)[1])
    assert first == again and first != other and first != plain
    assert list(first) == list(plain)
    assert all(sorted(first[t]) == sorted(plain[t]) for t in plain)


def test_pooled_runs_follow_the_metadata(campaign: Path) -> None:
    runs = sorted((campaign / "runs").glob("[a-c]*.txt"))
    _, out = cli("pool", *runs, "--depth", 4, "--metadata", campaign / "runs.csv",
                 "--per-team", 1, "--stats")
    # priorities run 0 (c1) .. 5 (a1): the lowest of each team is its last listed run
    assert [line.split("\t")[0] for line in out.splitlines()[1:]] == ["a3", "b2", "c1"]
    (campaign / "marked.csv").write_text("run,team,pooled\na1,A,yes\nb1,B,no\nb2,B,yes\n")
    _, out = cli("pool", *runs, "--depth", 4, "--metadata", campaign / "marked.csv",
                 "--pooled", "marked", "--stats")
    assert [line.split("\t")[0] for line in out.splitlines()[1:]] == ["a1", "b2"]


@pytest.mark.parametrize("argv", [["--strategy", "take"], ["--budget", "5"],
                                  ["--per-team", "1"], ["--stats", "--strategy", "rrf",
                                                        "--budget", "3"], ["--depth", "0"]])
def test_arguments_that_do_not_go_together_exit_2(campaign: Path, argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("pool", campaign / "runs" / "a1.txt", *argv)[0] == 2
    assert "appendix pool: " in capsys.readouterr().err


# -- TREC-COVID round 1 against trectools --------------------------------------------------

@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")
def test_depth_100_pool_of_trec_covid_round_1_equals_trectools(shared_data: Path) -> None:
    """trectools' depth-k pool (``TrecPoolMaker.make_pool``, strategy ``topX``): the union of
    each run's ``head(k)`` per topic, its runs sorted by score descending. trectools breaks
    ties by docno ascending, trec_eval (and the pool, so that it agrees with the scores) by
    docno descending: trectools is given its runs in trec_eval's order, and the runs' many tied
    scores at rank 100 show the difference that order makes."""
    from trectools import TrecPoolMaker, TrecRun

    runs = sorted((shared_data / "trec_covid_round1" / "runs").glob("*.gz"))
    status, out = cli("pool", *runs, "--depth", 100)
    assert status == 0
    ours = {topic: set(docs) for topic, docs in pool_lines(out).items()}
    assert sum(len(docs) for docs in pool_lines(out).values()) == sum(map(len, ours.values()))

    read = [TrecRun(str(path)) for path in runs]
    as_given = TrecPoolMaker().make_pool(read, strategy="topX", topX=100).pool
    for run in read:
        run.run_data = run.run_data.sort_values(["query", "score", "docid"],
                                                ascending=[True, False, False])
    theirs = TrecPoolMaker().make_pool(read, strategy="topX", topX=100).pool
    assert {str(topic): set(docs) for topic, docs in theirs.items()} == ours
    assert len(ours) == 30 and sum(map(len, ours.values())) > 100_000
    assert {str(t): set(d) for t, d in as_given.items()} != ours  # ties at rank 100 matter


def test_a_run_file_that_cannot_be_read_exits_2_and_the_others_are_pooled(
        campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = cli("pool", campaign / "runs" / "a1.txt", campaign / "missing.txt",
                      "--depth", 3)
    assert status == 2
    assert "missing.txt: error: cannot read" in capsys.readouterr().err
    assert pool_lines(out) == {t: brute_top(campaign / "runs" / "a1.txt", 3, set())[t]
                               for t in sorted(TOPICS)}


def test_a_run_with_a_bad_line_or_a_docno_twice_is_left_out_with_its_line(
        campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The runs read by the light reader and those it leaves to the full reader (which says
    on which line and why) pool alike: a bad line or a document listed twice for a topic
    leaves its run out, as the evaluation rejects it, and the others are pooled."""
    a1 = campaign / "runs" / "a1.txt"
    lines = a1.read_text().splitlines()
    twice = campaign / "twice.txt"
    twice.write_text("\n".join(lines + [lines[0].replace("a1", "twice")]) + "\n")
    blank = campaign / "blank.txt"
    topic, _, doc, rank, score, _ = lines[1].split()
    blank.write_text("\n".join([lines[0], f"{topic}  {doc} {rank} {score} blank"]) + "\n")
    status, out = cli("pool", a1, twice, blank, "--depth", 3)
    assert status == 1
    errors = capsys.readouterr().err
    assert f"twice.txt:{len(lines) + 1}: error: document {lines[0].split()[2]} appears twice" \
        in errors
    assert "blank.txt:2: error: 5 fields, expected 6" in errors
    assert pool_lines(out) == {t: brute_top(a1, 3, set())[t] for t in sorted(TOPICS)}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_each_defect_the_full_reader_reports_reaches_the_user_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], defect: str) -> None:
    """A run the light reader leaves to the full reader is reported on its line 4, without a
    traceback: a warning keeps it in the pool (exit 0), an error leaves it out (exit 1), a
    file that cannot be read at all exits 2; the clean run beside it is pooled."""
    clean, bad = tmp_path / "clean.txt", tmp_path / "run.txt"
    clean.write_bytes(CLEAN.replace(b"tagA", b"tagB"))
    bad.write_bytes(DEFECTS[defect])
    status, out = cli("pool", clean, bad, "--depth", 5)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    finding = next(line for line in err.splitlines() if line.startswith(f"{bad}:"))
    severity = finding.removeprefix(f"{bad}:4: ").split(":")[0]
    assert severity in ("warning", "error"), finding
    pooled = set(pool_lines(out).get("2", []))
    if severity == "warning":
        assert status == 0 and "d9" in set(pool_lines(out)["3"])
    else:
        assert status == (2 if "UTF-8" in finding else 1) and "3" not in pool_lines(out)
    assert pooled == {"d1"}
