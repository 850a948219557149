"""The pure engine: game state, legal actions, checked apply, explanations, per-side views.

Public API::

    from oriflamme.rulesets.magna_carta.engine import new_game, legal_actions, moves_of, apply, explain, view, to_act
"""

from .actions import (Action, Advance, AskQuarter, Attack, Carry, Casualty, ClearBodies, Declare, Decline, Designate,
                      Dismount, EndStep, FightOn, Fire, Mount, Move, Place, Retreat, SetDown, Volley)
from .errors import IllegalAction, OriflammeError, RecordError, ScenarioError
from .game import apply, apply_unchecked, explain, legal_actions, moves_of, to_act
from .setup import new_game
from .state import GameState
from .view import view

__all__ = [
    "Action", "Advance", "AskQuarter", "Attack", "Carry", "Casualty", "ClearBodies", "Declare", "Decline",
    "Designate", "Dismount", "EndStep", "FightOn", "Fire", "Mount", "Move", "Place", "Retreat", "SetDown", "Volley",
    "IllegalAction", "OriflammeError", "RecordError", "ScenarioError",
    "apply", "apply_unchecked", "explain", "legal_actions", "moves_of", "to_act", "new_game", "GameState", "view",
]
