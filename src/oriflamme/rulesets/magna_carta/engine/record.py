"""Magna Carta's side of the game record: the core's :class:`~oriflamme.core.record.Game`
built from a scenario dict and its map (the signature the engine's tests and tools use).

The record itself, undo and replay are the core's (:mod:`oriflamme.core.record`).
"""

from __future__ import annotations

from ....core import record as core_record
from ....core.record import RECORD_FORMAT, RECORD_VERSION, Verification, check_record_shape  # noqa: F401
from ..maps import GameMap
from ..ruleset import MagnaCarta, Scenario

RULESET = MagnaCarta()


class Game(core_record.Game):
    def __init__(self, scenario: dict, gmap: GameMap, seed=None):
        super().__init__(RULESET, Scenario(scenario, gmap), seed)

    @property
    def gmap(self) -> GameMap:
        return self.scenario.gmap


def replay(rec: dict, scenario_loader=None) -> core_record.Game:
    """Re-play a record (see :func:`oriflamme.core.record.replay`); returns the game."""
    loader = None
    if scenario_loader is not None:
        def loader(data, source):
            return Scenario(*scenario_loader(data))
    game, _ = core_record.replay(rec, scenario_loader=loader)
    return game
