"""The ad hoc kind's options: trec_eval's options that change ad hoc scores, as a
``site_config.yml`` task's ``options`` and the commands' flags and ``-o KEY=VALUE`` give them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from builder.measures.adhoc.interpolation import Interpolation
from builder.measures.adhoc.trec_eval.params import AdhocParams
from builder.measures.adhoc.trec_eval.profiles import ProfileName, profile_of
from builder.tasks.naming import RunNamingOptions


class AdhocOptions(RunNamingOptions):
    """trec_eval's options that change ad hoc scores."""

    model_config = ConfigDict(extra="forbid")

    depth: int = Field(1000, ge=1, description="Documents kept per topic after sorting (-M).")
    rel_level: int = Field(1, description="Least relevance value counted relevant (-l).")
    complete: bool = Field(
        True, description="Average over all qrels topics, missing ones scoring 0 (-c)."
    )
    interpolation: Interpolation = Field(
        "exact",
        description="Recall cutoff rounding: exact ceil, trec_eval_9 or lround (10.0); "
        "set by the profile unless given.",
    )
    profile: ProfileName | None = Field(
        None,
        description="The trec_eval release reproduced: 8.1, 9.0.8, 9.0.8-float or 10.0 "
        "(interpolation, score precision, topics printed); none = the appendices' rules.",
    )
    parameters: dict[str, str] = Field(
        default_factory=dict,
        description="trec_eval measure parameters per family, e.g. {P: '5,7', rbp: 'p=0.95'}.",
    )
    judged_only: bool = Field(
        False, description="Drop unjudged documents from each ranking before scoring (-J)."
    )
    collection_size: int = Field(
        0, ge=0, description="Documents in the collection (-N): utility's d, the ROC curve."
    )
    reading: Literal["strict", "atof"] = Field(
        "strict",
        description="How scores and relevance values that are not numbers are read: strict, "
        "an error naming the line; atof, as trec_eval reads them (1.5abc is 1.5, 0x1A 26, "
        "relevance abc 0), a warning each.",
    )

    @model_validator(mode="before")
    @classmethod
    def _profile_interpolation(cls, values: Any) -> Any:
        """A profile sets the interpolation unless it is given too."""
        if isinstance(values, dict) and values.get("profile") and "interpolation" not in values:
            values = {**values, "interpolation": profile_of(values["profile"]).interpolation}
        return values

    @field_validator("parameters")
    @classmethod
    def _known_parameters(cls, given: dict[str, str]) -> dict[str, str]:
        AdhocParams.of(given)
        return given

    @property
    def measure_params(self) -> AdhocParams:
        return AdhocParams.of(self.parameters)
