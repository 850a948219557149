"""The riders' search (``engine.riding.reachable``, §4.4.1, §4.4.3, §4.3.1.2) over int states
and per-map tables returns exactly what the former search over ``(Hex, facing)`` returned: the
same positions, costs, paths and tie-breaks, and ``first_only`` finds a position exactly when
there is one. The former search is kept below as the reference."""

from __future__ import annotations

import heapq
from dataclasses import replace

from gamekit import game, fork
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st_

from oriflamme.rulesets.magna_carta.engine import new_game
from oriflamme.rulesets.magna_carta.engine import riding
from oriflamme.rulesets.magna_carta.engine.character import DEAD, HEALTHY, STUNNED, WOUNDED
from oriflamme.rulesets.magna_carta.engine.riding import (_KINDS, VOLTE, _geometry, _jumpable, extra_costs, jump_step)
from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.magna_carta.scenario import load_scenario


def reference_reachable(state, c, budget, first_only=False):
    """``riding.reachable`` as it was before the int-state tables (commit f705963)."""
    from oriflamme.rulesets.magna_carta.engine.movement import SHIFT, MoveContext, obstacles, step_table, thresholds, threatened_hexes
    rs = state.rules
    steps = step_table(state, True, bool(c.armour))
    cost_of = {}
    blocked, heavy, occupied = obstacles(state, c, thresholds(rs))
    occupied = occupied - set(c.hexes)
    danger = threatened_hexes(state, c)
    ex = extra_costs(state)
    extra = {k: ex[k] << SHIFT for k in _KINDS}
    jump_hexes, jump_sides = _jumpable(state)
    ctx = None
    m_terrain, hexside = state.gmap.terrain, state.gmap.hexside
    horse_cannot = {tid for tid, t in rs.terrain.items() if t.cost_for(True, c.armour) == "impassable"}
    one = 1 << SHIFT
    start = (c.hex, c.facing)
    best = {start: 0}
    prev = {}
    heap = [(0, start)]
    limit = (budget + 1) << SHIFT
    pop, push = heapq.heappop, heapq.heappush
    astride_possible = bool(jump_hexes) or jump_sides
    no_cross = {f for f, hs in rs.hexsides.items() if hs.crossing_for(True) == "impassable"}

    def can_end(st):
        front, facing = st
        rear = _geometry(front, facing)[0]
        if front in occupied or rear in occupied:
            return False
        if astride_possible:
            if m_terrain(front) in horse_cannot or m_terrain(rear) in horse_cannot or hexside(front, rear) in no_cross:
                return False
        return True

    while heap:
        key, st = pop(heap)
        if best[st] < key:
            continue
        if first_only and st != start and can_end(st):
            return {st: (key >> SHIFT, ())}
        front, facing = st
        rear, moves, ahead = _geometry(front, facing)
        if st != start and (front in danger or rear in danger):
            key += 1
        for h, ns, kind, frm in moves:
            if kind == VOLTE:
                if m_terrain(h) in horse_cannot:
                    continue
                nk = key + extra[VOLTE]
            else:
                row = cost_of.get(frm)
                if row is None:
                    row = cost_of[frm] = dict(steps.get(frm, ()))
                sc = row.get(h)
                if sc is None or h in blocked:
                    continue
                nk = key + sc + extra[kind] + (one if h in heavy else 0)
            if nk < limit and nk < best.get(ns, limit):
                best[ns] = nk
                prev[ns] = (st, h)
                push(heap, (nk, ns))
        if ahead in jump_hexes or (jump_sides and hexside(front, ahead)):
            for x in (ahead, ahead.neighbour(facing), ahead.neighbour(facing).neighbour(facing)):
                j = jump_step(state, front, facing, x)
                if j is None:
                    continue
                if ctx is None:
                    ctx = MoveContext(state, c)
                sc = ctx.cost(j.crossed_from, x, jump=True)
                if sc is None:
                    continue
                nk = key + ((sc + j.extra) << SHIFT)
                ns = (j.front, j.facing)
                if nk < limit and nk < best.get(ns, limit):
                    best[ns] = nk
                    prev[ns] = (st, x)
                    push(heap, (nk, ns))
    if first_only:
        return {}
    paths = {start: ()}

    def path_of(st):
        p = paths.get(st)
        if p is None:
            chain = []
            cur = st
            while cur not in paths:
                chain.append(cur)
                cur = prev[cur][0]
            p = paths[cur]
            for x in reversed(chain):
                p = paths[x] = p + (prev[x][1],)
        return p

    return {st: (k >> SHIFT, path_of(st)) for st, k in best.items() if st != start and can_end(st)}


