"""The simplest computer player: a uniformly random legal action, from its own seeded RNG.

It uses only the core interface (``Ruleset.legal_actions`` and ``Ruleset.is_pass``), so it
plays any registered ruleset; with the same seed it plays the same game, which makes it the
fuzzer of every engine (random playouts must never crash, dead-end or loop) and the opponent
of the benchmarks. Passing actions (ending a step) are chosen less often, so games advance.
"""

from __future__ import annotations

import random

from ..core import registry
from ..core.ruleset import Ruleset


class RandomPlayer:
    def __init__(self, seed: int = 0, end_step_weight: float = 0.15, ruleset: Ruleset | None = None):
        self.rng = random.Random(seed)
        self.end_step_weight = end_step_weight
        self.ruleset = ruleset if ruleset is not None else registry.get()

    def choose(self, state, side: str | None = None):
        rs = self.ruleset
        acts = rs.legal_actions(state, side)
        others = [a for a in acts if not rs.is_pass(a)]
        if others and (len(others) == len(acts) or self.rng.random() > self.end_step_weight):
            return self.rng.choice(others)
        return self.rng.choice(acts)
