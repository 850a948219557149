"""Shared pieces of the gf-combat tests: scripted dice (by die size) and small battles on gf-engine's
own state (``battle.state.Battle`` and ``Unit``), so the combat modules are tested on what the game
plays. Figures here stand on 2 cm places unless a test says otherwise."""

from __future__ import annotations

from types import SimpleNamespace

from oriflamme.core.dice import SealedDice
from oriflamme.geometry import tabletop
from oriflamme.rulesets.guerres_fleuries.battle.state import Battle, Unit


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


def troop(uid, side, **kw) -> Unit:
    base = dict(name=uid, race="homme", klass="B", figures=20, figures_max=20, frontage=10, ranks=2,
                base_w=2.0, base_d=2.0, heading=0.0 if side == "A" else 180.0, armour="sans_armure")
    base.update(kw)
    base.setdefault("mover", base["race"])
    return Unit(uid, side, **base)


def battle(*units, phase=8, elements=None) -> Battle:
    doc = {"width": 180, "height": 120, "elements": list(elements or [])}
    return Battle(scenario=SimpleNamespace(battlefield=doc), dice=SealedDice(0), units={u.id: u for u in units},
                  turn=1, phase=phase, acting=None)


def front_edge(u):
    return tabletop.front_edge(u.pose, u.width, u.depth)
