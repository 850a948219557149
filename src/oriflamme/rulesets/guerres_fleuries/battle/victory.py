"""The end of a battle (OR-GF33, data/battle.toml [victory]: the seed prints no victory
conditions): an army that has lost more than half of its starting figures is broken and loses
(both at once: a draw); after the scenario's last turn, the side that destroyed the larger share
of the enemy's points wins."""

from __future__ import annotations

from .actions import emit
from .rules import rules
from .state import FLANK, SIDES, Battle


def figures_lost(state: Battle, side: str) -> int:
    """A force marching on a flank (or that never came, GF-K4) is absent, not lost (OR-GF104)."""
    return state.start_figures.get(side, 0) - sum(u.figures for u in state.side_units(side, alive=False)
                                                  if u.alive or u.status == FLANK)


def points_destroyed(state: Battle, side: str) -> float:
    """The points of ``side``'s army destroyed: a lost unit's whole cost, a unit's casualties pro rata."""
    total = 0.0
    for u in state.side_units(side, alive=False):
        if u.status == FLANK:
            continue  # absent, not destroyed (OR-GF104)
        if not u.alive:
            total += u.points
        elif u.figures_max:
            total += u.points * (u.figures_max - u.figures) / u.figures_max
    return total


def broken(state: Battle, side: str) -> bool:
    start = state.start_figures.get(side, 0)
    return start > 0 and figures_lost(state, side) > start * rules().victory.broken_share


def summary(state: Battle) -> dict:
    return {s: {"figures_lost": figures_lost(state, s), "figures_start": state.start_figures.get(s, 0),
                "points_lost": round(points_destroyed(state, s), 1), "points_start": state.start_points.get(s, 0),
                "broken": broken(state, s)} for s in SIDES}


def finish(state: Battle, winner: str | None, text: str, text_fr: str) -> None:
    state.over, state.winner, state.result, state.result_fr = True, winner, text, text_fr
    state.acting = None
    emit(state, "victory", text, text_fr, side=winner, ref=rules().victory.ref, decision="OR-GF33",
         summary=summary(state))


def check_broken(state: Battle) -> None:
    """After a spell (resolved at once, l.252): an army broken by it loses now."""
    if any(broken(state, s) for s in SIDES):
        check(state, end_of_turn=False)


def check(state: Battle, end_of_turn: bool = True) -> None:
    """Called at the end of each turn (phase 11)."""
    name = {s.id: s.name for s in state.scenario.sides}
    name_fr = {s.id: s.name_fr for s in state.scenario.sides}
    gone = [s for s in SIDES if broken(state, s)]
    if len(gone) == 2:
        finish(state, None, "Both armies are broken: a draw", "Les deux armées sont brisées : match nul")
        return
    if gone:
        loser = gone[0]
        win = state.other(loser)
        finish(state, win, f"{name[loser]} has lost more than half of its figures: {name[win]} wins",
               f"{name_fr[loser]} a perdu plus de la moitié de ses figurines : {name_fr[win]} gagne")
        return
    if end_of_turn and state.turn >= state.scenario.turns:
        share = {s: points_destroyed(state, state.other(s)) / max(1, state.start_points.get(state.other(s), 1))
                 for s in SIDES}
        if abs(share["A"] - share["B"]) < 1e-9:
            finish(state, None, f"Turn {state.turn} was the last: equal losses, a draw",
                   f"Le tour {state.turn} était le dernier : pertes égales, match nul")
        else:
            win = max(SIDES, key=lambda s: share[s])
            finish(state, win, f"Turn {state.turn} was the last: {name[win]} destroyed the larger share of the "
                   f"enemy's points ({share[win]:.0%} against {share[state.other(win)]:.0%})",
                   f"Le tour {state.turn} était le dernier : {name_fr[win]} a détruit la plus grande part des "
                   f"points ennemis ({share[win]:.0%} contre {share[state.other(win)]:.0%})")
