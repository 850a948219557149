"""Forced and free displacements that are not ordinary moves: walking a path with its
infiltration tests (§4.3), retreats (§5.4.3 (§), §6.5 (§)) and advances after combat (§6.6).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ....core.dice import roll_keyed
from ....geometry.hexgrid import Hex
from ..resolve.infiltration import infiltration_test, Infiltrator, Opposer
from .character import Character
from .events import INFILTRATION_IDS, JUMP_IDS, WHY_IDS, emit, nested, status
from .hooks import HOOKS
from .movement import opposers, position_opposers, MoveContext
from .state import GameState
from .places import passable_for  # noqa: F401 (public here too)
from . import riding
from .camels import fear_on_entering
from .horses import unhorse
from .riding import counter_problem
from ..resolve.jump import jump_test
from ..resolve.ruling import read_bands




#: Second value :func:`walk` returns when defensive fire (§5.3) paused the move.
PAUSED = "paused"


def walk(state: GameState, c: Character, path: tuple[Hex, ...], *, exclude: Iterable[str] = (),
         why: str = "move", after_wound: Callable[[Character, int], bool] | None = None,
         move: dict | None = None) -> tuple[Hex, bool | str, int]:
    """Walk ``c`` along ``path``, rolling an infiltration test (§4.3) for each enemy able to
    attack a hex crossed (every hex but the last). Returns (final hex, interrupted?, number of
    steps of ``path`` made).

    A rider's path is a list of front steps (:mod:`oriflamme.rulesets.magna_carta.engine.riding`): he is tested by
    enemies next to either of his hexes (§4.3.1.2); a half-turn on the spot (the volte) is
    tested only by enemies on his two central side hexes, even as the last step (§4.3.2).
    Forced displacements: a rider backs away in a retreat, keeping his facing, and walks on in
    an advance, the rear following.

    A "stop" result ends the walk where the character stands; if a friend stands there, ``c``
    stops on the last free position of his path instead (§4.1 one live character per hex —
    Oriflamme's reading). ``after_wound(c, step_index)`` says whether a wounded mover may go on.

    Moves (``why == "move"``) call the hook ``defensive_fire_on_enter`` (engine/hooks.py) on every hex entered; when it
    pauses the move (§5.3) the walk returns ``(hex, PAUSED, steps)``. ``move`` describes the move
    in progress (JSON-able, see :mod:`engine.defensive_fire`); ``move["at"]`` set means resume:
    ``c`` stands where step ``at`` took him (from ``move["origin"]``, facing
    ``move["facing"]``), and that hex's hook has been answered.
    """
    extras = riding.extra_costs(state) if c.mounted else {}
    ctx = None
    if c.mounted and why == "move":
        ctx = MoveContext(state, c)
    at = move.get("at") if move else None
    if at is not None:
        pos = (Hex.from_label(move["origin"]), move.get("facing", c.facing))
    else:
        pos = (c.hex, c.facing)
    visited = [pos]
    for i, h in enumerate(path):
        kind = None
        if at is not None and i <= at:
            # replaying the steps already made (pure geometry; ``c`` already stands at step at)
            front, facing = pos
            if c.mounted or move.get("mounted"):
                if ctx is None:
                    ctx = MoveContext(state, c)
                st = riding.step_of(state, ctx, front, facing, h, extras or riding.extra_costs(state))
                pos, kind = (st.front, st.facing), st.kind
            else:
                pos = (h, facing)
            visited.append(pos)
            if i < at:
                continue
            # after the defensive fire: dead, unhorsed, stunned, or out of points (§5.3)
            if not c.alive or move.get("unhorsed"):
                return c.hex, True, i + 1
            if move.get("halt") or not c.active or (
                    i < len(path) - 1 and after_wound is not None and not after_wound(c, i)):
                return _stop_back(state, c, h, visited, i)
            if c.mounted and state.riders.horses and why == "move":  # §4.4.4: the grab in passing
                if HOOKS.offer_grab(state, c, visited[-2], h, i, len(path), move):
                    return h, PAUSED, i + 1
        else:
            if c.mounted:
                if why == "move":
                    st = riding.step_of(state, ctx, c.hex, c.facing, h, extras)
                    if st.kind == riding.JUMP:
                        landed = _jump(state, c, st, i, move)
                        if landed is not None:
                            return landed
                    c.hex, c.facing, kind = st.front, st.facing, st.kind
                elif why == "retreat":
                    c.hex = h  # a rider backs away, keeping his facing (retreat_paths)
                else:
                    c.hex, c.facing = riding.walk_on(c.hex, h)
            else:
                c.hex = h
            visited.append((c.hex, c.facing))
            if why == "move" and c.mounted:  # §4.6.5: the horses' fear of camels
                if fear_on_entering(state, c, visited[-2], h):
                    return _stop_back(state, c, h, visited[:-1], i - 1)
            # a rider in mid-jump, astride the obstacle he clears (§4.4.3), is not stopped there:
            # neither defensive fire nor the grab pauses his move on that position
            astride = c.mounted and why == "move" and riding.counter_problem(state, c, c.hex, c.facing) is not None
            if why == "move" and move is not None and not astride:
                if HOOKS.defensive_fire_on_enter(state, c, h, i, move):  # §5.3: defensive fire interrupts here
                    return h, PAUSED, i + 1
            if why == "move" and c.mounted and state.riders.horses and move is not None and not astride:  # §4.4.4: the grab
                if HOOKS.offer_grab(state, c, visited[-2], h, i, len(path), move):
                    return h, PAUSED, i + 1
        last = i == len(path) - 1
        if kind == riding.VOLTE:
            sides = riding.central_sides(c)
            foes = [e for e in position_opposers(state, c, c.hexes, exclude) if any(x in sides for x in e.hexes)]
            where, ref = ("infiltration.volte", c.hex.label), "MC §4.3.2"
        elif last:
            return h, False, i + 1
        else:
            foes = position_opposers(state, c, c.hexes, exclude) if c.mounted else opposers(state, c, h, exclude)
            where, ref = ("infiltration.through", h.label), "MC §4.3"
        for e in foes:
            stopped = _opportunity_test(state, c, e, h, where, why, ref, i, after_wound)
            if stopped:
                return _stop_back(state, c, h, visited, i)
        if last:
            return h, False, i + 1
    return c.hex, False, len(path)


def _jump(state: GameState, c: Character, st, i: int, move: dict | None):
    """The jump test when a rider jumps (§4.4.3): None if he lands and rides on, otherwise the
    walk's result (the horse refused, or fell on landing)."""
    rs = state.rules
    wounded, two = c.status == "wounded", len(st.over) == 2
    r = jump_test(rs, c.armour, wounded, two, roll_keyed(state.dice, 10, lambda: jump_test(rs, c.armour, wounded, two).faces))
    result = nested(JUMP_IDS[r.result])
    if st.over:
        jumped = {"msg": "jump.over", "params": {"name": c.name, "hexes": ', '.join(x.label for x in st.over), "result": result}}
    else:
        jumped = {"msg": "jump.wall", "params": {"name": c.name, "hex": st.front.label, "result": result}}
    emit(state, "jump", ruling=r, **jumped, char=c.id, hex=st.front.label, ref="MC §4.4.3")
    if r.result == "success":
        return None
    if move is not None:
        move["unhorsed"] = True
    if r.result == "refusal":  # stunned and unhorsed in front of the obstacle
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.stun(state.phase_no))}, char=c.id,
             ref="MC §4.4.3")
        unhorse(state, c, False, "MC §4.4.3")
        return c.hex, True, i
    c.hex, c.facing = st.front, st.facing  # the horse is killed beyond the obstacle, the rider wounded
    band = read_bands(rs.jump_bands, r.modified_die)
    ref = "MC §4.4.3" if rs.base is None else band.ref  # an edition's fall cites its own table
    emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.wound())}, char=c.id, ref=ref)
    unhorse(state, c, band.horse_killed is not False, ref)
    return st.front, True, i + 1