# --- the boards: the bundled maps (open country with its water, the hamlet) and a walled one ----
_OPEN = [" ".join("." * 12)] * 12
_WALLED = [". . . . . . . . . . . .", ". . . . . w . . . . . .", ". . T . . w . . b . . .",
           ". . . . . . . . . . . .", ". . . . . . . . . . . .", ". . . . . . . . ~ . . .",
           ". . . . . . . . . . . .", ". w w . . . . . . . . .", ". . . . . . . . . . . .",
           ". . . . . . . . m . . .", ". . . . . . . . . . . .", ". . . . . . . . . . . ."]
_WALLS = """0606 N low_wall
0606 NE low_wall
0705 S low_wall
0304 N low_wall
0909 SE low_wall
0409 N low_wall
0410 N low_wall"""

_BASES: dict = {}


def _base(which: str):
    st = _BASES.get(which)
    if st is None:
        if which == "open":  # nothing to jump: no horse ever stands astride
            st = game(_OPEN, [("k", "knight", "A", "0606"), ("z", "spearman", "B", "1212")], step="movement")
        elif which == "walled":
            st = game(_WALLED, [("k", "knight", "A", "0606"), ("l", "light_cavalry", "A", "0610"),
                                ("h", "horse_archer", "B", "1010"), ("z", "spearman", "B", "1212"),
                                ("y", "man_at_arms", "A", "0101")], hexsides=_WALLS, step="movement")
        else:
            scen, gmap = load_scenario(which)
            st = new_game(scen, gmap, seed=1)
        _BASES[which] = st
    return st


_STATUS = st_.sampled_from([HEALTHY, HEALTHY, HEALTHY, WOUNDED, STUNNED, DEAD])


@st_.composite
def positions(draw):
    which = draw(st_.sampled_from(["the-ford", "hamlet-raid", "walled", "open"]))
    base = _base(which)
    st = fork(base)
    hexes = sorted(st.gmap.adjacency())
    pool = list(st.characters.values()) + list(_base("walled").characters.values())  # riders of every kind
    riders = [c for c in pool if c.mounted]
    foot = [c for c in pool if not c.mounted]
    mover_tpl = draw(st_.sampled_from(riders))
    armour = draw(st_.booleans())
    at = draw(st_.sampled_from(hexes))
    mover = replace(mover_tpl, id="mover", side="A", hex=at, facing=draw(st_.integers(0, 5)), armour=armour,
                    status=draw(st_.sampled_from([HEALTHY, WOUNDED])))
    assume(mover.hexes[1] in st.gmap)  # a counter half off the map: the former search's path
    chars = {"mover": mover}
    n = draw(st_.integers(0, 14))
    near = [h for h in hexes if h.distance(at) <= 6]
    for i in range(n):
        tpl = draw(st_.sampled_from(riders + foot))
        h = draw(st_.sampled_from(near))
        chars[f"o{i}"] = replace(tpl, id=f"o{i}", side=draw(st_.sampled_from("AB")), hex=h,
                                 facing=draw(st_.integers(0, 5)), status=draw(_STATUS))
    st.characters = chars
    st.riders.horses = {}
    st.phase.opportunity_used = {cid for cid in chars if cid != "mover" and draw(st_.integers(0, 5)) == 0}
    carcasses = {}
    for _ in range(draw(st_.integers(0, 6))):
        h = draw(st_.sampled_from(near))
        kinds = carcasses.setdefault(h, {})
        k = draw(st_.sampled_from(["man", "horse"]))
        kinds[k] = kinds.get(k, 0) + draw(st_.integers(1, 3))
    st.bodies.carcasses = carcasses
    return st, mover, draw(st_.integers(1, 30))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions())
def test_int_state_search_agrees_with_the_reference(pos):
    st, c, budget = pos
    ref = reference_reachable(st, c, budget)
    got = riding.reachable(st, c, budget)
    assert list(got.items()) == list(ref.items())  # the order too: callers keep the first of equal costs
    first = riding.reachable(st, c, budget, first_only=True)
    assert bool(first) == bool(ref)
    assert first == reference_reachable(st, c, budget, first_only=True)

