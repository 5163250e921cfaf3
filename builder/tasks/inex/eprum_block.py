"""The ``eprum_model`` option of the passage tasks (focused, thorough, in context): an EPRUM
block on their run pages, computed by ``builder.measures.eprum.passages`` beside the task's own
measures. The option is ``builder.tasks.options.passages.EprumBlockOptions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from builder.measures.eprum.passages import summary_of_passages

if TYPE_CHECKING:
    import pandas as pd

    from builder.formats.inex.qrels import InexQrels


def eprum_extras(qrels: InexQrels, runs: pd.DataFrame, options: BaseModel) -> dict[str, pd.DataFrame]:
    """``{"eprum": run, measure, value}`` (levels and avgP, means over topics) when the task's
    options name a user model, else nothing."""
    model = getattr(options, "eprum_model", None)
    if model is None:
        return {}
    return {"eprum": summary_of_passages(qrels, runs, model, options.eprum_theta)}
