"""La Magna Carta v1.2 (seed 004): the standardized Cry Havoc rules, chapters 1–9.

This folder holds the edition's data tables (``data/*.toml``, every row cited). The shared
mechanics that apply them live in :mod:`oriflamme.rulesets.magna_carta.resolve` and :mod:`oriflamme.rulesets.magna_carta.engine`.
"""

RULESET_ID = "magna-carta"
