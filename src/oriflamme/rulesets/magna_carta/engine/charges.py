"""Cavalry charges and counter-charges on the map (Magna Carta §7.6.1, §7.6.2; the bonus of
§7.6.3 is resolve/melee.py's). A shared mechanic of the base engine: it is played where a
sequence of play has the announcements step :data:`ANNOUNCEMENTS` (Croisades' step 2, "ANNONCE
DE CHARGES ET CONTRE-CHARGES DE CAVALERIE"); Magna Carta's own sequence has none, so nothing here
runs in a Magna Carta game. The numbers are the data's ``[charge.moves]`` (melee.toml).

* **Announcement** (:class:`~.actions.AnnounceCharge`, §7.6.1): a rider of the active side (not
  a camel rider, §4.6.8) names his target — an enemy in his front arc, seen (a line of sight is
  a line of fire where only mounted characters block, §7.6.1), not a camel rider (§4.6.8), not
  already the object of a charge or counter-charge this turn (§7.6.2) — and his path: a legal
  move of at least ``min_hexes`` hexes, with no turn costing extra points, whose last
  ``straight_last`` hexes run straight towards the target's hex. ``legal_actions`` lists one
  path per (rider, target) — the cheapest route to a place facing the target that keeps these
  rules —; ``apply`` accepts any other path by the same rules.
* **Counter-charge** (§7.6.2): right after each announcement the other side answers in a
  ``counter_charge`` prompt: one of its riders (the charger in his front arc and seen) whose
  route to the last ``counter_meet`` hexes of the charge's path, facing the charger, has at
  most ``counter_max`` of the charge's hexes (rounded down) and no turn costing extra; or
  :class:`~.actions.Decline`.
* **Movement** (Croisades step 3): the charger's only move is his announced path ("on ne peut
  plus revenir dessus ni en modifier le parcours"), shortened by the counter-charge's hexes
  when there is one; the counter-charger takes his place on the charge's last hexes as the
  charger sets off (his route was checked when announced; it is not walked again).
  Defensive fire at a charger waits 4 hexes between shots (§5.3, data ``mounted_charging``),
  and none is allowed at a charger met by a counter-charge (§7.6.2).
* **Combat**: a charger who ended his move on his path's last hex attacks with +50 % when he
  attacks alone his target or his counter-charger alone ("toujours résolues en un combat
  séparé"); the counter-charger defends with +50 % (engine/melee.py reads :func:`flags`).
"""

from __future__ import annotations

from ....geometry.hexgrid import DIRECTION_NAMES, Hex, in_front_arc, lines_of_fire
from ..resolve.ruling import Ruling
from . import handlers, riding
from .actions import AnnounceCharge, CounterCharge, Decline
from .camels import mount_of
from .character import Character
from .errors import IllegalAction
from .events import emit
from .movement import check_path, points_left
from .state import GameState, Pending

#: The id of the step in which charges are announced (a sequence that has it plays charges).
ANNOUNCEMENTS = "charge_announcements"
REF_CHARGE, REF_COUNTER = "MC §7.6.1", "MC §7.6.2"


def enabled(state: GameState) -> bool:
    seq = state.rules.sequence
    return state.rules.charge.moves is not None and seq is not None and any(s.id == ANNOUNCEMENTS for s in seq.step)


def _labels(path) -> tuple[Hex, ...]:
    try:
        return tuple(Hex.from_label(x) for x in path)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


# --- what a rider sees (§7.6.1) -------------------------------------------------------------
def sees(state: GameState, c: Character, other: Character) -> bool:
    """A line of sight from ``c``'s front hex to one of ``other``'s hexes: a line of fire where,
    among the characters, only mounted ones block (§7.6.1)."""
    rs, m = state.rules, state.gmap
    blockers = {h for o in state.characters.values() if o.alive and o.mounted and o.id not in (c.id, other.id)
                for h in o.hexes}
    for target in other.hexes:
        for line in lines_of_fire(c.hex, target):
            ok = True
            for i, h in enumerate(line):
                if i > 0:
                    side = m.hexside(line[i - 1], h)
                    if side and rs.hexsides[side].blocks_los:
                        ok = False
                        break
                if 0 < i < len(line) - 1 and (h not in m or rs.terrain[m.terrain(h)].blocks_los or h in blockers):
                    ok = False
                    break
            if ok:
                return True
    return False


def in_arc(c: Character, other: Character) -> bool:
    return any(in_front_arc(c.hex, c.facing, h) for h in other.hexes)


