"""The horses' fear test next to a camel (Magna Carta §4.6.5).

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> fear_test(load_ruleset(), used_to_camels=True, die=3).result
'forced'
"""

from __future__ import annotations

from ..rulesdata import Ruleset
from .banded import banded
from .ruling import Ruling


def fear_test(rs: Ruleset, used_to_camels: bool, die: int | None = None) -> Ruling:
    """1D10 for a horse entering a hex next to a camel (§4.6.5): ``frightened`` (1-4: he backs
    away), ``forced`` (5-7: he enters), ``none`` (8-10); +2 for Saracens, Bedouins, Turcopoles."""
    r = Ruling(kind="fear")
    flags = {"used_to_camels": used_to_camels}
    mods = [m for m in rs.camels.fear_modifier if flags.get(m.condition)]
    return banded(r, rs.camels.fear_band, mods, die, "fear")
