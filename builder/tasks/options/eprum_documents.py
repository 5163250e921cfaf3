"""The options of the EPRUM task over TREC runs and graded qrels (``eprum-documents``): the
ad hoc kind's reading of runs and qrels (``-M``, ``-l``, ``--reading``), and EPRUM's own."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field

from builder.tasks.naming import RunNamingOptions
from builder.tasks.options.adhoc import READING_FIELD, Depth, Reading, RelLevel
from builder.tasks.options.passages import EXACT_LIMIT_FIELD


class EprumDocumentsOptions(RunNamingOptions):
    """Options of the ``eprum-documents`` task (``site_config.yml`` task ``options``, ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    depth: Depth = Field(1000, ge=1, description="Documents kept per topic after sorting (as "
                         "trec_eval -M).")
    rel_level: RelLevel = Field(1, description="Least grade of an ideal document (as trec_eval "
                                "-l).")
    grades: dict[int, Annotated[float, Field(ge=0, le=1)]] | None = Field(
        None, description="P(x in I), the share of users who regard a document of each grade "
        "as ideal, e.g. {1: 0.5, 2: 1}; a grade not named is not ideal. Default: grade / the "
        "highest grade of the qrels.")
    exact_limit: int = EXACT_LIMIT_FIELD
    reading: Reading = READING_FIELD
