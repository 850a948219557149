"""Victory conditions of a scenario (the scenario's ``[victory]`` table, docs/formats.md).

* Rout: a side wins at once when the enemy has lost (dead) at least ``rout_fraction`` of its
  characters (a knight captured and led off the map, §6.9, counts as lost), or has no
  character left able to act (a prisoner is not).
* Objectives: at the end of the last turn, ``objective_side`` wins if it holds at least
  ``objective_count`` of the ``objectives`` hexes (a live, non-stunned character of its own
  on the hex); otherwise ``otherwise`` wins (a side id, or ``draw``).
"""

from __future__ import annotations

from ..texts.messages import render
from .events import emit
from .state import GameState
from ....geometry.hexgrid import Hex


def _finish(state: GameState, winner: str | None, msg: str, params: dict) -> None:
    """The game ends; ``msg`` + ``params``: the message saying why (texts/fr.toml)."""
    state.over = True
    state.winner = winner
    state.result_text = render(msg, params, "en")
    state.pending.clear()
    emit(state, "game_over", msg=msg, params=params, winner=winner)


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
        dead = _lost(chars)
        able = [c for c in chars if c.alive and c.ransom not in ("prisoner", "captured")]
        if not able:
            _finish(state, side, "victory.nobody_left", {"winner": side, "loser": enemy})
            return
        if _routed(dead, len(chars), frac):
            _finish(state, side, "victory.rout", {"winner": side, "loser": enemy, "dead": dead, "total": len(chars),
                                                  "pct": f"{frac:.0%}"[:-1]})
            return


def _lost(chars) -> int:
    """§6.9: a knight led off the map by his escort counts as lost, like the dead; a
    prisoner still on the map is not able to act (but is not lost)."""
    return sum(1 for c in chars if not c.alive or c.ransom == "captured")


def _routed(lost: int, total: int, frac: float) -> bool:
    return total > 0 and lost / total >= frac


def tracker(state: GameState) -> dict:
    """Where the scenario's victory conditions stand now, for the board's victory tracker:
    the objective hexes and those ``objective_side`` holds (:func:`holds`), and per side the
    characters lost and the loss that routs it (the least count :func:`sudden_death_check`
    would call a rout). Reads the state, changes nothing."""
    v = state.scenario.get("victory", {})
    frac = v.get("rout_fraction", 1.0)
    side = v.get("objective_side")
    losses = {}
    for s in state.sides:
        chars = [c for c in state.characters.values() if c.side == s]
        total = len(chars)
        rout_at = next((n for n in range(total + 1) if _routed(n, total, frac)), None)
        losses[s] = {"lost": _lost(chars), "total": total, "rout_at": rout_at}
    return {
        "text": v.get("text"), "text_fr": v.get("text_fr"),
        "objectives": list(v.get("objectives", [])), "objective_side": side,
        "objective_count": v.get("objective_count", 1) if side else None,
        "held": holds(state, side) if side else [],
        "otherwise": v.get("otherwise", "draw"), "rout_fraction": frac, "losses": losses,
    }


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
            _finish(state, side, "victory.holds", {"winner": side, "hexes": ', '.join(held), "turn": state.turn})
            return
        why, params = "objectives", {"side": side, "held": len(held), "need": need, "turn": state.turn}
    else:
        why, params = "turn_limit", {"turn": state.turn}
    if otherwise == "draw":
        _finish(state, None, f"draw.{why}", params)
    else:
        _finish(state, otherwise, f"victory.{why}", {"winner": otherwise, **params})
