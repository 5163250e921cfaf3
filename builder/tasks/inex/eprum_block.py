"""The ``eprum_model`` option of the passage tasks (focused, thorough, in context): an EPRUM
block on their run pages, computed by ``builder.measures.eprum.passages`` beside the task's own
measures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from builder.measures.eprum.models import DEFAULT_THETA
from builder.measures.eprum.passages import summary_of_passages

if TYPE_CHECKING:
    import pandas as pd

    from builder.formats.inex.qrels import InexQrels


class EprumBlockOptions(BaseModel):
    """The options a passage task adds to its own to show EPRUM on its run pages."""

    eprum_model: Literal["classical", "tree", "distance"] | None = Field(
        None, description="Also show EPRUM under this user model on the run pages (none: off)."
    )
    eprum_theta: float = Field(
        DEFAULT_THETA, gt=0, description="The distance user model's theta per character (EPRUM)."
    )


def eprum_extras(qrels: InexQrels, runs: pd.DataFrame, options: BaseModel) -> dict[str, pd.DataFrame]:
    """``{"eprum": run, measure, value}`` (levels and avgP, means over topics) when the task's
    options name a user model, else nothing."""
    model = getattr(options, "eprum_model", None)
    if model is None:
        return {}
    return {"eprum": summary_of_passages(qrels, runs, model, options.eprum_theta)}
