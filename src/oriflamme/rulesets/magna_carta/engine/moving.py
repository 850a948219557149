"""A character's move on the map, step by step (Magna Carta §4): the walk of a checked path,
its cost per step, the movement points it spends; resumed after defensive fire (§5.3) or a grab
in passing (§4.4.4) paused it.
"""

from __future__ import annotations

from ....geometry.hexgrid import DIRECTION_NAMES, Hex
from . import ransom, riding
from .character import Character
from .events import emit
from .hooks import HOOKS
from .movement import MoveContext, allowance, step_cost
from .paths import PAUSED, walk
from .state import GameState


# --- movement -----------------------------------------------------------------------------
def move(state: GameState, c: Character, path: tuple[Hex, ...]) -> None:
    ransom.before_move(state, c)  # §6.9: a prisoner who moves tries to escape
    steps = step_costs(state, c, path)
    # the move in progress, JSON-able: defensive fire (§5.3) may pause it in a prompt
    walk_move(state, c, {"char": c.id, "origin": c.hex.label, "facing": c.facing, "mounted": c.mounted,
                          "path": [h.label for h in path], "steps": steps,
                          "spent_before": state.phase.mp_spent.get(c.id, 0), "at": None})


def walk_move(state: GameState, c: Character, mv: dict) -> None:
    """Walk (or resume, ``mv["at"]`` set) the move ``mv``; see :func:`move`."""
    if mv.get("stand"):  # declared not moving, shot at where he stands (§5.3 N.B.): no walk
        return
    path, steps, spent_before = tuple(Hex.from_label(x) for x in mv["path"]), mv["steps"], mv["spent_before"]

    def may_go_on(ch: Character, i: int) -> bool:
        spent = spent_before + sum(steps[: i + 1])
        if mv.get("at") is not None:  # after defensive fire: the next step must be affordable (§5.3)
            spent += steps[i + 1] if i + 1 < len(steps) else 0
            return spent <= allowance(state, ch)
        return spent < allowance(state, ch)

    final, interrupted, done = walk(state, c, path, why="move", after_wound=may_go_on, move=mv)
    if interrupted == PAUSED:
        return  # the defensive fire prompt (engine/defensive_fire.py) holds ``mv``
    start = Hex.from_label(mv["origin"])
    cost = sum(steps[:done])
    if not mv.get("unhorsed"):
        state.phase.mp_spent[c.id] = spent_before + cost
    if interrupted:
        state.phase.stopped.add(c.id)
    shown = [h.label for h in path[:done]]
    riding = c.mounted and c.alive
    params = {"name": c.name, "start": start.label, "path": ' → '.join(shown) if shown else start.label, "pm": cost}
    if riding:
        params["dir"] = DIRECTION_NAMES[c.facing]
    emit(state, "move", msg=f"move.{'ride' if riding else 'walk'}{'_stopped' if interrupted and c.alive else ''}",
         params=params,
         char=c.id, path=shown, cost=cost, ref="MC §4")
    ransom.after_move(state, c)  # §6.9: his prisoner follows him
    HOOKS.after_move_grab(state, c, mv)  # §4.4.4: a horse grabbed in passing goes beside him


def step_costs(state: GameState, c: Character, path: tuple[Hex, ...]) -> list[int]:
    """The cost of each step of a checked path (§3.1, §4.4.1), to re-check the allowance after
    a wound (§4.3.1 "blessé"); one MoveContext for the whole path (the board does not change
    before the walk)."""
    ctx = MoveContext(state, c)
    out = []
    if c.mounted:
        for s in riding.path_steps(state, c, path, riding.extra_costs(state), ctx):
            entered = ctx.cost(s.crossed_from, s.entered, jump=s.kind == riding.JUMP) if s.entered is not None else 0
            out.append(s.extra + entered)
        return out
    cur = c.hex
    for h in path:
        out.append(step_cost(state, c, cur, h, ctx)[0])
        cur = h
    return out
