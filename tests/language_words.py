"""The word lists of the language tests (tests/test_language_purity.py, tests/e2e/test_language_pages.py):
words that belong to one language only and that Oriflamme's texts use — articles, prepositions,
the game's vocabulary. A text in one language must hold none of the other's. Small on purpose; a
word of both languages ("long", "combat", "phase"…) is in neither list.
"""

#: French words that never belong in English text (the engine's and the rules' vocabulary)
FRENCH = {
    "le", "la", "les", "du", "des", "et", "est", "sur", "avec", "dans", "pour", "une", "au", "aux", "pas",
    "camp", "tour", "tir", "cible", "case", "cases", "recule", "reculent", "blessé", "assommé", "tué", "mort",
    "mouvement", "défensif", "offensif", "arbalète", "arc", "javelot", "broussailles", "portée", "courte",
    "moyenne", "longue", "couverture", "pluie", "brouillard", "nuit", "tempête", "défenseur", "attaquant",
    "tireur", "cheval", "cavalier", "personnage", "manqué", "effet", "étape", "séquence", "joueur", "partie",
    "dé", "dégâts", "armure", "monté", "désarçonné", "arrêt", "déplacement", "infiltrateur", "opposant",
}
#: English words that never belong in French text
ENGLISH = {
    "the", "and", "of", "is", "to", "with", "at", "from", "by", "his", "her", "its", "in", "into",
    "side", "fires", "fire", "moves", "move", "attack", "attacks", "wounded", "stunned", "killed", "dead",
    "step", "turn", "hex", "hexes", "range", "cover", "none", "short", "medium", "wins", "winner",
    "missed", "shot", "retreat", "retreats", "rider", "horse", "foot", "die", "row", "column", "nothing",
    "stop", "rallied", "failed", "ends", "takes", "blow", "advance", "mounted", "armoured", "no", "yes",
}
