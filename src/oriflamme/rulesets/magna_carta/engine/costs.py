"""Movement points and the cost of one step (Magna Carta §3, §4): a character's allowance and
the points he has left, who stands where, what a step into a hex costs him, which enemies could
attack a hex (the infiltration triggers of §4.3). The shared ground of the searches on foot
(engine/movement.py) and on horseback (engine/riding.py), which both build on it.
"""

from __future__ import annotations

from typing import Iterable

from ....geometry.hexgrid import Hex
from ..resolve.movement import thresholds
from .animals import led_cap
from .carcasses import bodies_map
from .character import Character
from .escort import escape_problem
from .state import GameState


# --- allowance -------------------------------------------------------------------------------
def allowance(state: GameState, c: Character) -> int:
    """Movement points of ``c`` this phase: his allowance by status (§4), weather (§3.2,
    rounded down), and the limit of the fire he made this phase (§5.1)."""
    if not c.active:
        if c.ransom != "prisoner" or escape_problem(state, c) is not None:
            return 0
    base = c.current_movement
    num, den = state.rules.weather[state.weather].movement
    pts = base * num // den
    limit = state.phase.fire_limit.get(c.id)
    if limit == "half":
        pts //= 2
    elif limit == "none":
        pts = 0
    return pts


def points_left(state: GameState, c: Character) -> int:
    if c.id in state.phase.stopped or c.id in state.phase.clearing:  # §4.3.1 stop; §4.2.3 clearing a hex
        return 0
    left = max(0, allowance(state, c) - state.phase.mp_spent.get(c.id, 0))
    if state.riders.horses:  # §4.6.2 a man leading camels goes no further than they can
        left = led_cap(state, c, left)
    return left


# --- one step ---------------------------------------------------------------------------------
class Occupancy:
    """Who stands where, computed once for a batch of queries (pathfinding)."""

    __slots__ = ("live", "dead")

    def __init__(self, state: GameState):
        self.live: dict[Hex, list[Character]] = {}
        for c in state.characters.values():
            if c.hex is not None and c.alive:
                for h in c.hexes:
                    self.live.setdefault(h, []).append(c)
        self.dead: dict[Hex, tuple[int, int]] = bodies_map(state)  # (men, horses), §4.2.2


class MoveContext:
    """Everything a step cost needs for one mover, looked up once: his cost for each terrain
    and hexside feature, the occupancy, the dead-bodies thresholds (§3.1, §4.2, §8.1)."""

    __slots__ = ("state", "c", "occ", "m", "tcost", "hcost", "dead", "tfrom")

    def __init__(self, state: GameState, c: Character, occ: Occupancy | None = None):
        rs = state.rules
        self.state, self.c, self.m = state, c, state.gmap
        self.occ = occ or Occupancy(state)
        self.tcost = {tid: t.cost_for(c.mounted, c.armour) for tid, t in rs.terrain.items()}
        self.hcost = {hid: h.crossing_for(c.mounted) for hid, h in rs.hexsides.items()}
        self.dead = thresholds(rs)
        # on foot, costs that depend on the hex left (an edition's "1 depuis l'intérieur")
        self.tfrom = {} if c.mounted else {tid: t for tid, t in rs.terrain.items() if t.foot_from}

    def cost(self, frm: Hex, to: Hex, jump: bool = False) -> int | None:
        """The cost of the step, or None if it is forbidden (see :meth:`why` for the reason).
        ``jump``: a rider jumps the hexside between (§4.4.3) if it is jumpable."""
        m = self.m
        if to not in m:
            return None
        cost = self.tcost[m.terrain(to)]
        if cost == "impassable":
            return None
        if self.tfrom and m.terrain(to) in self.tfrom and frm in m:
            cost = self.tfrom[m.terrain(to)].foot_cost_from(m.terrain(frm), cost)
        side = m.hexside(frm, to)
        if side and not (jump and self.state.rules.hexsides[side].jumpable):
            extra = self.hcost[side]
            if extra == "impassable":
                return None
            cost += extra
        for o in self.occ.live.get(to, ()):
            if o.side != self.c.side and o.active:
                return None
        men, horses = self.occ.dead.get(to, (0, 0))
        if self.dead.blocked(men, horses):
            return None
        return cost + self.dead.extra(men, horses)

    def why(self, frm: Hex, to: Hex) -> tuple[str, str]:
        """The rule that forbids a step (call when :meth:`cost` returned None)."""
        rs, m, c = self.state.rules, self.m, self.c
        if to not in m:
            return f"{to.label} is off the map", "MC §4"
        t = rs.terrain[m.terrain(to)]
        if self.tcost[t.id] == "impassable":
            who = "mounted characters" if c.mounted else ("armoured characters" if c.armour else "characters on foot")
            ref = "MC §4.2.1; SEED-NOTES D14" if t.water else t.ref
            return f"{t.names[0]} ({to.label}) is impassable for {who}", ref
        side = m.hexside(frm, to)
        if side and self.hcost[side] == "impassable":
            hs = rs.hexsides[side]
            return f"the {hs.names[0]} between {frm.label} and {to.label} cannot be crossed", hs.ref
        for o in self.occ.live.get(to, ()):
            if o.side != c.side and o.active:
                return f"{to.label} holds an enemy ({o.name}) who is neither stunned nor dead", "MC §4.2"
        return f"{to.label} is choked with dead", "MC §4.2.2"


