"""The infiltration test (Magna Carta §4.3, table §4.3.1).

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> rs = load_ruleset()
>>> infiltration_test(rs, Infiltrator(mounted=True, armour=True), Opposer(polearm=True), die=7).result
'stop'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulesdata import Ruleset
from .banded import banded
from .ruling import Ruling


@dataclass(frozen=True)
class Infiltrator:
    mounted: bool = False
    armour: bool = False
    wounded: bool = False


@dataclass(frozen=True)
class Opposer:
    mounted: bool = False
    polearm: bool = False
    wounded: bool = False


def infiltration_test(rs: Ruleset, infiltrator: Infiltrator, opposer: Opposer, die: int | None = None) -> Ruling:
    """One opportunity attack against a character crossing a hex next to an enemy (§4.3)."""
    r = Ruling(kind="infiltration")
    r.step("an enemy able to attack the hex crossed rolls 1D10 on the infiltration table", "MC §4.3, §4.3.1")
    mods = []
    for m in rs.infiltration_modifiers:
        who = infiltrator if m.who == "infiltrator" else opposer
        if getattr(who, m.condition, False):
            mods.append(m)
    return banded(r, rs.infiltration_bands, mods, die, "infiltration")
