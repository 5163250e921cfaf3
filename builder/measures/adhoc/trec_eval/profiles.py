"""Profiles: the rules that differ between releases of trec_eval, set at once by a version.

Without a profile the site uses the NIST appendices' definitions: interpolated precision with
the exact cutoff ceil(x * R), scores read in double precision. A profile reproduces one release:

| profile       | recall cutoff (interpolation) | scores read as | ``-c -q`` prints topics without results | ``all_trec`` has rbp, unj |
|---------------|-------------------------------|----------------|------------------------------------------|---------------------------|
| ``8.1``       | ceil(x * R), exact            | float          | no                                       | no                        |
| ``9.0.8``     | (long)(x * R + 0.9)           | double         | no                                       | no                        |
| ``9.0.8-float`` | (long)(x * R + 0.9)         | float          | no                                       | no                        |
| ``10.0``      | lround(x * R)                 | double         | yes                                      | yes                       |

``9.0.8`` is the release tagged ``trec_eval-9.0.8`` (2023); ``9.0.8-float`` the older tag
``v9.0.8`` (2020), which like 8.1 stored scores as C ``float``: scores equal in single
precision tie, and ties are broken by docno. Every release reads ``#`` lines as comments here
(10.0 does; the older ones would stop on them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ProfileName = Literal["8.1", "9.0.8", "9.0.8-float", "10.0"]
Interpolation = Literal["exact", "trec_eval_9", "lround"]
"""How interpolated precision rounds its recall cutoff x * R: ceil (the appendices, 8.1),
(long)(x * R + 0.9) (9.0.x) or lround (10.0); ``builder.measures.adhoc.interpolation``."""


@dataclass(frozen=True)
class Profile:
    """What a trec_eval release does differently from the others."""

    interpolation: Interpolation
    single_precision: bool
    prints_skipped_topics: bool
    new_measures: bool
    """rbp, rbp_resid and unj_* are in ``all_trec`` (10.0)."""


PROFILES: dict[str, Profile] = {
    "8.1": Profile("exact", True, False, False),
    "9.0.8": Profile("trec_eval_9", False, False, False),
    "9.0.8-float": Profile("trec_eval_9", True, False, False),
    "10.0": Profile("lround", False, True, True),
}
DEFAULT = Profile("exact", False, True, True)
"""No profile: the appendices' exact interpolation, double scores, every measure."""
TREC_10_MEASURES = ("rbp", "rbp_resid", "unj")


STRICT_READING = (
    "Run and qrels files are read strictly (the default): a score such as 1.5abc, . or 0x1A, "
    "or a relevance such as abc, is an error naming its file and line, since a finding beats "
    "a silent conversion (trec_eval reads them with C's atof and atol, as 1.5, 0, 26 and 0; "
    "the option reading: atof does the same, with a warning each), and a blank line is "
    "skipped (trec_eval quits on a blank qrels line)."
)
ATOF_READING = (
    "Run and qrels files are read as trec_eval reads them (reading: atof): a score or "
    "relevance that is not a number is read with C's atof or atol (1.5abc as 1.5, . as 0, "
    "0x1A as 26, relevance abc as 0), with a warning naming its file and line; a score that "
    "is not finite (nan, inf, 1e999) is still an error, and a blank line is skipped with a "
    "warning (trec_eval quits on a blank qrels line)."
)
JUDGED_ONLY_NAN = (
    "With trec_eval -J, a ranking left without documents gives interpolated precision 0 here "
    "(trec_eval prints -nan, and a -nan mean)."
)


def reading_rules(reading: str) -> str:
    """What the measures page says of how the files were read (``reading`` option)."""
    return f"{ATOF_READING if reading == 'atof' else STRICT_READING} {JUDGED_ONLY_NAN}"


def profile_of(name: str | None) -> Profile:
    return DEFAULT if name is None else PROFILES[name]


def describe(name: str | None) -> str:
    """One sentence for the measures page: which rules the scores follow."""
    if name is None:
        return (
            "Scores follow the NIST appendices: interpolated precision at recall x uses the "
            "exact cutoff ceil(x*R); run scores are read in double precision."
        )
    profile = PROFILES[name]
    rounding = {
        "exact": "ceil(x*R)",
        "trec_eval_9": "(long)(x*R + 0.9)",
        "lround": "lround(x*R)",
    }[profile.interpolation]
    precision = "single (C float)" if profile.single_precision else "double"
    return (
        f"Scores follow trec_eval {name.removesuffix('-float')}"
        f"{' as released in 2020 (scores read as float)' if name.endswith('-float') else ''}: "
        f"interpolated precision at recall x uses the cutoff {rounding}; run scores are read "
        f"in {precision} precision."
    )