def step_cost(state: GameState, c: Character, frm: Hex, to: Hex, ctx: MoveContext | None = None) -> tuple[int | None, str, str]:
    """Cost for ``c`` to step from ``frm`` into the adjacent ``to``: ``(cost, "", "")`` or
    ``(None, reason, ref)`` when the step is forbidden."""
    ctx = ctx or MoveContext(state, c)
    if frm.distance(to) != 1:
        return None, f"{to.label} is not adjacent to {frm.label}", "MC §4"
    cost = ctx.cost(frm, to)
    if cost is None:
        return (None, *ctx.why(frm, to))
    return cost, "", ""


def can_attack_hex(state: GameState, enemy: Character, h: Hex) -> bool:
    """Whether ``enemy`` could attack a character in the adjacent hex ``h``: he is active,
    adjacent, could enter it, and no wall stands between (§6.7, §4.3.1.1)."""
    if not enemy.active:
        return False
    return could_strike_hex(state, enemy, h)


def could_strike_hex(state: GameState, enemy: Character, h: Hex) -> bool:
    """:func:`can_attack_hex` without the condition that ``enemy`` be able to act (a prisoner
    joining an attack on his escort, §6.9, is checked in engine/ransom.py)."""
    if enemy.hex is None:
        return False
    rs = state.rules
    froms = [x for x in enemy.hexes if x.distance(h) == 1]  # a rider strikes from either hex
    if not froms:
        return False
    t = rs.terrain[state.gmap.terrain(h)]
    if t.cost_for(enemy.mounted, enemy.armour) == "impassable":
        return False
    for x in froms:
        if x in state.gmap and t.combat_blocked(rs.terrain[state.gmap.terrain(x)]):
            continue  # an edition's "combat impossible à travers" (a tent, an arrow slit)
        side = state.gmap.hexside(x, h)
        if not (side and rs.hexsides[side].no_combat):
            return True
    return False


def opposers(state: GameState, c: Character, h: Hex, exclude: Iterable[str] = ()) -> list[Character]:
    """Enemies who may make an infiltration test against ``c`` crossing ``h`` (§4.3, §4.3.1.1)."""
    ex = set(exclude)
    out = []
    for e in state.characters.values():
        if e.side == c.side or e.id in ex or e.id in state.phase.opportunity_used:
            continue
        if e.hex is not None and can_attack_hex(state, e, h):
            out.append(e)
    return sorted(out, key=lambda e: e.id)


def position_opposers(state: GameState, c: Character, hexes: Iterable[Hex], exclude: Iterable[str] = ()) -> list[Character]:
    """Enemies who may test ``c`` crossing a position covering ``hexes``: a rider is tested by
    an enemy next to either of his two hexes (§4.3.1.2), once per enemy."""
    seen: dict[str, Character] = {}
    for h in hexes:
        for e in opposers(state, c, h, exclude):
            seen.setdefault(e.id, e)
    return [seen[k] for k in sorted(seen)]


def threatened(state: GameState, c: Character, h: Hex) -> bool:
    return bool(opposers(state, c, h))


def threatened_hexes(state: GameState, c: Character) -> set[Hex]:
    """Every hex whose crossing by ``c`` would trigger an infiltration test now."""
    out: set[Hex] = set()
    tables: dict[tuple[bool, bool], dict] = {}
    for e in state.characters.values():
        if e.side == c.side or e.id in state.phase.opportunity_used or not e.active or e.hex is None:
            continue
        kind = (bool(e.mounted), bool(e.armour))
        table = tables.get(kind)
        if table is None:
            table = tables[kind] = _attack_table(state, *kind)
        for eh in e.hexes:
            row = table.get(eh)
            if row is not None:
                out.update(row)
            else:  # off the map: the long way
                for n in eh.neighbours():
                    if n in state.gmap and can_attack_hex(state, e, n):
                        out.add(n)
    return out


