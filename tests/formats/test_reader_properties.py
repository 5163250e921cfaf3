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
from hypothesis import strategies as st
from reader_cases import READERS, contents, read_bytes_as

EXAMPLES = 200


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(READERS))
def test_reader_under_tight_limits_raises_only_input_errors(name: str) -> None:
    """The same property with every input limit tight and the content gzipped half the time,
    so that the refusals of a line, a field, a name, a nesting and a gunzipped size beyond
    the limits (``builder.formats.limits``) are reached by every reader."""
    import gzip

    from builder.formats.limits import InputLimits, use_limits

    reader = READERS[name]
    tight = InputLimits(line=60, field=12, name=6, nesting=3, decompressed=1500)

    @settings(max_examples=EXAMPLES // 4, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(contents(reader), st.booleans())
    def property_holds(content: bytes, packed: bool) -> None:
        read_bytes_as(reader, gzip.compress(content) if packed else content)

    with use_limits(tight):
        property_holds()
