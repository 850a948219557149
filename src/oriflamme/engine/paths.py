"""Forced and free displacements that are not ordinary moves: walking a path with its
infiltration tests (§4.3), retreats (§5.4.3 (§), §6.5 (§)) and advances after combat (§6.6).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..hexes import Hex
from ..resolve.infiltration import Infiltrator, Opposer, infiltration_test
from .character import Character
from .events import emit
from .movement import opposers
from .state import GameState


def passable_for(state: GameState, c: Character, frm: Hex, to: Hex) -> bool:
    """Terrain and hexsides allow ``c`` into ``to`` and no enemy stands there (retreats and
    advances spend no movement points but respect what is impassable, §4.2)."""
    rs = state.rules
    if to not in state.gmap:
        return False
    if rs.terrain[state.gmap.terrain(to)].cost_for(c.mounted, c.armour) == "impassable":
        return False
    hs = state.gmap.hexside(frm, to)
    if hs and rs.hexsides[hs].crossing_for(c.mounted) == "impassable":
        return False
    return True


#: Second value :func:`walk` returns when defensive fire (§5.3) paused the move.
PAUSED = "paused"


def walk(state: GameState, c: Character, path: tuple[Hex, ...], *, exclude: Iterable[str] = (),
         why: str = "move", after_wound: Callable[[Character, int], bool] | None = None,
         move: dict | None = None) -> tuple[Hex, bool | str]:
    """Walk ``c`` along ``path``, rolling an infiltration test (§4.3) for each enemy able to
    attack a hex crossed (every hex but the last). Returns (final hex, interrupted?).

    A "stop" result ends the walk in the hex crossed; if a friend stands there, ``c`` stops on
    the last free hex of his path instead (§4.1 one live character per hex — Oriflamme's
    reading). ``after_wound(c, step_index)`` says whether a wounded mover may go on.

    Moves (``why == "move"``) call :data:`turn.DEFENSIVE_FIRE_HOOK` on every hex entered; when it
    pauses the move (§5.3) the walk returns ``(hex, PAUSED)``. ``move`` describes the move in
    progress (JSON-able, see :mod:`engine.defensive_fire`); ``move["at"]`` set means resume: ``c``
    stands on ``path[at]`` (from ``move["origin"]``), whose hook has been answered.
    """
    rs = state.rules
    at = move.get("at") if move else None
    start = Hex.from_label(move["origin"]) if at is not None else c.hex
    visited = [start]
    from . import turn
    for i, h in enumerate(path):
        if at is not None and i < at:
            visited.append(h)
            continue
        if at is not None and i == at:
            visited.append(h)
            # after the defensive fire: dead, stunned, or out of points for the next step (§5.3)
            if not c.alive:
                return h, True
            if move.get("halt") or not c.active or (
                    i < len(path) - 1 and after_wound is not None and not after_wound(c, i)):
                return _halt(state, c, h, visited, start)
        else:
            c.hex = h
            visited.append(h)
            if why == "move" and turn.DEFENSIVE_FIRE_HOOK is not None and move is not None:
                if turn.DEFENSIVE_FIRE_HOOK(state, c, h, i, move):  # §5.3: defensive fire interrupts here
                    return h, PAUSED
        if i == len(path) - 1:
            return h, False
        for e in opposers(state, c, h, exclude):
            state.opportunity_used.add(e.id)
            die = state.dice.roll(10)
            r = infiltration_test(
                rs,
                Infiltrator(mounted=c.mounted, armour=c.armour, wounded=c.status == "wounded"),
                Opposer(mounted=e.mounted, polearm=e.polearm, wounded=e.status == "wounded"),
                die,
            )
            what = {"none": "no damage", "stop": "movement stopped", "wounded": "wounded", "killed": "killed"}[r.result]
            emit(state, "infiltration", f"{e.name} tests {c.name}'s infiltration through {h.label} ({why}): {what}",
                 ruling=r, char=c.id, opposer=e.id, hex=h.label)
            stop = False
            if r.result == "stop":
                stop = True
            elif r.result == "wounded":
                emit(state, "status", f"{c.name} is {c.wound()}", char=c.id, ref="MC §4.3.1")
                stop = not c.alive or (after_wound is not None and not after_wound(c, i))
            elif r.result == "killed":
                c.kill()
                emit(state, "status", f"{c.name} is killed", char=c.id, ref="MC §4.3.1")
                return h, True
            if stop:
                if not c.alive:
                    return h, True
                return _halt(state, c, h, visited, start)
    return c.hex, False


def _halt(state: GameState, c: Character, h: Hex, visited: list[Hex], start: Hex) -> tuple[Hex, bool]:
    """Stop ``c`` in ``h``, or on the last free hex he walked through if a friend stands in
    ``h`` (§4.1)."""
    for back in reversed(visited):
        if not [o for o in state.live_at(back) if o.id != c.id]:
            c.hex = back
            if back != h:
                emit(state, "move", f"{c.name} cannot stop on a friend in {h.label}: he stops in {back.label}",
                     char=c.id, hex=back.label, ref="MC §4.1")
            return back, True
    c.hex = start
    return start, True


# --- retreats ----------------------------------------------------------------------------
def retreat_paths(state: GameState, c: Character, n: int, away_from: Hex | None,
                  combatants: Iterable[str] = ()) -> list[tuple[Hex, ...]]:
    """Every path of a retreat of ``n`` hexes: ending ``n`` hexes from the start, through no
    enemy, into a hex without a live character; the first step away from the fire
    (Example 4, §4.3); never ending next to an enemy who took part in the combat (§4.3)."""
    start = c.hex
    comb = [state.characters[x] for x in combatants]
    out: list[tuple[Hex, ...]] = []

    def ok_final(h: Hex) -> bool:
        if [o for o in state.live_at(h) if o.id != c.id]:
            return False
        return not any(e.alive and e.side != c.side and e.hex is not None and e.hex.distance(h) == 1 for e in comb)

    def rec(path: list[Hex]):
        cur = path[-1] if path else start
        if len(path) == n:
            if cur.distance(start) == n and ok_final(cur):
                out.append(tuple(path))
            return
        for nb in cur.neighbours():
            if nb in path or nb == start or nb.distance(start) != len(path) + 1:
                continue
            if not path and away_from is not None and nb.distance(away_from) <= start.distance(away_from):
                continue
            if not passable_for(state, c, cur, nb):
                continue
            if any(o.side != c.side for o in state.live_at(nb)):
                continue
            rec(path + [nb])

    rec([])
    return sorted(out)


# --- advance after combat ----------------------------------------------------------------
def advance_paths(state: GameState, c: Character, vacated: Iterable[Hex], n: int) -> list[tuple[Hex, ...]]:
    """Paths of 1..n hexes whose first hex is one the enemy left (or the hex of the stunned or
    killed enemy) (§6.6); through no active enemy, ending in a hex without a live character."""
    vac = set(vacated)
    out: list[tuple[Hex, ...]] = []

    def free(h: Hex) -> bool:
        return not [o for o in state.live_at(h) if o.id != c.id]

    def rec(path: list[Hex]):
        if path and free(path[-1]):
            out.append(tuple(path))
        if len(path) == n:
            return
        cur = path[-1] if path else c.hex
        for nb in cur.neighbours():
            if not path and nb not in vac:
                continue
            if nb in path or nb == c.hex:
                continue
            if not passable_for(state, c, cur, nb):
                continue
            if any(o.side != c.side and o.active for o in state.live_at(nb)):
                continue
            rec(path + [nb])

    rec([])
    return sorted(set(out))
