"""Movement on the map (Magna Carta §4): costs, allowances, reachable hexes, infiltration
triggers. Pure queries; :mod:`oriflamme.rulesets.magna_carta.engine.apply` performs the moves.

Oriflamme's readings, where the text leaves a choice (docs/decisions.md):

* A character may make several moves in his movement step until his points are spent; moving
  through friends, stunned or dead characters is free (§4.1, §4.2) but a move must end in a hex
  without a live character (§4.1: one live character per hex at the end of each movement).
* The infiltration test (§4.3) is triggered by every hex *crossed* — entered and left in the
  same move — that is adjacent to an enemy able to attack it; neither the start hex nor the
  final hex triggers one. Each enemy makes at most one such test per phase.
"""

from __future__ import annotations

import heapq
from typing import Iterable

from ....geometry.hexgrid import Hex
from ..resolve.movement import thresholds
from .carcasses import bodies_map
from .character import Character
from .state import GameState
from .animals import led_cap, passive_problem
from .escort import escape_problem


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
    limit = state.fire_limit.get(c.id)
    if limit == "half":
        pts //= 2
    elif limit == "none":
        pts = 0
    return pts


def points_left(state: GameState, c: Character) -> int:
    if c.id in state.stopped or c.id in state.clearing:  # §4.3.1 stop; §4.2.3 clearing a hex
        return 0
    left = max(0, allowance(state, c) - state.mp_spent.get(c.id, 0))
    if state.horses:  # §4.6.2 a man leading camels goes no further than they can
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

    __slots__ = ("state", "c", "occ", "m", "tcost", "hcost", "dead")

    def __init__(self, state: GameState, c: Character, occ: Occupancy | None = None):
        rs = state.rules
        self.state, self.c, self.m = state, c, state.gmap
        self.occ = occ or Occupancy(state)
        self.tcost = {tid: t.cost_for(c.mounted, c.armour) for tid, t in rs.terrain.items()}
        self.hcost = {hid: h.crossing_for(c.mounted) for hid, h in rs.hexsides.items()}
        self.dead = thresholds(rs)

    def cost(self, frm: Hex, to: Hex, jump: bool = False) -> int | None:
        """The cost of the step, or None if it is forbidden (see :meth:`why` for the reason).
        ``jump``: a rider jumps the hexside between (§4.4.3) if it is jumpable."""
        m = self.m
        if to not in m:
            return None
        cost = self.tcost[m.terrain(to)]
        if cost == "impassable":
            return None
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
        side = state.gmap.hexside(x, h)
        if not (side and rs.hexsides[side].no_combat):
            return True
    return False


