"""The simplest computer player: a uniformly random legal action, from its own seeded RNG.

It uses only the engine's public API (``legal_actions``); with the same seed it plays the same
game, which makes it the fuzzer of the engine (random playouts must never crash, dead-end or
loop) and the opponent of the benchmarks.
"""

from __future__ import annotations

import random

from ..rulesets.magna_carta.engine import legal_actions
from ..rulesets.magna_carta.engine.actions import Action, EndStep
from ..rulesets.magna_carta.engine.state import GameState


class RandomPlayer:
    def __init__(self, seed: int = 0, end_step_weight: float = 0.15):
        self.rng = random.Random(seed)
        self.end_step_weight = end_step_weight

    def choose(self, state: GameState) -> Action:
        acts = legal_actions(state)
        others = [a for a in acts if not isinstance(a, EndStep)]
        if others and (len(others) == len(acts) or self.rng.random() > self.end_step_weight):
            return self.rng.choice(others)
        return self.rng.choice(acts)
