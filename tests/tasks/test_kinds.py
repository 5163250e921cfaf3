"""The table of task kinds: each kind names its module and family, and the site draws its runs."""

from __future__ import annotations

import pytest

from builder.measures.registry import families
from builder.site.runs import page_model
from builder.tasks import KIND_MODULES, get_kind


@pytest.mark.parametrize("name", sorted(KIND_MODULES))
def test_each_kind_is_complete(name: str) -> None:
    kind = get_kind(name)
    assert kind.name == name
    assert kind.family in families()
    assert callable(page_model(kind.name).run_pages)


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: adhoc, focused"):
        get_kind("xml")
