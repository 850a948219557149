"""Victory conditions of a scenario (the scenario's ``[victory]`` table, docs/formats.md).

* Rout: a side wins at once when the enemy has lost (dead) at least ``rout_fraction`` of its
  characters (a knight captured and led off the map, §6.9, counts as lost), or has no
  character left able to act (a prisoner is not).
* Objectives: at the end of the last turn, ``objective_side`` wins if it holds at least
  ``objective_count`` of the ``objectives`` hexes (a live, non-stunned character of its own
  on the hex); otherwise ``otherwise`` wins (a side id, or ``draw``).
"""

from __future__ import annotations

from .events import emit
from .state import GameState
from ....geometry.hexgrid import Hex


def _finish(state: GameState, winner: str | None, text: str) -> None:
    state.over = True
    state.winner = winner
    state.result_text = text
    state.pending.clear()
    emit(state, "game_over", text, winner=winner)


def sudden_death_check(state: GameState) -> None:
    if state.over:
        return
    v = state.scenario.get("victory", {})
    frac = v.get("rout_fraction", 1.0)
    for side in (state.active, state.enemy_of(state.active)):
        enemy = state.enemy_of(side)
        chars = [c for c in state.characters.values() if c.side == enemy]
        if not chars:
            continue
        # §6.9: a knight led off the map by his escort counts as lost, like the dead; a
        # prisoner still on the map is not able to act
        dead = sum(1 for c in chars if not c.alive or c.ransom == "captured")
        able = [c for c in chars if c.alive and c.ransom not in ("prisoner", "captured")]
        if not able:
            _finish(state, side, f"Side {side} wins: side {enemy} has no one left standing")
            return
        if dead / len(chars) >= frac:
            _finish(state, side, f"Side {side} wins: side {enemy} has lost {dead} of {len(chars)} characters "
                                 f"(rout at {frac:.0%})")
            return


def holds(state: GameState, side: str) -> list[str]:
    out = []
    for lab in state.scenario.get("victory", {}).get("objectives", []):
        h = Hex.from_label(lab)
        if any(c.side == side and c.active for c in state.live_at(h)):
            out.append(lab)
    return out


def end_of_turn_check(state: GameState, final: bool) -> None:
    if state.over or not final:
        return
    v = state.scenario.get("victory", {})
    side = v.get("objective_side")
    otherwise = v.get("otherwise", "draw")
    if side:
        held = holds(state, side)
        need = v.get("objective_count", 1)
        if len(held) >= need:
            _finish(state, side, f"Side {side} wins: it holds {', '.join(held)} at the end of turn {state.turn}")
            return
        text = f"side {side} holds {len(held)} of the {need} objective(s) needed at the end of turn {state.turn}"
    else:
        text = f"the turn limit ({state.turn}) is reached"
    if otherwise == "draw":
        _finish(state, None, f"Draw: {text}")
    else:
        _finish(state, otherwise, f"Side {otherwise} wins: {text}")