# --- per-map tables (the map and the ruleset are immutable: built once, kept on the map) ----
def _attack_table(state: GameState, mounted: bool, armour: bool) -> dict[Hex, tuple[Hex, ...]]:
    """Map hex -> the neighbours an active enemy standing there, ``mounted``/``armour``, could
    attack (:func:`can_attack_hex`: he could enter the hex and no hexside forbids combat)."""
    rs = state.rules
    m = state.gmap

    def build():
        tcost = {tid: t.cost_for(mounted, armour) for tid, t in rs.terrain.items()}
        no_combat = {hid for hid, hs in rs.hexsides.items() if hs.no_combat}
        walled = any(t.no_combat for t in rs.terrain.values())  # an edition's "combat impossible à travers"
        return (rs, {h: tuple(n for n, tid, side in row
                               if tcost[tid] != "impassable" and not (side and side in no_combat)
                               and not (walled and rs.terrain[tid].combat_blocked(rs.terrain[m.terrain(h)])))
                     for h, row in m.adjacency().items()})

    return per_ruleset(m, ("attack", mounted, armour), rs, build)


def step_table(state: GameState, mounted: bool, armour: bool) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
    """Map hex -> ``((neighbour, cost << SHIFT), ...)``: the steps terrain and hexsides allow
    a mover ``mounted``/``armour`` out of it, with their cost (terrain + hexside, §3.1, §8.1),
    in direction order. Occupants (enemies, dead bodies) are not in it: they change."""
    rs = state.rules
    m = state.gmap

    def build():
        tcost = {tid: t.cost_for(mounted, armour) for tid, t in rs.terrain.items()}
        hcost = {hid: h.crossing_for(mounted) for hid, h in rs.hexsides.items()}
        tfrom = {} if mounted else {tid: t for tid, t in rs.terrain.items() if t.foot_from}
        if tfrom:  # an edition's costs that depend on the hex left ("1 depuis l'intérieur")
            return (rs, {h: _steps_from(row, tcost, hcost, tfrom, m.terrain(h)) for h, row in m.adjacency().items()})
        return (rs, {h: _steps_from(row, tcost, hcost) for h, row in m.adjacency().items()})

    return per_ruleset(m, ("steps", mounted, armour), rs, build)


def _steps_from(row, tcost, hcost, tfrom=None, here=None) -> tuple[tuple[Hex, int], ...]:
    out = []
    for n, tid, side in row:
        cost = tcost[tid]
        if cost == "impassable":
            continue
        if tfrom and tid in tfrom:
            cost = tfrom[tid].foot_cost_from(here, cost)
        if side:
            extra = hcost[side]
            if extra == "impassable":
                continue
            cost += extra
        out.append((n, cost << SHIFT))
    return tuple(out)


def per_ruleset(m, key: tuple, rs, build):
    # keyed by the ruleset object too (its id() kept alive by the value): two rulesets never mix
    held, table = m.memo(key + (id(rs),), build)
    assert held is rs
    return table


def obstacles(state: GameState, c: Character, th):
    """``(blocked, heavy, occupied)`` for ``c`` now: hexes he cannot enter (an enemy neither
    stunned nor dead, §4.2; or choked with dead men and horses, §4.2.2), hexes costing +1 for
    the dead in them, hexes holding a live character (no move ends there, §4.1)."""
    blocked: set[Hex] = set()
    occupied: set[Hex] = set()
    side = c.side
    dead_chars = False
    for o in state.characters.values():
        h = o.hex
        if h is None:
            continue
        if o.alive:
            occupied.update(o.hexes)
            if o.side != side and o.active:
                blocked.update(o.hexes)
        else:
            dead_chars = True
    for horse in state.riders.horses.values():
        if horse.alive:
            occupied.update(horse.hexes)  # a riderless horse may be passed, not shared (§4.1)
    heavy: set[Hex] = set()
    for h, (n, horses) in (bodies_map(state) if dead_chars or state.bodies.carcasses else {}).items():
        if th.blocked(n, horses):
            blocked.add(h)
        elif th.extra(n, horses):
            heavy.add(h)
    return blocked, heavy, occupied


SHIFT = 32  # search keys: cost << SHIFT | threatened crossings
