"""Cry Havoc (the original player aid, seed 002) as an edition of La Magna Carta.

Only what differs from the base lives here: ``edition.toml``, the data rows in ``data/`` (each
citing its seed line), the scenarios and boards, the named-hook overrides in ``hooks.py``.
"""
