"""Omens (GF La magie > Les présages, seed 003 l.1324: "Chaque fois qu'un joueur réalise une capture, l'un
de ses prêtres gagne 1 point de présage. 1 point de présage peut être dépensé pour rejeter un jet de
dé"; captures l.950, battle/casualties.py): a side's omen points (``Battle.omens``) re-roll one of its
dice.

Which dice (OR-GF115): the rolls a player makes himself by an action and whose result waits on him —
his units' command tests (phase 2). A unit whose command test of this turn failed may have it rolled
again, for ``data/magic.toml [[omen]] cost_of_a_reroll`` point(s), in phase 2 or in phase 3 before its
side gives its orders; the new roll replaces the old (its red marker goes, and comes back on a new
failure), and may itself be rejected with another point. The dice the engine rolls inside the automatic
phases (fire, melee, morale, the spells' effects) are not offered: no player is asked between them."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction

from ..magic import data as magic_data
from .actions import emit
from .state import Battle, Unit

REF = "GF seed 003 l.1324"
DECISION = "OR-GF115"


def cost() -> int:
    return magic_data().omens[0].cost_of_a_reroll


def last_test(state: Battle, uid: str) -> dict | None:
    """This turn's latest command test of ``uid`` in the log."""
    for ev in reversed(state.log):
        if ev.get("turn") != state.turn:
            break
        if ev.get("type") == "command_test" and ev.get("unit") == uid:
            return ev
    return None


def why_not(state: Battle, side: str, u: Unit | None) -> str | None:
    """None when ``side`` may spend an omen on ``u``'s command test now; else why not."""
    if u is None or u.side != side or not u.alive:
        return "omens re-roll a die of one's own unit"
    if state.phase not in (2, 3) or (state.phase == 3 and state.orders_in.get(side)):
        return "an omen re-rolls a command test in phase 2, or in phase 3 before the side's orders are given"
    ev = last_test(state, u.id)
    if ev is None or ev.get("result") != "failed" or "red" not in u.markers:
        return f"{u.name} has no failed command test this turn to re-roll"
    if state.omens.get(side, 0) < cost():
        return f"side {side} has {state.omens.get(side, 0)} omen point(s); a re-roll costs {cost()}"
    return None


def offered(state: Battle, side: str) -> list[Unit]:
    return [u for u in state.side_units(side) if why_not(state, side, u) is None]


def odds(state: Battle, uid: str) -> int:
    """The re-roll's chance to pass, in %: the same threshold as the failed test (nothing else changed)."""
    ev = last_test(state, uid) or {}
    threshold = (ev.get("ruling") or {}).get("threshold")
    return max(0, min(100, threshold)) if isinstance(threshold, int) else 0


def check(state: Battle, side: str, uid: str) -> None:
    reason = why_not(state, side, state.units.get(uid))
    if reason:
        raise IllegalAction(reason, REF)


def spend(state: Battle, side: str, uid: str) -> None:
    """Spend the points and roll the command test again (turn.command_test)."""
    from . import turn
    u = state.units[uid]
    pct = odds(state, uid)
    state.omens[side] -= cost()
    u.unmark("red")
    emit(state, "omen", f"{u.name}: an omen point rejects the failed command test ({state.omens[side]} left); "
                        f"the new roll passes on {pct} %",
         f"{u.name} : un point de présage rejette le test de commandement raté (il en reste {state.omens[side]}) ; "
         f"le nouveau jet réussit à {pct} %", side=side, ref=REF, unit=uid, decision=DECISION, percent=pct,
         omens_left=state.omens[side])
    turn.command_test(state, u)