def opposers(state: GameState, c: Character, h: Hex, exclude: Iterable[str] = ()) -> list[Character]:
    """Enemies who may make an infiltration test against ``c`` crossing ``h`` (§4.3, §4.3.1.1)."""
    ex = set(exclude)
    out = []
    for e in state.characters.values():
        if e.side == c.side or e.id in ex or e.id in state.opportunity_used:
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
        if e.side == c.side or e.id in state.opportunity_used or not e.active or e.hex is None:
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
        return (rs, {h: tuple(n for n, tid, side in row
                               if tcost[tid] != "impassable" and not (side and side in no_combat))
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
        return (rs, {h: _steps_from(row, tcost, hcost) for h, row in m.adjacency().items()})

    return per_ruleset(m, ("steps", mounted, armour), rs, build)


def _steps_from(row, tcost, hcost) -> tuple[tuple[Hex, int], ...]:
    out = []
    for n, tid, side in row:
        cost = tcost[tid]
        if cost == "impassable":
            continue
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
    for horse in state.horses.values():
        if horse.alive:
            occupied.update(horse.hexes)  # a riderless horse may be passed, not shared (§4.1)
    heavy: set[Hex] = set()
    for h, (n, horses) in (bodies_map(state) if dead_chars or state.carcasses else {}).items():
        if th.blocked(n, horses):
            blocked.add(h)
        elif th.extra(n, horses):
            heavy.add(h)
    return blocked, heavy, occupied


# --- reachable hexes ------------------------------------------------------------------------
def _search_setup(state: GameState, c: Character):
    """What a search for ``c`` needs, or None when the fast tables do not apply (then the
    search steps through :class:`MoveContext`, the reference implementation)."""
    rs = state.rules
    th = thresholds(rs)
    if th.empty_counts or c.hex not in state.gmap:
        return None  # an empty hex would count as "dead", or a start off the map
    steps = step_table(state, bool(c.mounted), bool(c.armour))
    blocked, heavy, occupied = obstacles(state, c, th)
    return steps, blocked, heavy, occupied


SHIFT = 32  # search keys: cost << SHIFT | threatened crossings


def reachable(state: GameState, c: Character, budget: int | None = None) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Every hex ``c`` can end a move in this step, with its cost and a path (the start
    excluded). Among equally cheap paths the one crossing fewest threatened hexes is kept."""
    if c.hex is None:
        return {}
    if budget is None:
        budget = points_left(state, c)
    if budget <= 0:
        return {}
    if c.mounted:
        from . import riding
        out: dict[Hex, tuple[int, tuple[Hex, ...]]] = {}
        for (front, _), v in sorted(riding.reachable(state, c, budget).items(), key=lambda kv: kv[1][0]):
            out.setdefault(front, v)  # the cheapest facing for each front hex
        return out
    setup = _search_setup(state, c)
    if setup is None:
        return _reachable_reference(state, c, budget)
    steps, blocked, heavy, occupied = setup
    start = c.hex
    danger = threatened_hexes(state, c)
    danger.discard(start)  # leaving the start is no crossing

    # Dijkstra on (cost, threatened crossings), the pair packed in one int: cost << 32 |
    # crossings (the same order; fewer than 2**32 crossings). Every hex is pushed only on a
    # strict improvement, so it is expanded once, with its final key, after the hex it was
    # reached from: its path is that hex's path plus itself, built at that moment.
    limit = (budget + 1) << SHIFT  # keys of costs over the budget start here
    one = 1 << SHIFT
    best: dict[Hex, int] = {start: 0}
    prev: dict[Hex, Hex] = {}
    paths: dict[Hex, tuple[Hex, ...]] = {start: ()}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key, h = pop(heap)
        if best[h] < key:
            continue
        if h != start:
            paths[h] = paths[prev[h]] + (h,)
        if h in danger:
            key += 1  # leaving h crosses it
        for n, sc in steps[h]:
            if n in blocked:
                continue
            nk = key + sc + one if n in heavy else key + sc
            if nk < limit and nk < best.get(n, limit):
                best[n] = nk
                prev[n] = h
                push(heap, (nk, n))
    return {h: (k >> SHIFT, paths[h]) for h, k in best.items() if h != start and h not in occupied}


def can_move(state: GameState, c: Character) -> bool:
    """Whether ``c`` can end a move anywhere this step: ``bool(reachable(state, c))``, with
    points left, found without the whole search (the first free hex within reach ends it)."""
    if c.hex is None:
        return False
    budget = points_left(state, c)
    if budget <= 0 or c.id in state.kneeling:  # §4.6.4 a kneeling camel does not move
        return False
    if c.mounted:
        from . import riding
        return bool(riding.reachable(state, c, budget, first_only=True))
    setup = _search_setup(state, c)
    if setup is None:
        return bool(_reachable_reference(state, c, budget))
    steps, blocked, heavy, occupied = setup
    start = c.hex
    # cheapest cost only (the threat tie-break does not change which hexes are within reach);
    # costs shifted as in the step table
    limit = (budget + 1) << SHIFT
    one = 1 << SHIFT
    best = {start: 0}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, h = pop(heap)
        if best[h] < cost:
            continue
        for n, sc in steps[h]:
            if n in blocked:
                continue
            nc = cost + sc + one if n in heavy else cost + sc
            if nc >= limit:
                continue
            if n not in occupied and n != start:
                return True
            if nc < best.get(n, limit):
                best[n] = nc
                push(heap, (nc, n))
    return False


def _reachable_reference(state: GameState, c: Character, budget: int) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """:func:`reachable` step by step through :class:`MoveContext` (for the cases the tables
    do not cover: a start off the map, rules data where an empty hex counts as dead men)."""
    start = c.hex
    ctx = MoveContext(state, c)
    occ = ctx.occ.live
    step = ctx.cost
    danger = threatened_hexes(state, c)

    def threat(h: Hex) -> int:
        return 1 if h in danger else 0

    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}
    prev: dict[Hex, Hex] = {}
    heap = [(0, 0, start)]
    while heap:
        cost, thr, h = heapq.heappop(heap)
        if best.get(h, (1 << 30, 0)) < (cost, thr):
            continue
        # crossing h (leaving it) counts as a threatened crossing unless h is the start
        thr_out = thr + (threat(h) if h != start else 0)
        for n in h.neighbours():
            sc = step(h, n)
            if sc is None:
                continue
            nc = cost + sc
            if nc > budget:
                continue
            key = (nc, thr_out)
            if key < best.get(n, (1 << 30, 1 << 30)):
                best[n] = key
                prev[n] = h
                heapq.heappush(heap, (nc, thr_out, n))
    out: dict[Hex, tuple[int, tuple[Hex, ...]]] = {}
    for h, (cost, _) in best.items():
        if h == start or occ.get(h):
            continue
        path = [h]
        while path[-1] != start:
            path.append(prev[path[-1]])
        out[h] = (cost, tuple(reversed(path[:-1])))
    return out


def check_path(state: GameState, c: Character, path: tuple[Hex, ...]) -> tuple[int | None, str, str]:
    """Total cost of moving ``c`` along ``path`` or ``(None, reason, ref)``."""
    if not path:
        return None, "an empty move", "MC §4"
    if c.hex is None:  # a passenger in a litter (§4.6.8), a man led off the map (§6.9)
        why, ref = passive_problem(state, c) or (f"{c.name} is not on the map", "MC §4")
        return None, why, ref
    if c.mounted:
        if c.id in state.kneeling:
            return None, f"{c.name}'s camel kneels: it must rise before it moves", "MC §4.6.4"
        from . import riding
        return riding.check_path(state, c, path)
    total = 0
    cur = c.hex
    ctx = MoveContext(state, c)
    for h in path:
        sc, why, ref = step_cost(state, c, cur, h, ctx)
        if sc is None:
            return None, why, ref
        total += sc
        cur = h
    left = points_left(state, c)
    if total > left:
        return None, f"the move costs {total} PM and {c.name} has {left} left", "MC §4, §3.1"
    if state.live_at(path[-1]):
        return None, f"a move cannot end in {path[-1].label}: one live character per hex", "MC §4.1"
    if state.horse_at(path[-1]) is not None:
        return None, f"a move cannot end in {path[-1].label}: a horse stands there", "MC §4.1"
    return total, "", ""
