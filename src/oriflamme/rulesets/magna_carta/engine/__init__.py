"""The pure engine: game state, legal actions, checked apply, explanations, per-side views.

Public API::

    from oriflamme.rulesets.magna_carta.engine import new_game, legal_actions, moves_of, apply, explain, view, to_act

The modules form layers; each imports only from the layers below it (``benchmarks/import_graph.py``
prints the cycles, ``tests/test_engine_layering.py`` keeps them out):

1. the state: ``character``, ``errors``, ``hooks``, ``actions``, ``handlers``, ``parts``, ``state``, ``events``;
2. queries: ``animals``, ``carcasses``, ``escort``, ``places``, ``stray``, ``camels``, ``lines``,
   ``victory``, ``costs`` (movement points, step costs), ``riding`` then ``movement`` (the
   searches), ``fire``, ``melee``;
3. features and effects, in this order: ``carts``, ``led``, ``kneeling``, ``horses``, ``paths``
   (a character walking a path), ``bodies``, ``combat`` (results of fire and melee), ``ransom``,
   ``moving`` (a move), ``charges`` (cavalry charges, MC §7.6), ``bridle``, ``defensive_fire``, ``lone_horse``, ``turn``;
4. ``game``: legal actions, the dispatch through the handlers, settling after an action; then
   ``setup`` and ``view`` above it.

Where a lower module must call up — the walk offers defensive fire (§5.3) and the grab in passing
(§4.4.4) — it calls a named hook (``hooks.HOOKS``) that the feature provides. Each action type
has a handler (check, effect, preview) registered by the module of its feature (``handlers``).
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