# --- the charger and his path (§7.6.1) -------------------------------------------------------
def rider_problem(state: GameState, c: Character, what: str = "charge") -> tuple[str, str] | None:
    mv = state.rules.charge.moves
    if not c.mounted or c.hex is None:
        return ((f"{c.name} is not mounted: only a rider can charge" if what == "charge" else
                 f"{c.name} is not mounted: only a rider can counter-charge"), REF_CHARGE)
    if not c.active:
        return ((f"{c.name} is {c.status} and cannot charge" if what == "charge" else
                 f"{c.name} is {c.status} and cannot counter-charge"), "MC §1.2")
    if mount_of(state, c) in mv.no_charge_mounts:
        return (f"{c.name} rides a camel: camel riders do not charge", "MC §4.6.8")
    if c.id in state.charges.announced or any(x.get("counter") == c.id for x in state.charges.announced.values()):
        return (f"{c.name} has already announced a charge or a counter-charge this phase", REF_COUNTER)
    return None


def target_problem(state: GameState, c: Character, t: Character) -> tuple[str, str] | None:
    mv = state.rules.charge.moves
    if t.side == c.side or not t.alive or t.hex is None:
        return (f"{t.name} is not a living enemy on the map", REF_CHARGE)
    if t.mounted and mount_of(state, t) in mv.no_charge_against:
        return (f"{t.name} rides a camel: cavalry cannot charge camels", "MC §4.6.8")
    if state.charges.targeted.get(t.id) == state.turn:
        return (f"{t.name} was already the object of a charge or counter-charge this turn", REF_COUNTER)
    if not in_arc(c, t):
        return (f"{t.name} is not in {c.name}'s front arc", REF_CHARGE)
    if not sees(state, c, t):
        return (f"{c.name} cannot see {t.name} (only riders and the terrain block his line of sight)", REF_CHARGE)
    return None


def path_problem(state: GameState, c: Character, t: Character, path: tuple[Hex, ...]) -> tuple[str, str] | None:
    """Why ``path`` is not a valid charge of ``c`` at ``t`` (§7.6.1), or None."""
    mv = state.rules.charge.moves
    if len(path) < mv.min_hexes:
        return (f"a charge covers at least {mv.min_hexes} hexes ({len(path)} given)", mv.ref)
    cost, why, ref = check_path(state, c, path)
    if cost is None:
        return (why, ref)
    for s in riding.path_steps(state, c, path, riding.extra_costs(state)):
        if s.extra or s.kind == riding.VOLTE:
            return (f"a charge makes no sharp turn costing extra points ({s.front.label})", REF_CHARGE)
    last = path[-mv.straight_last:]
    d = last[-2].direction_to(last[-1])
    straight = d is not None and all(last[i].direction_to(last[i + 1]) == d for i in range(len(last) - 1))
    if not straight or last[-1].neighbour(d) not in t.hexes:
        return (f"the last {mv.straight_last} hexes of a charge run straight towards the target's hex", mv.ref)
    return None


def problem(state: GameState, c: Character, t: Character, path: tuple[Hex, ...] | None) -> tuple[str, str] | None:
    if state.step != ANNOUNCEMENTS or not enabled(state):
        return ("charges are announced in the announcements step, before moving", "CR seed 000 l.43; MC §7.6.1")
    if c.side != state.active:
        return (f"{c.name} belongs to side {c.side}; it is side {state.active}'s phase", "MC §2.1")
    p = rider_problem(state, c) or target_problem(state, c, t)
    if p or path is None:
        return p
    return path_problem(state, c, t, path)


def charge_path(state: GameState, c: Character, t: Character, found: dict | None = None) -> tuple[Hex, ...] | None:
    """The path ``legal_actions`` offers: for each direction, the cheapest route to the hex
    ``straight_last`` hexes short of ``t`` then straight on towards him, the first (cheapest)
    that keeps the rules of a charge (None: none does)."""
    n = state.rules.charge.moves.straight_last
    if found is None:
        found = reachable_from_here(state, c)
    best = None
    for target in t.hexes:
        for d in range(6):
            line = [target.neighbour(d + 3)]
            for _ in range(n - 1):
                line.insert(0, line[0].neighbour(d + 3))
            start, rest = line[0], tuple(line[1:])
            for f in (d, (d + 1) % 6, (d - 1) % 6):
                hit = found.get((start, f))
                if hit is None:
                    continue
                path = hit[1] + rest
                if path_problem(state, c, t, path) is None and (best is None or (hit[0], len(path)) < best[0]):
                    best = ((hit[0], len(path)), path)
    return best[1] if best else None


