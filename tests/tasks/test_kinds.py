"""The table of task kinds: each kind names its module, family, page model and demo writer."""

from __future__ import annotations

import importlib

import pytest

from builder.measures.registry import families
from builder.tasks import KIND_MODULES, get_kind


@pytest.mark.parametrize("name", sorted(KIND_MODULES))
def test_each_kind_is_complete(name: str) -> None:
    kind = get_kind(name)
    assert kind.name == name
    assert kind.family in families()
    assert callable(importlib.import_module(kind.page_model).run_pages)
    if kind.demo:  # a kind may have no demo inputs of its own
        assert callable(importlib.import_module(kind.demo).write)


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: adhoc, focused"):
        get_kind("xml")
