"""Shared helpers of the battle-engine tests: a game of the bundled scenario driven to a phase."""

from __future__ import annotations

from oriflamme.core import registry
from oriflamme.core.dice import Dice
from oriflamme.core.record import Game

SCENARIO = "battle-of-the-flowers"


def ruleset():
    return registry.get("guerres-fleuries")


def game(seed: str = "engine-test") -> Game:
    rs = ruleset()
    return Game(rs, rs.load_scenario(SCENARIO), seed=seed)


def state(seed: str = "engine-test"):
    rs = ruleset()
    return rs.setup(rs.load_scenario(SCENARIO), Dice(seed))


def act(g: Game, **action):
    return g.apply(g.ruleset.action_from_json(action))


def to_phase(g: Game, phase: int, turn: int = 1, orders: str = "avancer") -> None:
    """Play the first legal action (orders: the typical set whose first order is ``orders``) until
    the game stands at ``turn``, ``phase``."""
    rs = g.ruleset
    while (g.state.turn, g.state.phase) < (turn, phase) and not g.outcome().over:
        legal = [a for a in rs.legal_actions(g.state) if a.type != "cast"]
        pick = legal[-1] if legal[-1].type == "end_phase" else legal[0]
        if g.state.phase == 3:
            pick = next((a for a in legal if any(o == orders for _, o, _ in (a.orders or ()))), legal[0])
        g.apply(pick)
