"""The one bibliography of the measures: every source a measure's declaration cites.

A declaration cites with ``cite(key, where)`` (``Kamps et al. 2008, eq. 11``); the measures
page of the site and the documentation list the full references under "References", so a
published page names its sources as a paper does (authors, title, venue, year), and the
citation labels stay short enough for a table cell.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """A published source: ``label`` is how a table cell cites it (``Kamps et al. 2008``)."""

    key: str
    label: str
    authors: str
    title: str
    venue: str
    year: int | None
    url: str = ""

    def format(self) -> str:
        """The full reference, as a paper's reference list gives it."""
        year = f", {self.year}" if self.year is not None else ""
        return f"{self.authors}. {self.title}. {self.venue}{year}."


REFERENCES: dict[str, Reference] = {ref.key: ref for ref in (
    Reference("buckley2005", "Buckley & Voorhees 2005", "Chris Buckley and Ellen M. Voorhees",
              "Retrieval system evaluation",
              "In E. M. Voorhees and D. K. Harman (eds.), TREC: Experiment and Evaluation in "
              "Information Retrieval, chapter 3, MIT Press", 2005),
    Reference("buckley2004", "Buckley & Voorhees 2004", "Chris Buckley and Ellen M. Voorhees",
              "Retrieval evaluation with incomplete information",
              "Proceedings of the 27th ACM SIGIR Conference, pp. 25-32", 2004),
    Reference("jarvelin2002", "Järvelin & Kekäläinen 2002", "Kalervo Järvelin and Jaana Kekäläinen",
              "Cumulated gain-based evaluation of IR techniques",
              "ACM Transactions on Information Systems 20(4), pp. 422-446", 2002),
    Reference("yilmaz2006", "Yilmaz & Aslam 2006", "Emine Yilmaz and Javed A. Aslam",
              "Estimating average precision with incomplete and imperfect judgments",
              "Proceedings of the 15th ACM CIKM Conference, pp. 102-111", 2006),
    Reference("kazai2006", "Kazai & Lalmas 2006", "Gabriella Kazai and Mounia Lalmas",
              "eXtended cumulated gain measures for the evaluation of content-oriented XML "
              "retrieval", "ACM Transactions on Information Systems 24(4), pp. 503-542", 2006),
    Reference("kamps2008", "Kamps et al. 2008",
              "Jaap Kamps, Jovan Pehcevski, Gabriella Kazai, Mounia Lalmas and Stephen Robertson",
              "INEX 2007 evaluation measures",
              "In Focused Access to XML Documents, INEX 2007, LNCS 4862, pp. 24-33, Springer", 2008),
    Reference("pal2008", "Pal et al. 2008", "Sukomal Pal, Mandar Mitra and Arnab Chakraborty",
              "Stability of INEX 2007 evaluation measures",
              "Second International Workshop on Evaluating Information Access (EVIA 2008), "
              "NTCIR-7, Tokyo", 2008),
    Reference("pehcevski2006", "Pehcevski & Thom 2006", "Jovan Pehcevski and James A. Thom",
              "HiXEval: highlighting XML retrieval evaluation",
              "In Advances in XML Information Retrieval and Evaluation, INEX 2005, LNCS 3977, "
              "pp. 43-57, Springer", 2006),
    Reference("piwowarski2006", "Piwowarski & Dupret 2006", "Benjamin Piwowarski and Georges Dupret",
              "Evaluation in (XML) information retrieval: expected precision-recall with user "
              "modelling (EPRUM)", "Proceedings of the 29th ACM SIGIR Conference, pp. 260-267",
              2006),
    Reference("trec_eval", "trec_eval", "National Institute of Standards and Technology",
              "trec_eval, the TREC evaluation program (versions 8.1, 9.0.8 and 10.0)",
              "https://github.com/usnistgov/trec_eval", None,
              "https://github.com/usnistgov/trec_eval"),
    Reference("inex_eval", "inex_eval", "INEX organisers",
              "inex_eval 3.1, the INEX ad hoc evaluation program",
              "Initiative for the Evaluation of XML Retrieval", 2010),
)}


def cite(key: str, where: str = "") -> str:
    """A short citation of ``key`` for a table cell: ``Kamps et al. 2008, eq. 11``."""
    label = REFERENCES[key].label
    return f"{label}, {where}" if where else label


def cited_in(texts: list[str]) -> list[Reference]:
    """The references whose label occurs in any of ``texts``, in bibliography order."""
    joined = "\n".join(texts)
    return [ref for ref in REFERENCES.values() if ref.label in joined]
