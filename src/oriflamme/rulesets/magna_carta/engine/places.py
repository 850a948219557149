"""Where a character may be put without moving (retreats, advances, set-downs, dismounting,
a passenger falling): the free hexes round a counter, open terrain and hexsides (§4.1, §4.2)."""

from __future__ import annotations

from ....geometry.hexgrid import Hex
from .character import Character
from .state import GameState


def around(state: GameState, hexes: tuple[Hex, ...]) -> list[Hex]:
    """Map hexes next to a two-hex counter (not its own)."""
    out = []
    for h in hexes:
        for n in h.neighbours():
            if n not in hexes and n in state.gmap and n not in out:
                out.append(n)
    return sorted(out)


def free_for_foot(state: GameState, c: Character, h: Hex) -> bool:
    rs = state.rules
    if rs.terrain[state.gmap.terrain(h)].cost_for(False, c.armour) == "impassable":
        return False
    if [o for o in state.live_at(h) if o.id != c.id]:
        return False
    return state.horse_at(h) is None


def passable_for(state: GameState, c: Character, frm: Hex, to: Hex) -> bool:
    """Terrain and hexsides allow ``c`` into ``to`` and no enemy stands there (retreats and
    advances spend no movement points but respect what is impassable, §4.2)."""
    rs = state.rules
    if to not in state.gmap:
        return False
    if rs.terrain[state.gmap.terrain(to)].cost_for(c.mounted, c.armour) == "impassable":
        return False
    hs = state.gmap.hexside(frm, to)
    if hs and rs.hexsides[hs].crossing_for(c.mounted) == "impassable":
        return False
    return True
