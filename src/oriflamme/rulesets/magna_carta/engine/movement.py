"""Movement on the map (Magna Carta §4): costs, allowances, reachable hexes, infiltration
triggers. Pure queries (the costs of one step are in :mod:`engine.costs`, riders' searches in
:mod:`engine.riding`); :mod:`engine.moving` performs the moves.

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

from ....geometry.hexgrid import Hex
from ..resolve.movement import thresholds  # noqa: F401 (public here too)
from . import riding
from .animals import passive_problem
from .character import Character
from .memo import per_position
from .costs import (SHIFT, MoveContext, Occupancy, allowance, can_attack_hex, could_strike_hex,  # noqa: F401 (public here too)
                    obstacles, opposers, per_ruleset, points_left, position_opposers, step_cost, step_table, threatened,
                    threatened_hexes)
from .state import GameState


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




@per_position  # answered once per position inside memo.read_only (a web response)
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
    if budget <= 0 or c.id in state.camels.kneeling:  # §4.6.4 a kneeling camel does not move
        return False
    if c.mounted:
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
        if c.id in state.camels.kneeling:
            return None, f"{c.name}'s camel kneels: it must rise before it moves", "MC §4.6.4"
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
