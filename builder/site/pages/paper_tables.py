"""The leaderboard as an overview paper prints it: LaTeX (booktabs) and Markdown.

One row per run, best first: rank (runs of equal official scores share one), run, team, the
task's official and shown measures under their display names (4 decimals, as trec_eval prints
them), the best value of each column in bold, and a dagger on
the runs not significantly different from the top run on the official measure (the task's
significance settings, stated under the table).
"""

from __future__ import annotations

import math

from builder.site.pages.significance import top_group_marks
from builder.site.paths import SiteTask
from builder.site.runs.measures import shown_measures
from builder.site.tables import COUNT_MEASURES

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def _markdown_escape(text: str) -> str:
    """``text`` as Markdown shows it literally (no emphasis, no table cell break, no HTML)."""
    for char, escaped in (("\\", "\\\\"), ("|", "\\|"), ("*", "\\*"), ("_", "\\_"),
                          ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        text = text.replace(char, escaped)
    return text


def _value(value: float, measure: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(round(value)) if measure in COUNT_MEASURES else f"{value:.4f}"


def leaderboard_rows(analysis: SiteTask) -> tuple[list[str], list[list[str]], list[bool],
                                                  list[set[int]]]:
    """Header, rows of plain texts, the dagger per row, and per row the columns holding the
    column's best value (bold)."""
    measures = shown_measures(analysis)
    marks = top_group_marks(analysis) or {}
    has_team = any(analysis.metadata.get(run, {}).get("team") for run in analysis.runs)
    header = ["Rank", "Run"] + (["Team"] if has_team else []) + [analysis.label(m) for m in measures]
    first = len(header) - len(measures)
    best = {m: analysis.summary_best.get(m) for m in measures}
    rows, daggers, bold = [], [], []
    for position, run in enumerate(analysis.runs):
        values = [analysis.summary.at[run, m] for m in measures]
        team = [analysis.metadata.get(run, {}).get("team", "")] if has_team else []
        rows.append([str(analysis.ranks[run]), run, *team]
                    + [_value(v, m) for v, m in zip(values, measures)])
        daggers.append(position > 0 and bool(marks.get(run)))  # the top run is the reference
        bold.append({first + k for k, (v, m) in enumerate(zip(values, measures))
                     if m not in COUNT_MEASURES and best[m] is not None and v == best[m]})
    return header, rows, daggers, bold


def _note(analysis: SiteTask, daggers: list[bool]) -> str:
    official = analysis.label(analysis.spec.official_measure)
    note = f"Runs ranked by {official}; the best value of each measure in bold."
    if analysis.significance is not None and any(daggers):
        note += (f" † not significantly different from the top run on {official} "
                 f"({analysis.significance.settings.describe()}).")
    return note


def leaderboard_latex(analysis: SiteTask) -> str:
    """A ``table`` with a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``)."""
    header, rows, daggers, bold = leaderboard_rows(analysis)
    numeric = len(shown_measures(analysis))
    spec = "r" + "l" * (len(header) - numeric - 1) + "r" * numeric
    lines = ["\\begin{table}", "\\centering", f"\\caption{{{latex_escape(analysis.spec.title)}: "
             f"{latex_escape(_note(analysis, daggers))}}}".replace("†", "$^\\dagger$"),
             f"\\label{{tab:{analysis.spec.id}}}", f"\\begin{{tabular}}{{{spec}}}",
             "\\toprule", " & ".join(latex_escape(h) for h in header) + " \\\\", "\\midrule"]
    for row, dagger, strong in zip(rows, daggers, bold):
        cells = [latex_escape(cell) for cell in row]
        cells = [f"\\textbf{{{c}}}" if k in strong else c for k, c in enumerate(cells)]
        if dagger:
            cells[1] += "$^\\dagger$"
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"


def leaderboard_markdown(analysis: SiteTask) -> str:
    """A GitHub-flavoured Markdown table, numbers right-aligned, and its note."""
    header, rows, daggers, bold = leaderboard_rows(analysis)
    numeric = len(shown_measures(analysis))
    align = ["---:"] + [":---"] * (len(header) - numeric - 1) + ["---:"] * numeric
    lines = ["| " + " | ".join(_markdown_escape(h) for h in header) + " |",
             "| " + " | ".join(align) + " |"]
    for row, dagger, strong in zip(rows, daggers, bold):
        cells = [_markdown_escape(cell) for cell in row]
        cells = [f"**{c}**" if k in strong else c for k, c in enumerate(cells)]
        if dagger:
            cells[1] += " †"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + f"\n\n{_note(analysis, daggers)}\n"
