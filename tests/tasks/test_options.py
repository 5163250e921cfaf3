"""The kinds' options: one model per kind, light to import, naming what the measures compute."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest

from builder.tasks import KIND_MODULES, get_kind
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.adhoc import AdhocOptions, Interpolation, ProfileName
from builder.tasks.options.passages import EprumOptions, RelevantInContextOptions, UserModel


def test_every_kind_takes_its_options_from_the_table() -> None:
    assert list(KIND_OPTIONS) == list(KIND_MODULES)
    assert {name: get_kind(name).options_model for name in KIND_MODULES} == KIND_OPTIONS


def test_the_options_import_neither_pandas_nor_the_measures() -> None:
    code = ("import sys; import builder.tasks.options; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'numpy') "
            "or m.startswith('builder.measures')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_choices_are_those_the_measures_compute() -> None:
    from builder.measures.adhoc import interpolation
    from builder.measures.adhoc.trec_eval.profiles import PROFILES
    from builder.measures.eprum.models import ModelName

    assert typing.get_args(Interpolation) == typing.get_args(interpolation.Interpolation)
    assert typing.get_args(ProfileName) == tuple(PROFILES)
    assert typing.get_args(UserModel) == typing.get_args(ModelName)


def test_the_defaults_the_measures_own_are_theirs() -> None:
    from builder.measures.eprum.models import DEFAULT_THETA
    from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT
    from builder.measures.inex.in_context.generalized_precision import RANKS

    eprum = EprumOptions()
    assert (eprum.theta, eprum.exact_limit) == (DEFAULT_THETA, DEFAULT_EXACT_LIMIT)
    assert RelevantInContextOptions().ranks == RANKS


@pytest.mark.parametrize("profile", typing.get_args(ProfileName))
def test_a_profile_sets_the_interpolation_unless_given(profile: str) -> None:
    from builder.measures.adhoc.trec_eval.profiles import profile_of

    assert AdhocOptions(profile=profile).interpolation == profile_of(profile).interpolation
    assert AdhocOptions(profile=profile, interpolation="exact").interpolation == "exact"
