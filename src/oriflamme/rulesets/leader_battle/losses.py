"""Losses, disorder, breaking, the loss of a leader and retreats (LB house §3.4, §5.2, §6.3–6.4)."""

from __future__ import annotations

from .actions import emit
from .queries import H, stack_points, units_at
from .rules import rules
from .state import State, Unit

def disorder(state: State, u: Unit) -> None:
    if not u.broken and not u.disordered:
        u.disordered = True
        emit(state, "disordered", u.side, "LB house §5.2", unit=u.name)


def lose_steps(state: State, u: Unit, n: int) -> None:
    for _ in range(n):
        if u.broken:
            return
        u.steps -= 1
        if u.steps > 0:
            emit(state, "step_lost", u.side, "LB house §5.2, §6.3", unit=u.name, steps=u.steps)
            continue
        where = u.hex
        u.hex, u.disordered = None, False
        emit(state, "broken", u.side, "LB house §8", unit=u.name)
        for ld in state.leaders.values():
            if ld.side == u.side and not ld.lost and ld.hex == where and not units_at(state, H(where), u.side):
                ld.lost = True
                emit(state, "leader_lost", u.side, rules().leader_loss.ref, leader=ld.name)


def retreat(state: State, group: list[Unit], away_from: list) -> None:
    """LB house §6.4: the stack falls back one hex, disordered: to the free neighbour farthest
    from the enemy hexes of the combat (then the lowest direction); none: a step lost instead."""
    r = rules()
    if not group:
        return
    origin = H(group[0].hex)
    side = group[0].side
    need = sum(u.spec.stack for u in group)
    ids = {u.id for u in group}
    best = None
    for d in range(6):
        n = origin.neighbour(d)
        if not state.board.on_map(n) or not state.board.crossable(origin, n):
            continue
        if units_at(state, n, state.enemy(side)) or stack_points(state, n, ids) + need > r.stacking.limit:
            continue
        score = sum(n.distance(x) for x in away_from)
        if best is None or score > best[0]:
            best = (score, n)
    if best is None:
        for u in group:
            emit(state, "no_retreat", side, r.retreat.ref, unit=u.name)
            lose_steps(state, u, r.retreat.blocked_steps)
            disorder(state, u)
        return
    to = best[1]
    still = [ld for ld in state.leaders.values() if ld.side == side and not ld.lost and ld.hex == origin.label]
    for u in group:
        u.hex = to.label
        emit(state, "retreat", side, r.retreat.ref, unit=u.name, to=to.label)
        disorder(state, u)
    if not units_at(state, origin, side):
        for ld in still:
            ld.hex = to.label
