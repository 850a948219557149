"""Questions about a position: who stands where, adjacency, stacking, command, movement."""

from __future__ import annotations

import heapq

from oriflamme.geometry.hexgrid import Hex

from .rules import rules
from .state import State, Unit


def H(label: str) -> Hex:
    return Hex.from_label(label)


def live_units(state: State, side: str | None = None) -> list[Unit]:
    return [u for u in state.units.values() if not u.broken and (side is None or u.side == side)]


def units_at(state: State, h: Hex, side: str | None = None) -> list[Unit]:
    lab = h.label
    return [u for u in state.units.values() if u.hex == lab and (side is None or u.side == side)]


def stack_points(state: State, h: Hex, without: set[str] = frozenset()) -> int:
    return sum(u.spec.stack for u in units_at(state, h) if u.id not in without)


def adjacent_enemies(state: State, unit: Unit) -> list[Unit]:
    h = H(unit.hex)
    enemy = state.enemy(unit.side)
    return [e for n in h.neighbours() for e in units_at(state, n, enemy)]


def enemy_adjacent_to(state: State, h: Hex, side: str) -> bool:
    enemy = state.enemy(side)
    return any(units_at(state, n, enemy) for n in h.neighbours())


def commanded_by(state: State, leader_id: str) -> list[Unit]:
    return [u for u in live_units(state) if u.leader == leader_id]


def leader_alive(state: State, leader_id: str | None) -> bool:
    ld = state.leaders.get(leader_id or "")
    return ld is not None and not ld.lost


def reachable(state: State, start: Hex, points: int, side: str, stop_near_enemy: bool) -> dict[Hex, int]:
    """Hexes a mover of ``side`` may reach from ``start`` with ``points`` movement points
    (LB house §2.6): terrain costs, no crossing of a river or banner hexside (a bridge is
    crossed), never into an enemy's hex; entering a hex next to an enemy unit ends the move
    (units only). Returns each hex with its cost (the start included at 0)."""
    board = state.board
    enemy = state.enemy(side)
    best = {start: 0}
    todo = [(0, start)]
    while todo:
        cost, h = heapq.heappop(todo)
        if cost > best.get(h, 1 << 30):
            continue
        if h != start and stop_near_enemy and enemy_adjacent_to(state, h, side):
            continue  # the move ends here
        for n in h.neighbours():
            if not board.on_map(n) or not board.crossable(h, n) or units_at(state, n, enemy):
                continue
            c = cost + board.terrain_of(n).cost
            if c <= points and c < best.get(n, 1 << 30):
                best[n] = c
                heapq.heappush(todo, (c, n))
    return best


def unit_moves(state: State, unit: Unit) -> list[tuple[str, int]]:
    """Every (hex, facing) a unit may end its D1 move in (a turn in place included)."""
    r = rules()
    start = H(unit.hex)
    out = []
    for h in sorted(reachable(state, start, unit.spec.movement, unit.side, r.movement.stop_next_to_enemy)):
        if h != start and stack_points(state, h) + unit.spec.stack > r.stacking.limit:
            continue
        for f in range(6):
            if h == start and f == unit.facing:
                continue
            out.append((h.label, f))
    return out


def leader_moves(state: State, leader) -> list[str]:
    start = H(leader.hex)
    return [h.label for h in sorted(reachable(state, start, leader.movement, leader.side, False)) if h != start]


def objectives_held(state: State, side: str) -> list[str]:
    out = []
    for h in state.board.objectives:
        if units_at(state, h, side) and not units_at(state, h, state.enemy(side)):
            out.append(h.label)
    return out
