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

import numpy as np

from builder.measures.registry import GEOMETRIC_FLOOR, Aggregation, Difference

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
DEFAULT_RULES = Difference(
    "trec_eval (every release)", "no --profile",
    "the NIST appendices: iprec_at_recall and 11pt_avg cut at c = ceil(x R) exactly, depth "
    "1000, every qrels topic averaged (-c); with --profile, the release's rules; option "
    "interpolation: trec_eval_9 or lround takes a release's cutoff alone",
    "9.0.8: (long)(x R + 0.9), c = 2 for x = 0.7, R = 3 (float error); 10.0: lround(x R), "
    "c = 1 for x = 0.1, R = 14; every result; -c when given",
    "The site's default is the appendices' definition; --profile follows a release line for "
    "line.")
"""The measures it concerns (iprec_at_recall, 11pt_avg) point at it (``Difference.see``)."""

TREC_EVAL_DIFFERENCES: tuple[Difference, ...] = (
    Difference("trec_eval (every release)", "-J leaving a ranking without documents "
               "(qrels 1 0 A 1; run 1 Q0 X 1 1 r; -J -m iprec_at_recall)",
               "0, and a mean that counts it 0", "-nan (0/0), and a -nan mean",
               "0/0 is printed as 0 so that a mean stays a number."),
    Difference("trec_eval 10.0", "without -c, a qrels topic without results (qrels 1 0 A 1, "
               "2 0 C 1; run of topic 1 only)", "scores, the topic left out (as 9.0.8)",
               "quits, exit 4: \"result qid '2' not found in qrels\"",
               "A defect: the run is valid and 9.0.8 scores it."),
    Difference("trec_eval 10.0", "-m rbp asked with iprec_at_recall, ndcg_rel, ndcg_cut.* or "
               "rbp_resid.p= (qrels 1 0 A 1, 1 0 B 0, 1 0 C 1, 1 0 D 1; run A, B, X, C; "
               "-m rbp -m ndcg_cut.5)", "rbp 0.1729", "rbp 0.0811 (0.1729 when asked alone)",
               "A defect: rbp reads another measure's parameters."),
    Difference("trec_eval 9.0.8", "-m rbp, rbp_resid or unj (10.0's measures)", "the values",
               "\"illegal measure\", exit 1", "Computing a measure asked for harms nothing."),
    Difference("trec_eval 9.0.8", "relevance 2147483647 (qrels 1 0 A 2147483647)",
               "a relevance level like any", "reported to crash",
               "A defect: its per-level counters overflow."),
    Difference("trec_eval 8.1", "relevance far from 0 (qrels 1 0 A 1000, 1 0 B -99999999999; "
               "run A, B)", "map 1.0000", "map 0.5000",
               "A defect: 1000 is read as not relevant, -99999999999 as relevant."),
    Difference("trec_eval 8.1", "a run whose topics are not in ascending order (lines of "
               "topic 2 before topic 1)", "per-topic lines in topic order; means summed in "
               "that order", "per-topic lines in the file's order; means summed in that order, "
               "in single precision (the 4th decimal may differ)",
               "Not followed: runs are written in topic order; the order of a file should not "
               "change a mean."),
    Difference("trec_eval (every release)", "a docno given twice for a topic, beyond the "
               "depth -M", "an error: the run is rejected", "scored (trec_eval stops only on "
               "a docno given twice within the depth)",
               "A run that names a document twice is malformed wherever the copy is."),
    DEFAULT_RULES,
    Difference("trec_eval (every release)", "a score or relevance that is not a number "
               "(1.5abc, ., abc) or a blank qrels line",
               "an error naming file and line (reading: atof reads them as trec_eval, with a "
               "warning); a blank line skipped", "read with C's atof/atol (1.5, 0, 0); quits "
               "on a blank qrels line", "A finding beats a silent conversion."),
    Difference("trec_eval 9.0.8, 10.0", "relstring with --memory-budget or --scheduler, or "
               "with --format tsv, csv or json", "not printed (a note says so under a budget)",
               "printed per topic", "relstring is text, kept by the one-shot evaluation for "
               "the trec layout only."),
)
"""Every remaining difference from trec_eval, one row each; everything else follows the
release of ``--profile``, checked line by line against the programs."""


def reading_rules(reading: str) -> str:
    """What the measures page says of how the files were read (``reading`` option)."""
    return ATOF_READING if reading == "atof" else STRICT_READING


def single_precision_mean(values: np.ndarray, present: np.ndarray, how: Aggregation,
                          n_topics: int, num_q: np.ndarray) -> np.ndarray:
    """trec_eval 8.1's summary of a mean (``print_meas.c``, ``accumulate_results``): per run,
    the C float values of the topics with results added one after the other in float, then
    divided by the number of topics in float; a geometric mean adds log(GEOMETRIC_FLOOR) per
    topic without results (under -c) to the float sum in double, then exp of the float
    quotient.
    Topics are added in text order (8.1 adds them in the run file's order: the same for a run
    written in ascending topic order, as nearly all are)."""
    terms = np.where(present, how.terms(values), 0.0).astype(np.float32)
    grid = terms.reshape(-1, n_topics) if n_topics else np.zeros((len(num_q), 1), np.float32)
    total = np.cumsum(grid, axis=1, dtype=np.float32)[:, -1]  # sequential, not pairwise
    count = num_q.astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        if how is Aggregation.GMEAN:
            answered = present.reshape(grid.shape[0], -1).sum(axis=1) if n_topics else 0
            total = (total + (num_q - answered) * np.log(GEOMETRIC_FLOOR)).astype(np.float32)
            mean = np.exp((total / count).astype(np.float64)).astype(np.float32)
        else:
            mean = total / count
    return np.where(num_q > 0, mean.astype(np.float64), 0.0)


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
