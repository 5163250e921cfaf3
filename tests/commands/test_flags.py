"""Flags made from the options models: a field that declares a flag is an argument, with its
type, choices and help; the flag sets that field of the chosen kind's options, or is an error."""

from __future__ import annotations

import argparse
import typing
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from builder.cli.flags import add_model_flags, model_flags
from builder.cli.task_options import add_task_arguments, build_options, task_flags
from builder.config.flags import Flag
from builder.tasks.options import KIND_OPTIONS
from builder.tasks.options.adhoc import AdhocOptions
from builder.tasks.options.passages import EprumOptions, FocusedOptions


class Bowl(BaseModel):
    size: Annotated[int, Flag("-s")] = Field(3, description="Spoons of soup.")
    taste: Annotated[Literal["salt", "sweet"], Flag("--taste")] = Field("salt", description="x")
    hot: Annotated[bool, Flag("--hot", off="--cold", off_help="Served cold.")] = Field(
        True, description="Served hot.")
    lid: Annotated[Path | None, Flag("--lid", metavar="DIR")] = None
    note: str = ""


class Plate(BaseModel):
    hot: Annotated[bool, Flag("--hot", off="--cold", off_help="Served cold.")] = Field(
        False, description="Warmed.")


def _parser(models: dict[str, type[BaseModel]]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_model_flags(parser, model_flags(models), list(models))
    return parser


def test_a_field_with_a_flag_is_an_argument_of_its_type_and_choices() -> None:
    parser = _parser({"bowl": Bowl})
    args = parser.parse_args(["-s", "5", "--taste", "sweet", "--cold", "--lid", "x"])
    assert (args.size, args.taste, args.hot, args.lid) == (5, "sweet", False, Path("x"))
    assert vars(parser.parse_args([])) == {"size": None, "taste": None, "hot": None, "lid": None}
    with pytest.raises(SystemExit):
        parser.parse_args(["--taste", "sour"])
    with pytest.raises(SystemExit):
        parser.parse_args(["--hot", "--cold"])


def test_the_help_is_the_description_then_who_has_the_flag_and_its_default() -> None:
    text = " ".join(_parser({"bowl": Bowl, "plate": Plate}).format_help().split())
    assert "-s SIZE spoons of soup (--task bowl; default 3)" in text
    assert "--hot served hot (default for --task bowl)" in text
    assert "--cold served cold (default for the others)" in text
    assert "--lid DIR" in text and "--note" not in text


def test_a_flag_several_models_declare_is_one_argument() -> None:
    (hot,) = [known for known in model_flags({"bowl": Bowl, "plate": Plate}) if known.key == "hot"]
    assert hot.owners == {"bowl": True, "plate": False}


def test_one_flag_on_two_different_fields_is_refused() -> None:
    class Cup(BaseModel):
        volume: Annotated[int, Flag("-s")] = 1

    with pytest.raises(ValueError, match="flag -s"):
        model_flags({"bowl": Bowl, "cup": Cup})


def test_every_flag_of_the_kinds_is_an_argument_of_the_commands() -> None:
    parser = argparse.ArgumentParser()
    add_task_arguments(parser)
    options = {name: action for action in parser._actions for name in action.option_strings}
    for known in task_flags():
        action = options[known.flag.names[0]]
        assert action.dest == known.key
        if typing.get_origin(known.info.annotation) is Literal:
            assert tuple(action.choices) == typing.get_args(known.info.annotation)
    assert {known.flag.spelling for known in task_flags()} >= {
        "-M", "-l", "-c/--no-complete", "--interpolation", "--profile", "-J", "-N", "--reading",
        "--model", "--corpus"}


def test_a_flag_sets_the_field_that_declares_it_in_the_chosen_kind() -> None:
    parser = argparse.ArgumentParser()
    add_task_arguments(parser)
    args = parser.parse_args(["-M", "5", "--no-complete", "--profile", "10.0"])
    options = build_options(AdhocOptions, args)
    assert (options.depth, options.complete, options.interpolation) == (5, False, "lround")
    assert build_options(FocusedOptions, parser.parse_args(["-c"])).complete is True
    assert build_options(EprumOptions, parser.parse_args(["--model", "distance"])).model == "distance"
    with pytest.raises(ValueError, match="option -l does not apply to this task kind; its "
                                         "options: run_names, model"):
        build_options(EprumOptions, parser.parse_args(["-l", "2"]))


def test_every_kind_has_the_flags_its_options_declare() -> None:
    owners = {known.flag.spelling: set(known.owners) for known in task_flags()}
    # The kinds that read TREC runs and qrels share trec_eval's -M, -l and --reading.
    for trec_flag in ("-M", "-l", "--reading"):
        assert owners[trec_flag] == {"adhoc", "eprum-documents"}
    assert owners["--corpus"] == set(KIND_OPTIONS) - {"adhoc", "eprum-documents"}
    assert owners["-c/--no-complete"] == set(KIND_OPTIONS) - {"eprum", "eprum-documents"}
