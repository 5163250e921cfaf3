"""``appendix evaluate`` and ``appendix validate`` end to end through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.cli import main

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n"
RUN_A = "1 Q0 a 1 3.0 alpha\n1 Q0 b 2 2.0 alpha\n1 Q0 c 3 1.0 alpha\n"
RUN_B = "1 Q0 c 1 3.0 beta\n2 Q0 a 1 1.0 beta\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, text in {"qrels": QRELS, "a": RUN_A, "b": RUN_B}.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_trec_format_is_trec_eval_layout(files, capsys):
    code, out, _ = run_cli(capsys, "evaluate", files["qrels"], files["a"])
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "runid                 \tall\talpha"
    assert "num_q                 \tall\t2" in lines
    assert "num_rel_ret           \tall\t2" in lines
    assert "map                   \tall\t0.4167" in lines  # topic 1: (1 + 2/3)/2, topic 2: 0
    assert not any(line.startswith("ndcg") for line in lines)  # not in trec_eval's default set


def test_per_topic_family_selection_and_complete_flag(files, capsys):
    _, out, _ = run_cli(
        capsys,
        "evaluate",
        "-q",
        "-m",
        "P.5",
        "-m",
        "success",
        "--no-complete",
        files["qrels"],
        files["a"],
    )
    assert out.splitlines() == [
        "P_5                   \t1\t0.4000",
        "success_1             \t1\t1.0000",
        "success_5             \t1\t1.0000",
        "success_10            \t1\t1.0000",
        # No runid line: trec_eval prints it only when asked (all_trec, set, no -m).
        "P_5                   \tall\t0.4000",
        "success_1             \tall\t1.0000",
        "success_5             \tall\t1.0000",
        "success_10            \tall\t1.0000",
    ]


def test_tsv_has_every_run_at_full_precision(files, capsys):
    _, out, _ = run_cli(
        capsys,
        "evaluate",
        "--format",
        "tsv",
        "-m",
        "map",
        "-M",
        "1",
        "-o",
        "rel_level=2",
        files["qrels"],
        files["a"],
        files["b"],
    )
    rows = {tuple(line.split("\t")[:3]): line.split("\t")[3] for line in out.splitlines()}
    assert rows[("alpha", "map", "1")] == "0.0"  # depth 1 keeps a, only c counts at level 2
    assert rows[("beta", "map", "1")] == "1.0"
    assert rows[("beta", "map", "all")] == "0.5"


def test_interpolation_flag_changes_the_recall_cutoff(capsys, tmp_path):
    qrels = tmp_path / "q3"
    qrels.write_text("1 0 r1 1\n1 0 r2 1\n1 0 r3 1\n")
    run = tmp_path / "r3"
    run.write_text("1 Q0 r1 1 9 t\n1 Q0 r2 2 8 t\n1 Q0 x 3 7 t\n1 Q0 y 4 6 t\n1 Q0 r3 5 5 t\n")
    values = {}
    for how in ("exact", "trec_eval_9"):
        _, out, _ = run_cli(
            capsys,
            "evaluate",
            "--format",
            "tsv",
            "-m",
            "iprec_at_recall_0.70",
            "--interpolation",
            how,
            qrels,
            run,
        )
        values[how] = float(out.splitlines()[0].split("\t")[3])
    # x = 0.7, R = 3: exact ceil(2.1) = 3rd relevant (rank 5, 3/5); trec_eval 9's
    # (long)(0.7 * 3 + 0.9) = 2 takes the 2nd (rank 2, 2/2).
    assert values == {"exact": 0.6, "trec_eval_9": 1.0}


def test_unknown_option_and_measure_exit_2(files, capsys):
    code, _, err = run_cli(capsys, "evaluate", "-o", "nope=1", files["qrels"], files["a"])
    assert code == 2 and "bad option" in err
    code, _, err = run_cli(capsys, "evaluate", "-m", "zzz", files["qrels"], files["a"])
    assert code == 2 and "unknown measure" in err


def test_validate_reports_findings_and_fails_on_error(files, capsys, tmp_path):
    bad = tmp_path / "bad"
    bad.write_text("1 Q0 a 1 3.0 t\n1 Q0 a 2 2.0 t\n1 Q0 b\n")
    code, out, _ = run_cli(capsys, "validate", "--qrels", files["qrels"], files["a"], bad)
    assert code == 1
    assert f"{bad}:2: error: document a appears twice for topic 1" in out
    assert f"{bad}:3: error: 3 fields, expected 6" in out
    code, out, _ = run_cli(capsys, "validate", "--qrels", files["qrels"], files["b"])
    assert code == 0 and out == ""


def test_rejected_run_does_not_stop_the_others(files, capsys, tmp_path):
    bad = tmp_path / "bad"
    bad.write_text("1 Q0 a 1 3.0 t\n1 Q0 a 2 2.0 t\n")
    code, out, err = run_cli(
        capsys, "evaluate", "--format", "tsv", "-m", "map", files["qrels"], bad, files["b"]
    )
    assert code == 1
    assert "appears twice" in err
    assert {line.split("\t")[0] for line in out.splitlines()} == {"beta"}
