"""The options of the EPRUM task over TREC runs and graded qrels (``eprum-documents``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from builder.tasks.naming import RunNamingOptions


def _exact_limit() -> int:
    from builder.measures.eprum.precision_recall import DEFAULT_EXACT_LIMIT

    return DEFAULT_EXACT_LIMIT


class EprumDocumentsOptions(RunNamingOptions):
    """Options of the ``eprum-documents`` task (``site_config.yml`` task ``options``, ``-o``)."""

    model_config = ConfigDict(extra="forbid")

    depth: int = Field(1000, ge=1, description="Documents kept per topic after sorting (as "
                       "trec_eval -M).")
    rel_level: int = Field(1, description="Least grade of an ideal document (as trec_eval -l).")
    grades: dict[int, Annotated[float, Field(ge=0, le=1)]] | None = Field(
        None, description="P(x in I), the share of users who regard a document of each grade "
        "as ideal, e.g. {1: 0.5, 2: 1}; a grade not named is not ideal. Default: grade / the "
        "highest grade of the qrels.")
    exact_limit: int = Field(
        default_factory=_exact_limit, ge=0,
        description="Exact law of F_k up to this many uncertain elements, normal law above.")
    reading: Literal["strict", "atof"] = Field(
        "strict", description="How scores and relevance values that are not numbers are read: "
        "strict, or as trec_eval's atof.")
