"""The battlefield of a scenario on the platform's hex geometry: terrain per hex, the hexsides
that forbid crossing or combat (river, bridge, banner), and the facing rule (front hexes)."""

from __future__ import annotations

from functools import cached_property

from oriflamme.geometry.hexgrid import Hex, front_arc

from .rules import rules


class Board:
    def __init__(self, scenario):
        from .scenario import pair  # the scenario validated the labels
        self.cols, self.rows = scenario.cols, scenario.rows
        self.terrain: dict[Hex, str] = {}
        for tid, labels in scenario.terrain.items():
            for lab in labels:
                self.terrain[Hex.from_label(lab)] = tid
        self.sides: dict[frozenset, str] = {}
        for kind in ("river", "bridge"):  # a bridge overrides the river's hexside
            for text in scenario.hexsides.get(kind, []):
                self.sides[frozenset(pair(text))] = kind
        self.banner = None
        if scenario.banner is not None:
            b = Hex.from_label(scenario.banner.hex)
            self.banner = (b, scenario.banner.facing)
            self.sides[frozenset((b, b.neighbour(scenario.banner.facing)))] = "banner"
        self.objectives = [Hex.from_label(x) for x in scenario.objectives]

    def on_map(self, h: Hex) -> bool:
        return 0 <= h.col < self.cols and 0 <= h.row < self.rows

    @cached_property
    def hexes(self) -> list[Hex]:
        return [Hex.from_offset(c, r) for c in range(self.cols) for r in range(self.rows)]

    def terrain_of(self, h: Hex):
        return rules().terrain[self.terrain.get(h, "clear")]

    def hexside(self, a: Hex, b: Hex):
        """The hexside row between two adjacent hexes, or None (an open hexside)."""
        kind = self.sides.get(frozenset((a, b)))
        return rules().hexsides[kind] if kind else None

    def crossable(self, a: Hex, b: Hex) -> bool:
        hs = self.hexside(a, b)
        return hs is None or hs.crossable

    def combat_allowed(self, a: Hex, b: Hex) -> bool:
        """LB seed 001 l.24: a river, a wall, a gate or a special rule (a banner) forbids combat."""
        hs = self.hexside(a, b)
        return hs is None or hs.combat


def front_hexes(h: Hex, facing: int) -> list[Hex]:
    """The front hexes of a unit (LB house §2.2: the hex it faces and the two beside it).

    >>> [h.label for h in front_hexes(Hex.from_label("0303"), 2)]  # facing SE
    ['0402', '0403', '0304']
    """
    return [h.neighbour(facing + d) for d in rules().facing.front_directions]


def in_arc(h: Hex, facing: int, target: Hex) -> bool:
    """The front arc of fire (LB house §2.2): the cone of the front hexes (geometry.front_arc)."""
    return bool(front_arc(h, facing, (target,)))
