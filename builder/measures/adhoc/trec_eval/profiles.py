"""Profiles: the rules that differ between releases of trec_eval, set at once by a version.

Without a profile the site uses the NIST appendices' definitions: interpolated precision with
the exact cutoff ceil(x * R), scores read in double precision. A profile reproduces one release:

| profile       | recall cutoff (interpolation) | scores read as | ``-c -q`` prints topics without results | ``all_trec`` has rbp, unj | means summed in |
|---------------|-------------------------------|----------------|------------------------------------------|---------------------------|-----------------|
| ``8.1``       | ceil(x * R), exact            | float          | no                                       | no                        | float           |
| ``9.0.8``     | (long)(x * R + 0.9)           | double         | no                                       | no                        | double          |
| ``9.0.8-float`` | (long)(x * R + 0.9)         | float          | no                                       | no                        | double          |
| ``10.0``      | lround(x * R)                 | double         | yes                                      | yes                       | double          |

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
    single_precision_sums: bool = False
    """8.1: per-topic values kept as C ``float``, summed topic after topic and divided in
    single precision (``print_meas.c``), and the ``-c`` summary of ``num_rel`` summed over the
    topics with results only (``trec_eval.c`` accumulates those alone)."""


PROFILES: dict[str, Profile] = {
    "8.1": Profile("exact", True, False, False, single_precision_sums=True),
    "9.0.8": Profile("trec_eval_9", False, False, False),
    "9.0.8-float": Profile("trec_eval_9", True, False, False),
    "10.0": Profile("lround", False, True, True),
}
DEFAULT = Profile("exact", False, True, True)
"""No profile: the appendices' exact interpolation, double scores, every measure."""
TREC_10_MEASURES = ("rbp", "rbp_resid", "unj")


STRICT_READING = (
    "Run and qrels files are read strictly (the default): a score such as 1.5abc or ., "
    "or a relevance such as abc, is an error naming its file and line, since a finding beats "
    "a silent conversion (trec_eval reads them with C's atof and atol, as 1.5, 0 and 0; a "
    "whole hexadecimal number such as 0x1.8p1 is a number, 3, in both readings; "
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


NOT_REPRODUCED = (
    "Where the official programs are plainly broken we say so instead of copying them: "
    "trec_eval 10.0's rbp reads another measure's parameters when asked with "
    "iprec_at_recall, ndcg_rel, ndcg_cut or rbp_resid.p= (qrels 1 0 A 1, 1 0 B 0, 1 0 C 1, "
    "1 0 D 1; run A, B, X, C: -m rbp prints 0.1729, -m rbp -m ndcg_cut.5 prints 0.0811; we "
    "print 0.1729 both times); trec_eval 8.1 misreads relevance values far from 0: 1000 "
    "as not relevant and -99999999999 as relevant (qrels 1 0 A 1000, 1 0 B -99999999999; run "
    "A, B: 8.1's map is 0.5, ours 1.0); trec_eval 9.0.8 is reported to crash on relevance "
    "2147483647 (its level counters overflow); we read it as a level. trec_eval 9.0.8 also "
    "refuses 10.0's measures (rbp, rbp_resid, unj), which we compute when named. Gains per "
    "level (ndcg.1=3.5,2=9) follow trec_eval: its comparator (int)(g1 - g2) calls gains less "
    "than 1 apart equal, so the ideal ranking may not be best first (qrels 1 0 a 1, 1 0 b 3, "
    "1 0 c 4, 1 0 d 2, 1 0 e 3, 1 0 f 1; run b, a, c, z, f: 0.5061 where the definition "
    "gives 0.5034); the option gain_order: sorted gives the definition."
)


def reading_rules(reading: str) -> str:
    """What the measures page says of how the files were read (``reading`` option) and of
    the official programs' defects not reproduced."""
    return (f"{ATOF_READING if reading == 'atof' else STRICT_READING} {JUDGED_ONLY_NAN} "
            f"{NOT_REPRODUCED}")


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