def _opportunity_test(state: GameState, c: Character, e: Character, h: Hex, where: tuple[str, str], why: str, ref: str,
                      i: int, after_wound) -> bool:
    """One enemy's infiltration test against ``c`` (§4.3.1): whether it stops him."""
    rs = state.rules
    state.phase.opportunity_used.add(e.id)
    who = Infiltrator(mounted=c.mounted, armour=c.armour, wounded=c.status == "wounded")
    against = Opposer(mounted=e.mounted, polearm=e.polearm, wounded=e.status == "wounded")
    die = roll_keyed(state.dice, 10, lambda: infiltration_test(rs, who, against).faces)
    r = infiltration_test(rs, who, against, die)
    # ``where``: (message id, hex) — through a hex, a volte, a step aside
    emit(state, "infiltration", msg=where[0], params={"opposer": e.name, "name": c.name, "hex": where[1],
                                                       "why": nested(WHY_IDS[why]), "what": nested(INFILTRATION_IDS[r.result])},
         ruling=r, char=c.id, opposer=e.id, hex=h.label, ref=ref)
    if r.result == "stop":
        return True
    if r.result == "wounded":
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.wound())}, char=c.id, ref="MC §4.3.1")
        return not c.alive or (after_wound is not None and not after_wound(c, i))
    if r.result == "killed":
        c.kill()
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status("killed")}, char=c.id, ref="MC §4.3.1")
        return True
    return False


