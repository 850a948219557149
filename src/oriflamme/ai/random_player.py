"""The simplest computer player: a uniformly random legal action, from its own seeded RNG.

It uses only the core interface (``Ruleset.legal_actions`` and ``Ruleset.is_pass``) and
imports no ruleset, so it plays any registered ruleset; with the same seed it plays the same
game, which makes it the fuzzer of every ruleset (random playouts must never crash, dead-end or
loop — ``tests/contract``) and the opponent of the benchmarks.

A *pass* (an action that only ends the side's step, e.g. Magna Carta's ``end_step``) is taken
with probability ``end_step_weight`` when something else is possible, so that random games
move their pieces instead of passing at every prompt.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..core.errors import IllegalAction


def _default_ruleset():
    from ..core import registry
    return registry.get()


class RandomPlayer:
    """``RandomPlayer(seed)`` chooses among ``ruleset.legal_actions(state, side)``; ``ruleset``
    defaults to the registry's default ruleset. ``passes`` tells a pass from another action
    (default: ``ruleset.is_pass``)."""

    def __init__(self, seed: int = 0, end_step_weight: float = 0.15, ruleset=None,
                 passes: Callable[[Any], bool] | None = None):
        self.rng = random.Random(seed)
        self.end_step_weight = end_step_weight
        self._ruleset = ruleset
        self.passes = passes

    @property
    def ruleset(self):
        if self._ruleset is None:
            self._ruleset = _default_ruleset()
        return self._ruleset

    def choose(self, state, side: str | None = None):
        return self.pick(self.ruleset.legal_actions(state, side))

    def pick(self, acts: list):
        """One of ``acts`` (the legal actions), passes less often (see the class docstring)."""
        rs = self.ruleset
        if not acts:
            raise IllegalAction("no legal action: the game is over or waits for chance")
        passes = self.passes or rs.is_pass
        others = [a for a in acts if not passes(a)]
        if others and (len(others) == len(acts) or self.rng.random() > self.end_step_weight):
            return self.rng.choice(others)
        return self.rng.choice(acts)
