"""La Magna Carta v1.2 (seed 004): the standardized Cry Havoc rules, chapters 1–9.

This folder holds the edition's data tables (``data/*.toml``, every row cited). The shared
mechanics that apply them live in :mod:`oriflamme.resolve` and :mod:`oriflamme.engine`.
"""

RULESET_ID = "magna-carta"
