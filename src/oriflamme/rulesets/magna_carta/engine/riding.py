"""Riders on the map (Magna Carta §1.2, §4.4.1, §4.3.1.2, §4.3.2): a mounted character covers
two hexes, his front hex ``c.hex`` and his rear hex behind it, opposite ``c.facing``.

A rider moves by steps of his front hex. A step is written, in a move's path, as the label of
the hex the front enters, which says which kind of step it is:

* a hex adjacent to the front: the horse walks on, the rear follows into the old front hex,
  and the counter now faces the way it stepped. Ahead (the facing or either side of it): the
  terrain's cost; into a central side hex (adjacent to both hexes of the counter): +1;
* a hex adjacent to the rear only: the horse swings round on its rear hex (which stays) —
  a rear side hex +2, the hex straight behind +3;
* the rear hex itself: a half-turn on the spot (front and rear swap) for 3 PM in all — the
  volte, during which only enemies on the two central side hexes may test it (§4.3.2);
* straight ahead across a low wall, or two or three hexes ahead over water: a jump
  (§4.4.3), with its die roll when it is made (:func:`jump_step`).

The extra costs are data (``movement.toml``, ``turn_*``). Oriflamme's reading of §4.4.1's lost
figure: the 1/2/3 are counted around the whole two-hex counter (docs/decisions.md).
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from typing import NamedTuple

from ....geometry.hexgrid import Hex
from .character import Character
from .state import GameState
from ..resolve.movement import thresholds
from .memo import per_position
from .costs import SHIFT, MoveContext, obstacles, per_ruleset, points_left, step_table, threatened_hexes

AHEAD, SIDE, SWING_SIDE, SWING_BEHIND, VOLTE = "ahead", "central side", "rear side", "behind", "volte"
JUMP = "jump"


class RiderStep(NamedTuple):
    front: Hex        # the new front hex
    facing: int       # the new facing
    kind: str         # AHEAD, SIDE, SWING_SIDE, SWING_BEHIND, VOLTE, JUMP
    extra: int        # extra points (§4.4.1); for the volte, its whole cost
    entered: Hex | None   # the hex newly entered (None for the volte)
    crossed_from: Hex | None  # the hex the entered hex is entered from (its hexside)
    over: tuple[Hex, ...] = ()  # a jump: the hexes jumped over (none for a low wall)


def jump_step(state: GameState, front: Hex, facing: int, h: Hex) -> RiderStep | None:
    """A jump straight ahead (§4.4.3) that lands the front in ``h``: across a jumpable hexside
    (a low wall) into the next hex, or over one or two jumpable hexes (water). The rear
    follows into the hex behind the landing: a move cannot end with the horse astride the
    obstacle (see :func:`counter_problem`)."""
    rs, m = state.rules, state.gmap
    n1 = front.neighbour(facing)
    if h == n1:
        side = m.hexside(front, n1)
        if side and rs.hexsides[side].jumpable:
            return RiderStep(h, facing, JUMP, 0, h, front, ())
        return None
    over: list[Hex] = []
    cur = front
    per_hex = rs.movement_rules["jump_hex_cost"].value
    for _ in range(2):  # one hex, or two at once (§4.4.3 "sauter 2 cases à la fois", +4)
        cur = cur.neighbour(facing)
        if cur not in m or not rs.terrain[m.terrain(cur)].jumpable:
            return None
        over.append(cur)
        if cur.neighbour(facing) == h:
            return RiderStep(h, facing, JUMP, per_hex * len(over), h, cur, tuple(over))
    return None


def counter_problem(state: GameState, c: Character, front: Hex, facing: int) -> str | None:
    """Why a rider cannot end a move in this position (his horse astride an obstacle), or None."""
    rs, m = state.rules, state.gmap
    rear = front.neighbour(facing + 3)
    for h in (rear, front):
        if h not in m or rs.terrain[m.terrain(h)].cost_for(True, c.armour) == "impassable":
            return f"{c.name}'s horse cannot stop with its hindquarters in {h.label}"
    side = m.hexside(front, rear)
    if side and rs.hexsides[side].crossing_for(True) == "impassable":
        return f"{c.name}'s horse cannot stop astride the {rs.hexsides[side].names[0].lower()}"
    return None


def extra_costs(state: GameState) -> dict[str, int]:
    r = state.rules.movement_rules
    return {AHEAD: 0, SIDE: r["turn_central_side"].value, SWING_SIDE: r["turn_rear_side"].value,
            SWING_BEHIND: r["turn_behind"].value, VOLTE: r["half_turn_on_the_spot"].value}


def classify(front: Hex, facing: int, h: Hex, extras: dict[str, int]) -> RiderStep | None:
    """The step that takes the front of a counter at ``front``/``facing`` into ``h``, or None."""
    d = front.direction_to(h)
    if d is not None:
        rel = (d - facing) % 6
        if rel == 3:  # the rear hex: half-turn on the spot
            return RiderStep(h, (facing + 3) % 6, VOLTE, extras[VOLTE], None, None)
        kind = AHEAD if rel in (0, 1, 5) else SIDE
        return RiderStep(h, d, kind, extras[kind], h, front)
    rear = front.neighbour(facing + 3)
    d = rear.direction_to(h)
    if d is None:
        return None
    rel = (d - facing) % 6
    if rel in (2, 4):
        return RiderStep(h, d, SWING_SIDE, extras[SWING_SIDE], h, rear)
    if rel == 3:
        return RiderStep(h, d, SWING_BEHIND, extras[SWING_BEHIND], h, rear)
    return None  # rel 1/5 are adjacent to the front too (handled above); rel 0 is the front


def walk_on(front: Hex, h: Hex) -> tuple[Hex, int]:
    """Forced displacements (retreats, advances): every step walks on, the rear following."""
    d = front.direction_to(h)
    assert d is not None, (front, h)
    return h, d


def central_sides(c: Character) -> tuple[Hex, Hex]:
    """The two hexes beside a rider, adjacent to both his hexes (§4.3.2)."""
    return (c.hex.neighbour(c.facing + 2), c.hex.neighbour(c.facing - 2))


def counter_hexes(front: Hex, facing: int) -> tuple[Hex, Hex]:
    return front, front.neighbour(facing + 3)


# --- search ------------------------------------------------------------------------------
_KINDS = (AHEAD, SIDE, SWING_SIDE, SWING_BEHIND, VOLTE)
_NO_EXTRA = {k: 0 for k in _KINDS}


@lru_cache(maxsize=1 << 16)
def _geometry(front: Hex, facing: int) -> tuple[Hex, tuple[tuple[Hex, tuple[Hex, int], str, Hex | None], ...], Hex]:
    """``(rear, steps, the hex ahead)`` of a counter at ``front``/``facing``: for each of the nine hexes its
    front may step into, ``(hex, next (front, facing), kind, entered from)`` — pure geometry,
    the same on every map (the search's hot loop reads it instead of classifying each step)."""
    rear = front.neighbour(facing + 3)
    cands = list(front.neighbours()) + [h for h in rear.neighbours() if h != front and h.distance(front) > 1]
    out = []
    for h in cands:
        st = classify(front, facing, h, _NO_EXTRA)
        if st is not None:
            out.append((h, (st.front, st.facing), st.kind, st.crossed_from))
    return rear, tuple(out), front.neighbour(facing)


def _jumpable(state: GameState) -> tuple[frozenset, bool]:
    """The map's jumpable hexes and whether it has a jumpable hexside (memoised on the map)."""
    rs, m = state.rules, state.gmap

    def build():
        hexes = frozenset(h for h in m.adjacency() if rs.terrain[m.terrain(h)].jumpable)
        sides = any(rs.hexsides[f].jumpable for _, _, f in _hexsides_of(m))
        return (rs, (hexes, sides))

    held, value = m.memo(("jumpable", id(rs)), build)
    assert held is rs
    return value


def _hexsides_of(m):
    for h, row in m.adjacency().items():
        for n, _, side in row:
            if side:
                yield h, n, side


def _rider_table(state: GameState, armour: bool):
    """Per map, ruleset and armour (kept in ``GameMap.memo``): the search's states as ints,
    ``hex index * 6 + facing`` (the hexes sorted, so the ints sort like ``(Hex, facing)`` and
    the heap breaks ties as before), and a list, filled the first time a state is expanded, of
    ``(front, rear, moves, jumps, may_end, front index, rear index)`` (an index -1: off the
    map): ``moves`` the steps terrain and hexsides allow, ``(next state, cost << SHIFT with the
    turn's extra, index of the entered hex or -1 for the volte)`` in :func:`_geometry`'s order (a volte whose new front the horse cannot enter dropped);
    ``jumps`` the jumps straight ahead (:func:`jump_step`) as ``(next state, landing hex,
    crossed from, extra << SHIFT)``, their cost asked per search (it depends on who stands
    there); ``may_end`` False when the horse would stand astride an obstacle
    (:func:`counter_problem`)."""
    rs, m = state.rules, state.gmap

    def build():
        steps = step_table(state, True, armour)
        hexes = sorted(m.adjacency())
        idx = {h: i for i, h in enumerate(hexes)}
        return (rs, (hexes, idx, [None] * (6 * len(hexes)), steps))

    hexes, idx, rows, steps = per_ruleset(m, ("rider-states", armour), rs, build)
    jump_hexes, jump_sides = _jumpable(state)
    astride_possible = bool(jump_hexes) or jump_sides  # only a jump leaves a horse astride
    ex = extra_costs(state)
    extra = {k: ex[k] << SHIFT for k in _KINDS}
    horse_cannot = {tid for tid, t in rs.terrain.items() if t.cost_for(True, armour) == "impassable"}
    no_cross = {f for f, hs in rs.hexsides.items() if hs.crossing_for(True) == "impassable"}
    m_terrain, hexside = m.terrain, m.hexside

    def row(s: int):
        front, facing = hexes[s // 6], s % 6
        rear, geo, ahead = _geometry(front, facing)
        moves = []
        for h, (nf, nfa), kind, frm in geo:
            if kind == VOLTE:
                if m_terrain(h) in horse_cannot:
                    continue  # no half-turn with the hindquarters over the water just jumped
                moves.append((idx[nf] * 6 + nfa, extra[VOLTE], -1))
            else:
                sc = dict(steps.get(frm, ())).get(h)
                if sc is None:
                    continue
                moves.append((idx[nf] * 6 + nfa, sc + extra[kind], idx[h]))
        jumps = []
        if ahead in jump_hexes or (jump_sides and hexside(front, ahead)):
            for x in (ahead, ahead.neighbour(facing), ahead.neighbour(facing).neighbour(facing)):
                j = jump_step(state, front, facing, x)
                if j is None or j.front not in idx:
                    continue  # off the map: MoveContext.cost would refuse it
                jumps.append((idx[j.front] * 6 + j.facing, x, j.crossed_from, j.extra << SHIFT))
        may_end = not (astride_possible and (m_terrain(front) in horse_cannot or m_terrain(rear) in horse_cannot
                                             or hexside(front, rear) in no_cross))
        r = rows[s] = (front, rear, tuple(moves), tuple(jumps), may_end, s // 6, idx.get(rear, -1))
        return r

    return idx, rows, row


def _indices(hexes, idx) -> set[int]:
    """The map indices of ``hexes`` (those off the map dropped: no state stands there)."""
    return {i for i in map(idx.get, hexes) if i is not None}


def _start(state: GameState, c: Character):
    """What a search of ``c`` now starts from: ``(idx, rows, row, start state, blocked, heavy,
    occupied)`` (the hexes of the position as map indices), or None when his counter is not
    wholly on the map."""
    idx, rows, row = _rider_table(state, bool(c.armour))
    rear0 = c.hex.neighbour(c.facing + 3)
    if c.hex not in idx or rear0 not in idx:
        # a counter not wholly on the map: scenarios refuse one and no step makes one
        # (every step keeps both hexes on the map), so it has nowhere to go
        return None
    blocked, heavy, occupied = obstacles(state, c, thresholds(state.rules))
    return (idx, rows, row, idx[c.hex] * 6 + c.facing, _indices(blocked, idx), _indices(heavy, idx),
            _indices(occupied - set(c.hexes), idx))


def _search(state: GameState, c: Character, budget: int, first_only: bool):
    """The rider's search (Dijkstra over ``(front, facing)`` states, keyed by cost << SHIFT
    plus the threatened positions crossed): ``None`` when the counter is not wholly on the
    map; with ``first_only``, the first position he may end in as ``reachable`` answers it;
    else ``(ends, prev, rows, start)``: ``ends`` the ``(state, key)`` he may end a move in, in
    the order they were first reached, ``prev`` each state's predecessor on its best path."""
    begun = _start(state, c)
    if begun is None:
        return None
    idx, rows, row, start, blocked, heavy, occupied = begun
    danger = _indices(threatened_hexes(state, c), idx)
    ctx = None  # a MoveContext, for jumps only (§4.4.3): built on the first one
    one = 1 << SHIFT
    limit = (budget + 1) << SHIFT
    best = [limit] * len(rows)  # limit: not reached
    best[start] = 0
    order = [start]  # the states in the order they were first reached
    prev: dict[int, int] = {}
    heap = [(0, start)]
    pop, push, reached = heapq.heappop, heapq.heappush, order.append
    while heap:
        key, s = pop(heap)
        if best[s] < key:
            continue
        r = rows[s] or row(s)
        _, _, moves, jumps, may_end, fi, ri = r
        if s != start:
            if first_only and may_end and fi not in occupied and ri not in occupied:
                return {(r[0], s % 6): (key >> SHIFT, ())}
            if fi in danger or ri in danger:
                key += 1  # leaving a threatened position crosses it
        for ns, cost, h in moves:
            if h in blocked:  # never the volte's -1
                continue
            if h in heavy:
                cost += one
            nk = key + cost
            b = best[ns]
            if nk < b:  # best[ns] <= limit
                if b == limit:
                    reached(ns)
                best[ns] = nk
                prev[ns] = s
                push(heap, (nk, ns))
        for ns, x, frm, jx in jumps:
            if ctx is None:
                ctx = MoveContext(state, c)
            sc = ctx.cost(frm, x, jump=True)
            if sc is None:
                continue
            nk = key + (sc << SHIFT) + jx
            b = best[ns]
            if nk < b:
                if b == limit:
                    reached(ns)
                best[ns] = nk
                prev[ns] = s
                push(heap, (nk, ns))
    if first_only:
        return {}
    ends = []
    for s in order:
        if s == start:
            continue
        _, _, _, _, may_end, fi, ri = rows[s] or row(s)
        if may_end and fi not in occupied and ri not in occupied:
            ends.append((s, best[s]))
    return ends, prev, rows, start


@per_position  # answered once per position inside memo.read_only (a web response)
def reachable(state: GameState, c: Character, budget: int, first_only: bool = False) -> dict[tuple[Hex, int], tuple[int, tuple[Hex, ...]]]:
    """Every (front hex, facing) a rider can end a move in, with its cost and a path (front
    steps, the start excluded); the cheapest path, then the one with fewest threatened
    positions crossed (§4.3.1.2: an enemy next to either hex). ``first_only``: stop at the
    first such position found (``can_move``)."""
    found = _search(state, c, budget, first_only)
    if found is None:
        return {}
    if first_only:
        return found
    ends, prev, rows, start = found
    # every step's label is the hex its new front stands in (walk, turn, volte and jump alike)
    paths: dict[int, tuple[Hex, ...]] = {start: ()}

    def path_of(s):
        p = paths.get(s)
        if p is None:
            chain = []
            cur = s
            while cur not in paths:
                chain.append(cur)
                cur = prev[cur]
            p = paths[cur]
            for x in reversed(chain):
                p = paths[x] = p + (rows[x][0],)
        return p

    return {(rows[s][0], s % 6): (k >> SHIFT, path_of(s)) for s, k in ends}


@per_position
def reach_costs(state: GameState, c: Character, budget: int) -> dict[tuple[Hex, int], int]:
    """:func:`reachable` without the paths: each (front hex, facing) the rider can end a move
    in, with its cost — the same keys and costs, the keys sorted. The cheapest cost does not
    depend on the tie-break between equal costs (the threatened positions crossed) nor on the
    order the states are met, so the search is simpler: by cost levels (Dial's buckets, the
    costs being small integers), without paths."""
    begun = _start(state, c)
    if begun is None:
        return {}
    idx, rows, row, start, blocked, heavy, occupied = begun
    ctx = None  # a MoveContext, for jumps only (§4.4.3): built on the first one
    best = [budget + 1] * len(rows)  # budget + 1: not reached
    best[start] = 0
    reached: list[int] = []  # each state once, when first reached
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for d in range(budget + 1):
        for s in buckets[d]:  # a step costing 0 would append here, and be seen
            if best[s] != d:
                continue  # reached again, cheaper
            _, _, moves, jumps, _, _, _ = rows[s] or row(s)
            for ns, cost, h in moves:
                if h in blocked:  # never the volte's -1
                    continue
                nd = d + (cost >> SHIFT) + (h in heavy)
                b = best[ns]
                if nd < b:  # b <= budget + 1
                    if b > budget:
                        reached.append(ns)
                    best[ns] = nd
                    buckets[nd].append(ns)
            for ns, x, frm, jx in jumps:
                if ctx is None:
                    ctx = MoveContext(state, c)
                sc = ctx.cost(frm, x, jump=True)
                if sc is None:
                    continue
                nd = d + sc + (jx >> SHIFT)
                b = best[ns]
                if nd < b:
                    if b > budget:
                        reached.append(ns)
                    best[ns] = nd
                    buckets[nd].append(ns)
    out = {}
    reached.sort()  # the states sort like their (front hex, facing) keys (see _rider_table)
    for s in reached:
        if s != start:
            front, _, _, _, may_end, fi, ri = rows[s] or row(s)
            if may_end and fi not in occupied and ri not in occupied:
                out[(front, s % 6)] = best[s]
    return out


def check_path(state: GameState, c: Character, path: tuple[Hex, ...]) -> tuple[int | None, str, str]:
    """Total cost of a rider's move along ``path`` (front steps) or ``(None, reason, ref)``."""
    ctx = MoveContext(state, c)
    extras = extra_costs(state)
    front, facing = c.hex, c.facing
    total = 0
    for h in path:
        s = step_of(state, ctx, front, facing, h, extras)
        if s is None:
            return None, (f"{h.label} is not next to {c.name}'s counter "
                          f"({front.label}, {front.neighbour(facing + 3).label})"), "MC §4.4.1"
        if s.kind == VOLTE and ctx.tcost[state.gmap.terrain(h)] == "impassable":
            return None, f"{c.name}'s horse cannot turn round into {h.label}", "MC §4.2.1, §4.4.1"
        if s.kind != VOLTE:
            sc = ctx.cost(s.crossed_from, h, jump=s.kind == JUMP)
            if sc is None:
                why, ref = ctx.why(s.crossed_from, h)
                return None, why, ref
            total += sc
        total += s.extra
        front, facing = s.front, s.facing  # the rear is always a hex the counter covered
    left = points_left(state, c)
    if total > left:
        return None, f"the move costs {total} PM (turns included) and {c.name} has {left} left", "MC §4, §4.4.1"
    astride = counter_problem(state, c, front, facing)
    if astride:
        return None, astride, "MC §4.4.3"
    for h in counter_hexes(front, facing):
        if [o for o in state.live_at(h) if o.id != c.id]:
            return None, f"a move cannot end in {h.label}: one live character per hex", "MC §4.1"
        if state.horse_at(h) is not None:
            return None, f"a move cannot end in {h.label}: a horse stands there", "MC §4.1"
    return total, "", ""


def step_of(state: GameState, ctx, front: Hex, facing: int, h: Hex, extras: dict[str, int]) -> RiderStep | None:
    """The step a path's label ``h`` stands for: a turn or a walk (:func:`classify`), or a jump
    (:func:`jump_step`) — straight ahead across a jumpable hexside the step is a jump."""
    s = classify(front, facing, h, extras)
    if s is not None and s.kind == AHEAD and s.facing == facing and ctx.cost(front, h) is None:
        j = jump_step(state, front, facing, h)
        if j is not None and ctx.cost(front, h, jump=True) is not None:
            return j
    return s if s is not None else jump_step(state, front, facing, h)


def path_steps(state: GameState, c: Character, path: tuple[Hex, ...], extras: dict[str, int], ctx=None) -> list[RiderStep]:
    """The steps of a (checked) path from the rider's position."""
    ctx = ctx or MoveContext(state, c)
    out = []
    front, facing = c.hex, c.facing
    for h in path:
        s = step_of(state, ctx, front, facing, h, extras)
        out.append(s)
        front, facing = s.front, s.facing
    return out
