"""The demo ad hoc task's topics: title, description and narrative, in TREC style.

Fictional but plausible information needs over a news collection. Topic 413's title holds
``<``, ``>`` and ``&`` so that the site's escaping of topic text can be seen.
"""

from __future__ import annotations

FIRST_TOPIC = 401

TOPICS: tuple[tuple[str, str, str], ...] = (
    (
        "coral reef bleaching",
        "What causes mass bleaching events on coral reefs, and where have they been observed?",
        ("Relevant documents report a bleaching event at a named reef or discuss its causes, such "
        "as warmer water or pollution. Documents about reef tourism without mention of bleaching "
        "are not relevant."),
    ),
    (
        "high-speed rail funding",
        "How are new high-speed rail lines financed by governments and private investors?",
        ("A relevant document names a high-speed line and describes at least one source of its "
        "funding. Opinion pieces about trains in general are not relevant."),
    ),
    (
        "antibiotic resistance in hospitals",
        "Find reports of antibiotic-resistant infections spreading within hospitals.",
        ("Relevant documents describe outbreaks, infection rates or control measures in a hospital "
        "setting. Resistance in farm animals alone is not relevant."),
    ),
    (
        "wind farm noise complaints",
        ("Do residents living near wind farms complain about noise, and how are the complaints "
        "resolved?"),
        ("Documents must mention complaints by residents about turbine noise. Reports on the "
        "visual impact of turbines are only relevant if noise is also discussed."),
    ),
    (
        "counterfeit medicines online",
        "Identify cases of counterfeit medicines sold through websites.",
        ("A relevant document describes a seizure, prosecution or warning about fake medicines "
        "sold online. Legitimate online pharmacies are not relevant."),
    ),
    (
        "urban beekeeping",
        "What are the benefits and risks of keeping honey bees in cities?",
        ("Relevant documents discuss rooftop or garden hives in an urban area, their honey yield, "
        "or concerns such as stings and disease. Wild bee decline alone is not relevant."),
    ),
    (
        "glacier retreat in the Alps",
        "Measurements of how fast Alpine glaciers are shrinking.",
        ("A relevant document gives figures, or describes a study, on the loss of length or mass "
        "of a glacier in the Alps. Glaciers elsewhere are not relevant."),
    ),
    (
        "teacher shortages in rural schools",
        "Why do rural schools struggle to recruit and keep teachers?",
        ("Relevant documents discuss vacancies, incentives or working conditions for teachers in "
        "rural areas. Teacher strikes unrelated to recruitment are not relevant."),
    ),
    (
        "ransomware attacks on city councils",
        "Find reports of ransomware that disabled the computer systems of a local government.",
        ("A relevant document names an affected council or city and describes the attack or its "
        "consequences. Attacks on private firms are not relevant."),
    ),
    (
        "microplastics in drinking water",
        "Is there evidence of microplastic particles in tap or bottled water?",
        ("Relevant documents report measurements of plastic particles in drinking water or "
        "discuss their health effects. Plastic waste in the ocean alone is not relevant."),
    ),
    (
        "four-day working week trials",
        "What were the results of companies trying a four-day working week?",
        ("A relevant document describes a trial at a named employer or in a country and reports "
        "effects on productivity or wellbeing. Part-time work in general is not relevant."),
    ),
    (
        "volcanic ash and air travel",
        "How does volcanic ash disrupt flights, and how do airlines decide when to fly?",
        ("Relevant documents describe flight cancellations caused by an eruption or the rules for "
        "flying near ash clouds. Eruptions without effect on aviation are not relevant."),
    ),
    (
        "C++ templates & <vector> performance",
        ("Does heavy use of C++ templates and the standard <vector> container slow down "
        "programs or their compilation?"),
        ("Relevant documents compare run time or compile time of template-based code, including "
        "std::vector, with alternatives. Tutorials on the syntax alone are not relevant."),
    ),
    (
        "heat pumps in old houses",
        "Can heat pumps heat poorly insulated old houses efficiently?",
        ("A relevant document reports experience or measurements of heat pumps in older "
        "buildings, or the insulation needed. Advertisements are not relevant."),
    ),
    (
        "library e-book lending",
        "How do public libraries lend e-books, and what do publishers charge them?",
        ("Relevant documents describe e-book lending schemes, licence prices or disputes between "
        "libraries and publishers. E-book readers as devices are not relevant."),
    ),
    (
        "invasive species in lakes",
        "Which invasive species threaten freshwater lakes, and how are they controlled?",
        ("A relevant document names an invasive plant or animal in a lake and its effect or the "
        "measures taken. Marine invasive species are not relevant."),
    ),
    (
        "lithium mining water use",
        "How much water does lithium mining consume, and who is affected?",
        ("Relevant documents discuss the water used by lithium extraction, especially from brine, "
        "and its effect on local communities or farming."),
    ),
    (
        "sleep and teenage school start times",
        "Does starting school later improve teenagers' sleep and grades?",
        ("A relevant document reports a study or a school's experience with later start times. "
        "General advice on sleep is not relevant."),
    ),
    (
        "bridge collapse inspections",
        "What inspection failures preceded bridge collapses?",
        ("Relevant documents describe a bridge collapse and discuss inspections, maintenance "
        "records or warnings before it. Bridge openings are not relevant."),
    ),
    (
        "food waste in supermarkets",
        "What do supermarkets do with unsold food, and are there laws about it?",
        ("A relevant document describes donation, discounting or disposal of unsold food by "
        "supermarkets, or legislation on it. Household food waste alone is not relevant."),
    ),
    (
        "esports recognised as a sport",
        "Arguments for and against recognising competitive video gaming as a sport.",
        ("Relevant documents discuss recognition of esports by sports bodies, governments or the "
        "Olympic movement. Game reviews are not relevant."),
    ),
    (
        "drought and hydroelectric power",
        "How do droughts reduce the electricity produced by hydroelectric dams?",
        ("A relevant document reports lower hydroelectric output during a drought or plans to "
        "cope with it. Dam construction disputes alone are not relevant."),
    ),
    (
        "museum repatriation of artefacts",
        "Which museums have returned cultural artefacts to their countries of origin?",
        ("Relevant documents name a museum and an artefact that was returned or claimed. "
        "Exhibitions on loan are not relevant."),
    ),
    (
        "self-checkout theft",
        "Do self-checkout machines in shops lead to more theft?",
        ("A relevant document gives figures, studies or retailer statements on losses at "
        "self-checkouts. Reviews of the machines' ease of use are not relevant."),
    ),
    (
        "night-sky light pollution",
        "What are cities doing to reduce light pollution for stargazing and wildlife?",
        ("Relevant documents describe dark-sky reserves, street-light changes or the effects of "
        "artificial light on animals. Astronomy news without mention of light pollution is not "
        "relevant."),
    ),
)
