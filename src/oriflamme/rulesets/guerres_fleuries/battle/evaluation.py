"""The computer players' view of a battle: how well a side stands (figures and points alive,
reading only what the side may see) and a copy with the enemy's unrevealed orders redrawn."""

from __future__ import annotations

from . import orders as orders_mod, victory
from .state import Battle


def evaluate(state: Battle, side: str) -> float:
    if state.over:
        return 0.0 if state.winner is None else (1.0 if state.winner == side else -1.0)
    enemy = state.other(side)

    def share(s: str) -> float:
        return victory.points_destroyed(state, s) / max(1, state.start_points.get(s, 1))

    def figures(s: str) -> float:
        return victory.figures_lost(state, s) / max(1, state.start_figures.get(s, 1))
    score = (share(enemy) - share(side)) + 0.5 * (figures(enemy) - figures(side))
    return max(-1.0, min(1.0, score))


def determinize(state: Battle, side: str, rng) -> Battle:
    """A copy in which the other side's orders, if given and not yet revealed, are redrawn among
    the typical sets (what ``side`` cannot see)."""
    copy = state.clone()
    enemy = state.other(side)
    if copy.revealed or not copy.orders_in.get(enemy):
        return copy
    units = [u for u in copy.side_units(enemy) if u.order is not None]
    for u in units:
        u.order, u.target = None, None
    sets = orders_mod.typical_sets(copy, enemy)
    if sets:
        for uid, (oid, tgt) in rng.choice(sets).items():
            copy.units[uid].order, copy.units[uid].target = oid, tgt
    return copy
