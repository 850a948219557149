"""Computer players (they know only :mod:`oriflamme.core`): ``random`` (random_player.py),
``easy``, ``normal``, ``hard`` (players.py, search.py), and the balance runs (simulate.py)."""

from .players import LEVELS, PLAYER_LEVELS, Decision, make_player

__all__ = ["LEVELS", "PLAYER_LEVELS", "Decision", "make_player"]