def reachable_from_here(state: GameState, c: Character) -> dict:
    """The rider's search (``riding.reachable``) with his own place, reached at no cost."""
    found = dict(riding.reachable(state, c, points_left(state, c)))
    found[(c.hex, c.facing)] = (0, ())
    return found


def announce_options(state: GameState) -> list[AnnounceCharge]:
    if not enabled(state) or state.step != ANNOUNCEMENTS:
        return []
    out = []
    riders = sorted((c for c in state.characters.values() if c.side == state.active and c.alive and c.hex is not None),
                    key=lambda c: c.id)
    foes = sorted((t for t in state.characters.values() if t.side != state.active and t.alive and t.hex is not None),
                  key=lambda c: c.id)
    for c in riders:
        if rider_problem(state, c):
            continue
        found = None
        for t in foes:
            if target_problem(state, c, t):
                continue
            found = found if found is not None else reachable_from_here(state, c)
            path = charge_path(state, c, t, found)
            if path is not None:
                out.append(AnnounceCharge(c.id, t.id, tuple(h.label for h in path)))
    return out


# --- the counter-charge (§7.6.2) ---------------------------------------------------------
def meeting(state: GameState, path: tuple[Hex, ...]) -> tuple[Hex, int]:
    """The counter-charger's place: front on the charge's ``counter_meet``-th last hex, facing
    the charger."""
    n = state.rules.charge.moves.counter_meet
    front = path[-n]
    return front, front.direction_to(path[-n - 1])


def counter_problem(state: GameState, e: Character, charger: Character, path: tuple[Hex, ...],
                    route: tuple[Hex, ...] | None) -> tuple[str, str] | None:
    mv = state.rules.charge.moves
    if e.side == charger.side:
        return (f"{e.name} is on the charger's side", REF_COUNTER)
    p = rider_problem(state, e, "counter-charge")
    if p:
        return p
    if state.charges.targeted.get(charger.id) == state.turn:
        return (f"{charger.name} was already the object of a charge or counter-charge this turn", REF_COUNTER)
    if not in_arc(e, charger):
        return (f"{charger.name} is not in {e.name}'s front arc", REF_COUNTER)
    if not sees(state, e, charger):
        return (f"{e.name} cannot see {charger.name}", REF_COUNTER)
    if route is None:
        return None
    num, den = mv.counter_max
    most = len(path) * num // den
    if not route or len(route) > most:
        return (f"a counter-charge covers at most {most} hexes (half the charge's {len(path)}, rounded down)", mv.ref)
    cost, why, ref = check_path(state, e, route)
    if cost is None:
        return (why, ref)
    steps = riding.path_steps(state, e, route, riding.extra_costs(state))
    if any(s.extra or s.kind == riding.VOLTE for s in steps):
        return ("a counter-charge makes no sharp turn costing extra points", REF_COUNTER)
    front, facing = meeting(state, path)
    if (steps[-1].front, steps[-1].facing) != (front, facing):
        return (f"a counter-charge ends on the last {mv.counter_meet} hexes of the charge's path "
                f"({front.label}, facing {DIRECTION_NAMES[facing]})", REF_COUNTER)
    return None


def counter_route(state: GameState, e: Character, charger: Character, path: tuple[Hex, ...]) -> tuple[Hex, ...] | None:
    found = riding.reachable(state, e, points_left(state, e))
    hit = found.get(meeting(state, path))
    if hit is None:
        return None
    route = hit[1]
    return route if counter_problem(state, e, charger, path, route) is None else None


def counter_options(state: GameState, p: Pending) -> list:
    charger = state.characters[p.data["charger"]]
    path = tuple(Hex.from_label(x) for x in p.data["path"])
    out: list = []
    for e in sorted(state.characters.values(), key=lambda c: c.id):
        if e.side != p.side or not e.alive or e.hex is None or counter_problem(state, e, charger, path, None):
            continue
        route = counter_route(state, e, charger, path)
        if route is not None:
            out.append(CounterCharge(e.id, tuple(h.label for h in route)))
    return out + [Decline()]


def answer(state: GameState, p: Pending, a) -> None:
    charger = p.data["charger"]
    ch = state.characters[charger]
    if isinstance(a, Decline):
        emit(state, "charge", msg="charge.no_counter", params={"name": ch.name}, char=charger, ref=REF_COUNTER)
        return
    e = state.characters[a.char]
    entry = state.charges.announced[charger]
    entry["counter"], entry["counter_path"] = e.id, list(a.path)
    state.charges.targeted[charger] = state.turn
    emit(state, "charge", msg="charge.counter_announced",
         params={"name": e.name, "charger": ch.name, "path": " → ".join(a.path)},
         char=e.id, charger=charger, path=list(a.path), ref=REF_COUNTER)


