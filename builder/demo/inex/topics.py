"""The demo INEX tasks' topics: title, CAS title, description and narrative, as INEX wrote them.

The CAS title (content-and-structure) is an NEXI query: ``//article[about(., x)]//sec[about(.,
y)]`` asks for sections about y in articles about x. One title holds ``&`` and ``<`` to show
that the XML is escaped when written and the pages escape it when shown.
"""

from __future__ import annotations

FIRST_TOPIC = 2024001

TOPICS: tuple[tuple[str, str, str, str], ...] = (
    ("lighthouse keepers daily life",
     "//article[about(., lighthouse)]//sec[about(., keeper duties daily life)]",
     "What was the daily work of a lighthouse keeper before automation?",
     ("Relevant text describes the tasks, hours or living conditions of keepers. Text about "
     "the construction of lighthouses or their optics alone is not relevant.")),
    ("volcanic island formation",
     "//article[about(., volcanic island)]//sec[about(., formation hotspot)]",
     "How do volcanic islands form over hotspots or at plate boundaries?",
     ("Relevant passages explain the geological process. Lists of islands or tourism "
     "information are not relevant.")),
    ("history of the safety bicycle",
     "//article[about(., bicycle history)]//sec[about(., safety bicycle chain drive)]",
     "When and how did the safety bicycle replace the high-wheeler?",
     ("Relevant text names inventors, dates or design changes of the safety bicycle. Modern "
     "racing bicycles are not relevant.")),
    ("mathematics of origami",
     "//article[about(., origami)]//sec[about(., mathematics theorem)]",
     "Which mathematical results describe what can be folded from paper?",
     ("Relevant passages state or explain a theorem or axiom of paper folding. Instructions "
     "for folding particular models are not relevant.")),
    ("coral reef bleaching causes",
     "//article[about(., coral reef)]//sec[about(., bleaching temperature)]",
     "What causes coral bleaching and can reefs recover from it?",
     ("Relevant text discusses causes (temperature, acidity, pollution) or recovery. Reef "
     "fish species alone are not relevant.")),
    ("harpsichord makers & workshops < 1800",
     "//article[about(., harpsichord)]//sec[about(., makers workshop)]",
     "Who built harpsichords before 1800, and where were the main workshops?",
     ("Relevant passages name makers, families or cities of harpsichord building before "
     "1800. Text about pianos or about harpsichord music is not relevant.")),
    ("antarctic expeditions heroic age",
     "//article[about(., antarctic expedition)]//sec[about(., heroic age)]",
     "Which expeditions reached Antarctica in the heroic age of exploration (1897-1922)?",
     ("Relevant text describes an expedition of that period: leaders, ships, routes or "
     "results. Modern research stations are not relevant.")),
    ("sourdough fermentation microbes",
     "//article[about(., sourdough)]//sec[about(., yeast lactic acid bacteria)]",
     "Which microorganisms ferment sourdough and what does each contribute?",
     ("Relevant passages name yeasts or bacteria of sourdough and their role. Recipes are not "
     "relevant unless they explain the fermentation.")),
    ("medieval amber trade routes",
     "//article[about(., amber road)]//sec[about(., trade route medieval)]",
     "Along which routes was amber traded in medieval Europe?",
     ("Relevant text describes routes, towns or merchants of the amber trade. Geological "
     "formation of amber is not relevant.")),
    ("tidal power stations",
     "//article[about(., tidal power)]//sec[about(., power station barrage)]",
     "Which tidal power stations have been built and how much power do they produce?",
     ("Relevant passages name a station with its location or capacity. Wave power is not "
     "relevant.")),
    ("honeybee waggle dance",
     "//article[about(., honeybee)]//sec[about(., waggle dance communication)]",
     "How do honeybees tell each other where food is?",
     ("Relevant text explains the waggle dance or other communication of foragers. Bee "
     "keeping equipment is not relevant.")),
    ("roman aqueduct engineering",
     "//article[about(., roman aqueduct)]//sec[about(., gradient construction)]",
     "How did Roman engineers keep water flowing along aqueducts over long distances?",
     ("Relevant passages discuss gradients, siphons, arches or surveying. Lists of surviving "
     "aqueducts without engineering detail are not relevant.")),
)
"""(title, castitle, description, narrative) of topics FIRST_TOPIC, FIRST_TOPIC + 1, ..."""
