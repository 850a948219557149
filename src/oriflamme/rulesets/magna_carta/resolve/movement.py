"""Movement costs (Magna Carta §3.1, §4, §4.2, §8.1 hexsides) for one step.

>>> from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
>>> rs = load_ruleset()
>>> move_cost(rs, "Broussailles", mounted=True, armour=False).data["cost"]
4
>>> move_cost(rs, "Bas Fonds", mounted=False, armour=True).legal
False
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulesdata import Ruleset
from .ruling import Ruling


@dataclass(frozen=True)
class Thresholds:
    """§4.2.2 as data: when the dead in a hex cost +1 and when they make it impassable."""

    men_extra: int
    men_block: int
    horses_extra: int
    horses_block: int
    mixed_men: int
    mixed_horses: int

    @classmethod
    def of(cls, rules) -> "Thresholds":
        v = {k: r.value for k, r in rules.movement_rules.items()}
        return cls(v["dead_men_extra_cost"], v["dead_men_impassable"], v["dead_horses_extra_cost"],
                   v["dead_horses_impassable"], v["dead_mixed_impassable_men"], v["dead_mixed_impassable_horses"])

    @property
    def empty_counts(self) -> bool:
        """Whether a hex without bodies would already reach a threshold (odd data)."""
        return min(self.men_extra, self.men_block, self.horses_extra, self.horses_block) <= 0 or (
            self.mixed_men <= 0 and self.mixed_horses <= 0)

    def blocked(self, men: int, horses: int) -> bool:
        return (men >= self.men_block or horses >= self.horses_block
                or (men >= self.mixed_men and horses >= self.mixed_horses))

    def extra(self, men: int, horses: int) -> int:
        """+1 when the hex is heavy with dead (once, whatever the mix)."""
        return 1 if men >= self.men_extra or horses >= self.horses_extra else 0


_THRESHOLDS: dict[int, tuple[object, Thresholds]] = {}


def thresholds(rules) -> Thresholds:
    """The §4.2.2 thresholds of ``rules`` (built once per ruleset)."""
    held = _THRESHOLDS.get(id(rules))
    if held is None or held[0] is not rules:
        held = _THRESHOLDS[id(rules)] = (rules, Thresholds.of(rules))
    return held[1]


def move_cost(rs: Ruleset, terrain: str, mounted: bool, armour: bool, hexside: str | None = None,
              dead_men: int = 0, dead_horses: int = 0, from_terrain: str | None = None) -> Ruling:
    """Cost to enter one hex of ``terrain`` (across ``hexside`` if any; from a hex of
    ``from_terrain`` when the terrain's cost on foot depends on it)."""
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
    frm = rs.find_terrain(from_terrain) if from_terrain is not None and not mounted and t.foot_from else None
    if frm is not None and frm.id in t.foot_from:
        cost = t.foot_cost_from(frm.id, cost)
        r.step(f"{t.names[0]}: {cost} PM for {who}, coming from {frm.names[0]}", t.ref)
    else:
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
    th = thresholds(rs)
    if th.blocked(dead_men, dead_horses):
        r.data["cost"] = None
        return r.refuse("the hex is choked with dead (six men, two horses, or three men and a horse)", "MC §4.2.2")
    if th.extra(dead_men, dead_horses):
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
