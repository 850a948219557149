"""The rider's jump over an obstacle (Magna Carta §4.4.3).

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> jump_test(load_ruleset(), armour=True, wounded=False, two_hexes=False, die=9).result
'refusal'
"""

from __future__ import annotations

from ..rulesdata import Ruleset
from .banded import banded
from .ruling import Ruling


def jump_test(rs: Ruleset, armour: bool, wounded: bool, two_hexes: bool, die: int | None = None) -> Ruling:
    """A rider jumping water, a crevasse, a trench or a low wall (§4.4.3)."""
    r = Ruling(kind="jump")
    flags = {"armour": armour, "wounded": wounded, "two_hexes": two_hexes}
    mods = [m for m in rs.jump_modifiers if flags.get(m.condition)]
    return banded(r, rs.jump_bands, mods, die, "jump")
