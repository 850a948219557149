"""Shared pieces of the gf-combat tests: scripted dice (by die size) and small battles."""

from __future__ import annotations

from oriflamme.geometry import tabletop
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import Battlefield, battlefield_from_json
from oriflamme.rulesets.guerres_fleuries.battle.fighters import Battle, Fighter


class ByDie:
    """Dice that answer each die size from its own script (and record every roll)."""

    def __init__(self, **scripts):
        self.scripts = {int(k[1:]): list(v) for k, v in scripts.items()}
        self.rolled: list[tuple[int, int]] = []

    def roll(self, sides: int = 10) -> int:
        script = self.scripts.get(sides)
        if not script:
            raise AssertionError(f"unexpected roll of a d{sides} (rolled so far: {self.rolled})")
        v = script.pop(0)
        self.rolled.append((sides, v))
        return v

    def count(self, sides: int) -> int:
        return sum(1 for s, _ in self.rolled if s == sides)


class Always:
    """Every die shows the same face (capped at the die's sides)."""

    def __init__(self, face: int):
        self.face = face
        self.rolled: list[tuple[int, int]] = []

    def roll(self, sides: int = 10) -> int:
        v = min(self.face, sides)
        self.rolled.append((sides, v))
        return v


def troop(uid, side, **kw) -> Fighter:
    base = dict(name=uid, race="homme", klass="B", figures=20, figures_max=20, frontage=10, ranks=2,
                base_w=2.0, base_d=2.0, heading=0.0 if side == "A" else 180.0, armour="sans_armure")
    base.update(kw)
    return Fighter(uid, side, **base)


def battle(*units, phase=8, elements=None) -> Battle:
    bf = Battlefield() if elements is None else battlefield_from_json({"width": 180, "height": 120,
                                                                      "elements": elements})
    return Battle({u.id: u for u in units}, phase=phase, battlefield=bf)


def front_edge(u):
    from oriflamme.rulesets.guerres_fleuries.battle.fighters import depth, pose, width
    return tabletop.front_edge(pose(u), width(u), depth(u))