def _stop_back(state: GameState, c: Character, h: Hex, visited: list, i: int) -> tuple[Hex, bool, int]:
    """``c`` is stopped (or killed) at step ``i``: he stays there, or on the last free
    position he passed (§4.1; not on a riderless horse he was crossing, §4.4.4)."""
    if not c.alive and not c.mounted:
        return h, True, i + 1  # he lies where he fell (a dead rider's horse needs free hexes)
    for k in range(len(visited) - 1, -1, -1):
        front, facing = visited[k]
        c.hex, c.facing = front, facing
        if c.mounted and k and counter_problem(state, c, front, facing):
            continue  # not astride the obstacle he just jumped: back before the jump
        if all(not [o for o in state.live_at(x) if o.id != c.id] and state.horse_at(x) is None for x in c.hexes):
            if k != len(visited) - 1:
                emit(state, "move", msg="move.friend_stop", params={"name": c.name, "hex": h.label, "back": front.label},
                     char=c.id, hex=front.label, ref="MC §4.1")
            return front, True, k
    c.hex, c.facing = visited[0]
    return c.hex, True, 0


# --- retreats ----------------------------------------------------------------------------
def retreat_paths(state: GameState, c: Character, n: int, away_from: Hex | None,
                  combatants: Iterable[str] = (), displace: bool = False) -> list[tuple[Hex, ...]]:
    """Every path of a retreat of ``n`` hexes: ending ``n`` hexes from the start, through no
    enemy, into a hex without a live character; the first step away from the fire
    (Example 4, §4.3); never ending next to an enemy who took part in the combat (§4.3).

    ``displace``: a character on foot may also end on a friend on foot who steps aside to make
    room (§5.4.3 (§), §6.5 (§) "Il peut également déplacer des personnages amis"; see
    :func:`make_room`). Oriflamme offers it when no retreat without it exists."""
    start = c.hex
    comb = [state.characters[x] for x in combatants]
    out: list[tuple[Hex, ...]] = []

    def ok_hex(h: Hex) -> bool:
        others = [o for o in state.live_at(h) if o.id != c.id]
        if others:
            if not (displace and not c.mounted and len(others) == 1 and make_room(state, others[0], h, c) is not None):
                return False
        if state.horse_at(h) is not None:
            return False
        return not any(e.alive and e.side != c.side and e.hex is not None and e.distance_to(h) == 1 for e in comb)

    back = (c.facing + 3) % 6

    def ok_final(path: list[Hex]) -> bool:
        # a rider backs away, his counter keeping its facing (Oriflamme's reading): his rear
        # hex is behind the last hex of the path
        if not ok_hex(path[-1]):
            return False
        return not c.mounted or ok_hex(path[-1].neighbour(back))

    def rear_ok(cur: Hex, nb: Hex) -> bool:
        if not c.mounted:
            return True
        r0, r1 = cur.neighbour(back), nb.neighbour(back)
        return passable_for(state, c, r0, r1) and not any(o.side != c.side for o in state.live_at(r1))

    def rec(path: list[Hex]):
        cur = path[-1] if path else start
        if len(path) == n:
            if cur.distance(start) == n and ok_final(path):
                out.append(tuple(path))
            return
        for nb in cur.neighbours():
            if nb in path or nb == start or nb.distance(start) != len(path) + 1:
                continue
            if not path and away_from is not None and nb.distance(away_from) <= start.distance(away_from):
                continue
            if not passable_for(state, c, cur, nb) or not rear_ok(cur, nb):
                continue
            if any(o.side != c.side for o in state.live_at(nb)):
                continue
            rec(path + [nb])

    rec([])
    return sorted(out)


