"""The ad hoc kind's options: trec_eval's options that change ad hoc scores, as a
``site_config.yml`` task's ``options``, the commands' flags and ``-o KEY=VALUE`` give them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from builder.config.flags import Flag
from builder.tasks.naming import RunNamingOptions

if TYPE_CHECKING:
    from builder.measures.adhoc.trec_eval.params import AdhocParams

Interpolation = Literal["exact", "trec_eval_9", "lround"]
"""The recall cutoff roundings ``builder.measures.adhoc.interpolation`` computes (the measures
name the same three; a test holds them equal, as the command line offers them without importing
the measures)."""
ProfileName = Literal["8.1", "9.0.8", "9.0.8-float", "10.0"]
"""The trec_eval releases of ``builder.measures.adhoc.trec_eval.profiles.PROFILES``."""

EVERY_DOCUMENT = 2**31 - 1
"""The depth under a profile without ``-M``: trec_eval keeps every document of a topic."""
COMPLETE_FLAG = Flag("-c", "--complete", off="--no-complete",
                     off_help="Average over the topics each run answers.")
"""trec_eval's and inex_eval's ``-c``, a flag of every kind (``complete``)."""
Depth = Annotated[int, Flag("-M")]
RelLevel = Annotated[int, Flag("-l")]
Reading = Annotated[Literal["strict", "atof"], Flag("--reading")]
READING_FIELD = Field(
    "strict",
    description="How scores and relevance values that are not numbers are read: strict, "
    "an error naming the line; atof, as trec_eval reads them (1.5abc is 1.5, 0x1A 26, "
    "relevance abc 0), a warning each.",
)
"""The options, and their flags, of every kind that reads TREC runs and qrels (``adhoc``,
``eprum-documents``): declared once, so that ``-M``, ``-l`` and ``--reading`` reach each."""


class AdhocOptions(RunNamingOptions):
    """trec_eval's options that change ad hoc scores."""

    model_config = ConfigDict(extra="forbid")

    depth: Depth = Field(
        1000, ge=0, description="Documents kept per topic after sorting (a profile: every "
        "document unless given, as trec_eval; 0 keeps none, each topic still evaluated).")
    rel_level: RelLevel = Field(1, description="Least relevance value counted relevant.")
    complete: Annotated[bool, COMPLETE_FLAG] = Field(
        True, description="Average over all qrels topics, missing ones scoring 0.")
    interpolation: Annotated[Interpolation, Flag("--interpolation")] = Field(
        "exact",
        description="Recall cutoff rounding of interpolated precision: exact ceil, trec_eval_9 "
        "or lround (10.0); set by the profile unless given.",
    )
    profile: Annotated[ProfileName | None, Flag("--profile")] = Field(
        None,
        description="The trec_eval release reproduced: 8.1, 9.0.8, 9.0.8-float or 10.0 "
        "(interpolation, score precision, topics printed); none: the appendices' rules.",
    )
    parameters: dict[str, str] = Field(
        default_factory=dict,
        description="trec_eval measure parameters per family, e.g. {P: '5,7', rbp: 'p=0.95'}.",
    )
    judged_only: Annotated[bool, Flag("-J")] = Field(
        False, description="Score only the judged documents of each ranking, as trec_eval -J.")
    collection_size: Annotated[int, Flag("-N")] = Field(
        0, ge=0, description="Documents in the collection, as trec_eval -N: utility's d, the "
        "ROC curve.")
    gain_order: Annotated[Literal["trec_eval", "sorted"], Flag("--gain-order")] = Field(
        "trec_eval",
        description="How ndcg, G, ndcg_rel and Rndcg given gains per level (ndcg.1=3.5,2=9) "
        "order the levels for the ideal ranking: trec_eval, with its comparator (int)(g1 - g2), "
        "which calls gains less than 1 apart equal; sorted, by gain (the definition).",
    )
    reading: Reading = READING_FIELD

    @model_validator(mode="before")
    @classmethod
    def _profile_defaults(cls, values: Any) -> Any:
        """A profile sets the interpolation and the depth (trec_eval's: every document)
        unless they are given too."""
        if isinstance(values, dict) and values.get("profile"):
            from builder.measures.adhoc.trec_eval.profiles import profile_of

            if "interpolation" not in values:
                values = {**values, "interpolation": profile_of(values["profile"]).interpolation}
            if values.get("depth") is None:
                values = {**values, "depth": EVERY_DOCUMENT}
        return values

    @field_validator("parameters")
    @classmethod
    def _known_parameters(cls, given: dict[str, str]) -> dict[str, str]:
        from builder.measures.adhoc.trec_eval.params import AdhocParams

        AdhocParams.of(given)
        return given

    @property
    def measure_params(self) -> AdhocParams:
        from builder.measures.adhoc.trec_eval.params import AdhocParams

        # 9.0.8 reads a gain pair's name with atol (10.0 skips a name not an integer).
        return AdhocParams.of(self.parameters, gain_order=self.gain_order,
                              integer_levels=self.profile not in ("9.0.8", "9.0.8-float"))
