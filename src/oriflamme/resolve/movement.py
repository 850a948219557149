"""Movement costs (Magna Carta §3.1, §4, §4.2, §8.1 hexsides) for one step.

>>> from oriflamme.rulesdata import load_ruleset
>>> rs = load_ruleset()
>>> move_cost(rs, "Broussailles", mounted=True, armour=False).data["cost"]
4
>>> move_cost(rs, "Bas Fonds", mounted=False, armour=True).legal
False
"""

from __future__ import annotations

from ..rulesdata import Ruleset
from .ruling import Ruling


def move_cost(rs: Ruleset, terrain: str, mounted: bool, armour: bool, hexside: str | None = None,
              dead_men: int = 0, dead_horses: int = 0) -> Ruling:
    """Cost to enter one hex of ``terrain`` (across ``hexside`` if any)."""
    r = Ruling(kind="move_cost")
    try:
        t = rs.find_terrain(terrain)
    except KeyError as exc:
        return r.refuse(str(exc.args[0]))
    who = "a mounted character" if mounted else ("an armoured character on foot" if armour else "a character on foot")
    r.data["terrain"] = t.id
    cost = t.cost_for(mounted, armour)
    if cost == "impassable":
        r.data["cost"] = None
        return r.refuse(f"{t.names[0]} is impassable for {who}", t.ref)
    r.step(f"{t.names[0]}: {cost} PM for {who}", t.ref)
    if hexside:
        try:
            hs = rs.find_hexside(hexside)
        except KeyError as exc:
            return r.refuse(str(exc.args[0]))
        extra = hs.crossing_for(mounted)
        if extra == "impassable":
            r.data["cost"] = None
            return r.refuse(f"{hs.names[0]} cannot be crossed by {who}", hs.ref)
        r.step(f"crossing the {hs.names[0]}: +{extra} PM", hs.ref)
        cost += extra
    # dead bodies (§4.2.2): 3 men or 1 horse +1; 6 men, 2 horses, or 3 men + 1 horse impassable
    if dead_horses >= 2 or dead_men >= 6 or (dead_men >= 3 and dead_horses >= 1):
        r.data["cost"] = None
        return r.refuse("the hex is choked with dead (six men, two horses, or three men and a horse)", "MC §4.2.2")
    if dead_men >= 3 or dead_horses >= 1:
        r.step("dead in the hex (three men or a horse): +1 PM", "MC §4.2.2")
        cost += 1
    r.data["cost"] = cost
    return r


def allowance(rs: Ruleset, base: int, weather: str = "clear", indoors: bool = False) -> Ruling:
    """A character's movement points this phase under ``weather`` (§3.2: rounded down,
    not inside covered buildings)."""
    r = Ruling(kind="allowance")
    w = rs.find_weather(weather)
    num, den = w.movement
    if indoors or num == den:
        r.data["points"] = base
        r.step(f"movement allowance {base}", "MC §4")
        return r
    pts = base * num // den
    r.data["points"] = pts
    r.step(f"{w.names[0]}: {base} × {num}/{den} = {pts} PM (rounded down)", "MC §3.2")
    return r
