"""The light reader of plainly clean run files (``builder.formats.trec.clean_run``) against the
full reader: whatever the bytes, it reads nothing, or exactly what the full reader reads from
a file in which the full reader finds nothing to report; and each kind of defect the full
reader reports sends the file to the full reader."""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_cases import READERS, mutated

from builder.findings import InputError
from builder.formats.limits import InputLimits, use_limits
from builder.formats.trec.clean_run import read_clean_run
from builder.formats.trec.run import read_trec_run
from tests.formats.run_defects import CLEAN, DEFECTS, ODDITIES


def same_as_full_reader(path: Path) -> bool:
    """Whether the light reader's rows and tags are the full reader's, and the full reader
    found nothing to report (False when the light reader read nothing)."""
    clean = read_clean_run(path)
    if clean is None:
        return False
    full = read_trec_run(path)
    assert full.findings == [] and full.table is not None
    assert clean.table["topic"].astype(str).tolist() == full.table["topic"].astype(str).tolist()
    assert clean.table["doc"].tolist() == full.table["doc"].tolist()
    assert np.array_equal(clean.table["score"].to_numpy(), full.table["score"].to_numpy())
    assert set(clean.tags) == set(full.table["tag"].astype(str))
    return True


def test_a_clean_file_is_read_as_the_full_reader_reads_it(tmp_path: Path) -> None:
    for name, data in (("plain.txt", CLEAN), ("tabs.txt", CLEAN.replace(b" ", b"\t")),
                       ("packed.gz", gzip.compress(CLEAN)),
                       ("crlf.txt", CLEAN.replace(b"\n", b"\r\n")),
                       ("no-last-end.txt", CLEAN.rstrip(b"\n"))):
        (tmp_path / name).write_bytes(data)
        assert same_as_full_reader(tmp_path / name), name



@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_each_defect_is_left_to_the_full_reader_which_reports_it(tmp_path: Path,
                                                                  defect: str) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(DEFECTS[defect])
    assert read_clean_run(path) is None
    try:
        assert read_trec_run(path).findings[0].line == 4
    except InputError as error:
        assert error.findings[0].line == 4


@pytest.mark.parametrize("oddity", sorted(ODDITIES))
def test_each_oddity_is_left_to_the_full_reader(tmp_path: Path, oddity: str) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(ODDITIES[oddity])
    assert read_clean_run(path) is None
    assert read_trec_run(path).findings == []


def test_names_and_docnos_beyond_the_limits_send_the_file_to_the_full_reader(
        tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    for data in (CLEAN + b"3 Q0 d9 1 1 tagALonger\n", CLEAN + b"3 Q0 d123456789 1 1 tagA\n",
                 CLEAN + b"333333333 Q0 d9 1 1 tagA\n"):
        path.write_bytes(data)
        with use_limits(InputLimits(name=8, field=8)):
            assert read_clean_run(path) is None
            assert read_trec_run(path).table is None  # refused whole, each line named


@pytest.mark.slow
def test_whatever_the_bytes_the_light_reader_reads_nothing_or_what_the_full_reader_reads(
        ) -> None:
    """Mutated real lines (blanks, line ends, comments, number spellings, bytes that are
    not UTF-8 inserted; lines dropped, repeated, cut), gzipped half the time: some are
    read by the light reader, as the full reader reads them, some left to the full one."""
    outcomes: set[bool] = set()

    @settings(max_examples=200, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(mutated(READERS["trec-run"].lines), st.booleans())
    def property_holds(content: bytes, packed: bool) -> None:
        with tempfile.TemporaryDirectory(prefix="clean-run-") as folder:
            path = Path(folder) / READERS["trec-run"].file_name
            path.write_bytes(gzip.compress(content) if packed else content)
            outcomes.add(same_as_full_reader(path))

    property_holds()
    assert outcomes == {True, False}
