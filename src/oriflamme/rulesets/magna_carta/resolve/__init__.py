"""Adjudication: pure functions that apply a ruleset's tables to one situation and return a
:class:`~oriflamme.rulesets.magna_carta.resolve.ruling.Ruling` — the legality, the odds of every outcome for a fair
die, and, given a die, the result with its explanation and citations.

They know nothing of maps or game state: the engine computes the situation (odds, cover, range,
marks) from the board and calls them, and so does the referee command.
"""