# --- the moves of the movement step ----------------------------------------------------------
def route_of(state: GameState, c: Character) -> tuple[str, ...] | None:
    """The announced charger's only move (his path, shortened by a counter-charge), or None
    when ``c`` announced no charge."""
    entry = state.charges.announced.get(c.id)
    if entry is None:
        return None
    path = tuple(entry["path"])
    if entry.get("counter"):
        path = path[:-state.rules.charge.moves.counter_meet]
    return path


def move_problem(state: GameState, c: Character, path: tuple[str, ...]) -> tuple[str, str] | None:
    route = route_of(state, c)
    if route is not None and tuple(path) != route:
        return (f"{c.name} announced a charge: his move is its path {' → '.join(route)} "
                f"(an announced charge is not changed)", REF_COUNTER)
    return None


def before_move(state: GameState, c: Character) -> None:
    """The charger sets off: his counter-charger rides to the charge's last hexes (§7.6.2)."""
    entry = state.charges.announced.get(c.id)
    if not entry or not entry.get("counter") or entry.get("met"):
        return
    e = state.characters[entry["counter"]]
    entry["met"] = True
    path = tuple(Hex.from_label(x) for x in entry["path"])
    front, facing = meeting(state, path)
    if not e.alive or e.hex is None or any(o.id != e.id for h in (front, front.neighbour(facing + 3)) for o in state.live_at(h)):
        emit(state, "charge", msg="charge.counter_blocked", params={"name": e.name}, char=e.id, ref=REF_COUNTER)
        return
    start = e.hex.label
    e.hex, e.facing = front, facing
    emit(state, "charge", msg="charge.counter_rides", params={"name": e.name, "start": start,
         "path": " → ".join(entry["counter_path"])}, char=e.id, path=list(entry["counter_path"]), ref=REF_COUNTER)


def no_defensive_fire(state: GameState, mover: Character) -> tuple[str, str] | None:
    entry = state.charges.announced.get(mover.id)
    if entry and entry.get("counter"):
        return (f"{mover.name} charges and a counter-charge was announced: no defensive fire at him", REF_COUNTER)
    return None


def charging(state: GameState, c: Character) -> bool:
    return c.id in state.charges.announced


# --- the handler ------------------------------------------------------------------------------
def _check(state: GameState, a: AnnounceCharge) -> None:
    c, t = handlers.character(state, a.char), handlers.character(state, a.target)
    handlers.refuse_if(problem(state, c, t, _labels(a.path)))
    if charge_path(state, c, t) is None:  # the pair legal_actions lists (its one offered path)
        raise IllegalAction(f"no charge of {c.name} at {t.name} keeps the rules from where he stands", REF_CHARGE)


def _do(state: GameState, a: AnnounceCharge) -> None:
    c, t = state.characters[a.char], state.characters[a.target]
    state.charges.announced[c.id] = {"target": t.id, "path": list(a.path), "counter": None, "counter_path": None}
    state.charges.targeted[t.id] = state.turn
    emit(state, "charge", msg="charge.announced", params={"name": c.name, "target": t.name, "path": " → ".join(a.path),
         "n": len(a.path)}, char=c.id, target=t.id, path=list(a.path), ref=REF_CHARGE)
    other = state.enemy_of(state.active)
    state.pending.append(Pending("counter_charge", other, [c.id],
                                 {"charger": c.id, "path": list(a.path), "ref": REF_COUNTER}))


def _explain(state: GameState, a: AnnounceCharge) -> Ruling:
    r = Ruling(kind="charge")
    c, t = state.characters.get(a.char), state.characters.get(a.target)
    if c is None or t is None:
        return r.refuse(f"unknown character {(a.char if c is None else a.target)!r}")
    try:
        path = _labels(a.path)
    except IllegalAction as exc:
        return r.refuse(exc.reason if hasattr(exc, "reason") else str(exc))
    p = problem(state, c, t, path)
    if p:
        return r.refuse(*p)
    mv = state.rules.charge.moves
    r.say("charge.explain.target", {"target": t.name, "name": c.name}, REF_CHARGE)
    r.say("charge.explain.path", {"n": len(path), "min": mv.min_hexes, "last": mv.straight_last, "target": t.name}, mv.ref)
    r.say("charge.explain.counter", {}, REF_COUNTER)
    r.say("charge.explain.bonus", {}, state.rules.charge.ref)
    return r


handlers.register("announce_charge", check=_check, do=_do, explain=_explain)
handlers.register("counter_charge", check=handlers.no_prompt)