def make_room(state: GameState, f: Character, h: Hex, mover: Character) -> Hex | None:
    """Where the friend ``f`` standing in ``h`` steps aside so that ``mover`` may end his retreat
    there (§5.4.3 (§), §6.5 (§)): ``f`` active, on foot and of ``mover``'s side, into a free hex
    next to ``h`` open to him (not ``mover``'s own hex). Oriflamme chooses for him: a hex next to
    no active enemy if there is one, then by label (docs/decisions.md)."""
    if f.side != mover.side or not f.active or f.mounted:
        return None
    cands = []
    for n in h.neighbours():
        if n == mover.hex or not passable_for(state, f, h, n):
            continue
        if state.live_at(n) or state.horse_at(n) is not None:
            continue
        near_enemy = any(e.active and e.side != f.side and e.hex is not None and e.distance_to(n) == 1
                         for e in state.characters.values())
        cands.append((near_enemy, n.label, n))
    return min(cands)[2] if cands else None


def step_aside(state: GameState, f: Character, to: Hex, mover: Character) -> None:
    """``f`` makes room for ``mover``'s retreat (§6.5 (§)); stopping next to an enemy, he takes
    the infiltration tests (§6.5 (§): "il doit subir les conséquences ... de la table
    d'infiltration")."""
    frm = f.hex
    f.hex = to
    emit(state, "retreat", msg="retreat.step_aside", params={"name": f.name, "a": frm.label, "b": to.label, "mover": mover.name},
         char=f.id, ref="MC §5.4.3 (§), §6.5 (§)")
    for e in opposers(state, f, to):
        if _opportunity_test(state, f, e, to, ("infiltration.step_aside", to.label), "retreat", "MC §6.5 (§), §4.3",
                             0, None):
            break


# --- advance after combat ----------------------------------------------------------------
def advance_paths(state: GameState, c: Character, vacated: Iterable[Hex], n: int) -> list[tuple[Hex, ...]]:
    """Paths of 1..n hexes whose first hex is one the enemy left (or the hex of the stunned or
    killed enemy) (§6.6); through no active enemy, ending in a hex without a live character."""
    vac = set(vacated)
    out: list[tuple[Hex, ...]] = []

    def free(h: Hex) -> bool:
        return not [o for o in state.live_at(h) if o.id != c.id] and state.horse_at(h) is None

    def free_end(path: list[Hex]) -> bool:
        if not free(path[-1]):
            return False
        return not c.mounted or free(path[-2] if len(path) > 1 else c.hex)

    def rec(path: list[Hex]):
        if path and free_end(path):
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
