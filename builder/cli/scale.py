"""How the evaluate stage runs, for ``evaluate`` and ``build``: in batches under a memory budget,
or on a Dask cluster; the results are the same."""

from __future__ import annotations

import argparse

from builder.cli.flags import add_model_flags, model_flags
from builder.config.schema import SiteConfig


def add_scale_arguments(parser: argparse.ArgumentParser) -> None:
    """``--memory-budget`` (the config's ``memory_budget``) and ``--scheduler``: how the
    evaluate stage runs (same results)."""
    add_model_flags(parser, model_flags({"config": SiteConfig}), ["config"])
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="evaluate the batches of runs on the Dask distributed cluster of this scheduler "
             "(tcp://host:8786); needs pip install 'appendix[distributed]'")


def scale_of(args: argparse.Namespace, extras: bool, overlap: bool = False):
    """The ``Scale`` of the evaluate stage the options ask for, with the command's ``extras``
    and ``overlap`` (ValueError: a bad size, or Dask missing for ``--scheduler``)."""
    from builder.config.sizes import parse_size
    from builder.pipeline.execution.cluster import dask_client
    from builder.pipeline.model import Scale

    budget = None if args.memory_budget is None else parse_size(args.memory_budget)
    if args.scheduler is not None:
        dask_client()  # says now, before reading anything, that Dask is missing
    return Scale(budget, args.scheduler, extras, overlap)
