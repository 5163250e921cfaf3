"""Property: no file makes a reader fail with anything but the project's own ``InputError``.

For every reader of a user's file (TREC run, TREC qrels, FOL run, INEX qrels, TREC / XML /
INEX topics, run metadata CSV and YAML, config, the element runs of the INEX tasks (TREC-like
and INEX XML submissions, read and resolved over a small corpus), INEX 2005 element
assessments, EPRUM navigation tables), random bytes and mutated real lines are read
(``reader_cases``). A few hundred examples per reader here, derandomised so the suite is
stable; ``benchmarks/bench_readers_fuzz.py`` runs 10,000 per reader at random.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from reader_cases import READERS, contents, read_bytes_as

EXAMPLES = 200


@pytest.mark.parametrize("name", sorted(READERS))
def test_reader_raises_only_input_errors(name: str) -> None:
    reader = READERS[name]
    outcomes: set[str] = set()

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(contents(reader))
    def property_holds(content: bytes) -> None:
        outcomes.add(read_bytes_as(reader, content))

    property_holds()  # raises the first other exception hypothesis finds, shrunk
    assert "read" in outcomes  # the mutated real lines are not all refused
