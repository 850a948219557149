"""Bodies on the map (Magna Carta §4.2.2–§4.2.4): the dead that clog a hex, clearing them,
carrying a stunned friend.

Where the dead lie
------------------
* A dead character stays in the roster on his hex (``Character.hex``, status ``dead``); he
  counts as one dead **man**.
* Bodies that are not characters of the roster lie in ``state.bodies.carcasses``
  (hex -> ``{"horse": n, "man": n}``): the dead horses of riders (added by the riders' code
  through :func:`add_carcass`), or bodies a scenario places.
* :func:`bodies_at` gives ``(men, horses)`` for one hex and :func:`bodies_map` for the whole
  board; the movement costs and the impassable hexes (:mod:`oriflamme.rulesets.magna_carta.engine.movement`) read
  them through :class:`Thresholds` (data: ``movement.toml`` rows ``dead_*``, MC §4.2.2).

Oriflamme's readings (docs/decisions.md, "Bodies on the map"):

* §4.2.2: the +1 is paid once, whatever mix of dead makes the hex heavy; a hex is impassable
  at six men, two horses, or three men and one horse — "at least" in each case.
* §4.2.3 clearing: two active characters on foot of the active side, each in the hex or next
  to it, who have neither fired nor moved this phase, move (up to) three dead men or one dead
  horse into a hex adjacent to the cleared one — in the movement step (the step in which a
  character would otherwise move: clearing replaces his move). The destination is a hex a man
  on foot could enter (terrain, hexside) or a water hex (the bodies sink and leave the board);
  no active enemy stands there. The workers cannot move, fire or attack for the rest of the
  phase (``state.phase.clearing``).
* §4.2.4 carrying: one action, :class:`~oriflamme.rulesets.magna_carta.engine.actions.Carry` — a move whose path
  passes through the stunned friend's hex. The steps up to that hex cost their points as
  usual; from there on the points left are halved (rounded down); at the end the carrier sets
  his friend down on a free hex around his own (a ``set_down`` prompt when there are several)
  and his movement for the phase is over ("à la fin de son mouvement"). Only a character on
  foot carries; only a friend is carried.
"""

from __future__ import annotations

import heapq

from ....geometry.hexgrid import Hex
from ..resolve.movement import Thresholds, thresholds  # noqa: F401  (re-exported)
from ..resolve.ruling import Ruling
from . import handlers
from .actions import Carry, ClearBodies, SetDown
from .character import Character
from .events import emit, nested
from .state import MOVEMENT, GameState, Pending
from .carcasses import HORSE, KINDS, MAN, add_carcass, bodies_at, bodies_map, body_kind, describe, take_carcass  # noqa: F401
from .movement import MoveContext, allowance, points_left, step_cost
from .paths import walk



CLEAR_REF = "MC §4.2.3"
CARRY_REF = "MC §4.2.4"














# =============================================================================================
# clearing a hex (§4.2.3)
# =============================================================================================
def _rule(state: GameState, name: str) -> int:
    return state.rules.movement_rules[name].value


def worker_problem(state: GameState, w: Character, h: Hex) -> str | None:
    """Why ``w`` cannot help clear ``h`` now (None: he can)."""
    if w.side != state.active:
        return f"{w.name} belongs to side {w.side}; it is side {state.active}'s phase"
    if not w.active:
        return f"{w.name} is {w.status}"
    if w.mounted:
        return f"{w.name} is mounted: only characters on foot clear a hex"
    if w.hex is None or w.hex.distance(h) > 1:
        return f"{w.name} is neither in {h.label} nor next to it"
    if w.id in state.phase.clearing:
        return f"{w.name} has already cleared a hex this phase"
    if w.id in state.phase.fired:
        return f"{w.name} fired this phase"
    if state.phase.mp_spent.get(w.id, 0) or w.id in state.phase.stopped:
        return f"{w.name} has moved this phase"
    return None


def _sinks(state: GameState, h: Hex) -> bool:
    return state.rules.terrain[state.gmap.terrain(h)].water


def destination_problem(state: GameState, frm: Hex, to: Hex, side: str) -> str | None:
    """Why bodies cannot be moved from ``frm`` into ``to`` (None: they can)."""
    m, rs = state.gmap, state.rules
    if to not in m:
        return f"{to.label} is off the map"
    if frm.distance(to) != 1:
        return f"{to.label} is not next to {frm.label}"
    t = rs.terrain[m.terrain(to)]
    if not t.water and t.cost_for(False, False) == "impassable":
        return f"{t.names[0]} ({to.label}) cannot be entered on foot"
    hs = m.hexside(frm, to)
    if hs and rs.hexsides[hs].crossing_for(False) == "impassable":
        return f"the {rs.hexsides[hs].names[0]} between {frm.label} and {to.label} cannot be crossed"
    if any(o.side != side and o.active for o in state.live_at(to)):
        return f"{to.label} holds an active enemy"
    return None


def clear_problem(state: GameState, a: ClearBodies) -> tuple[str, str] | None:
    """Why the clearing ``a`` is refused: ``(reason, ref)``, or None when it is legal."""
    if state.step != MOVEMENT:
        return "a hex is cleared in the movement step", "MC §4.2.3, §2.1 (2)"
    if a.kind not in KINDS:
        return f"unknown kind of body {a.kind!r} (man or horse)", CLEAR_REF
    workers = _rule(state, "clear_workers")
    if len(a.chars) != workers or len(set(a.chars)) != workers:
        return f"clearing a hex takes {workers} different characters on foot", CLEAR_REF
    if list(a.chars) != sorted(a.chars):
        return "list the two characters in id order", CLEAR_REF
    try:
        h, to = Hex.from_label(a.hex), Hex.from_label(a.to)
    except ValueError as exc:
        return str(exc), CLEAR_REF
    for cid in a.chars:
        w = state.characters.get(cid)
        if w is None:
            return f"unknown character {cid!r}", CLEAR_REF
        p = worker_problem(state, w, h)
        if p:
            return p, CLEAR_REF
    men, horses = bodies_at(state, h)
    if (men if a.kind == MAN else horses) == 0:
        return (f"there is no dead man in {h.label}" if a.kind == MAN else f"there is no dead horse in {h.label}"), CLEAR_REF
    p = destination_problem(state, h, to, state.active)
    if p:
        return p, CLEAR_REF
    return None


def clear_options(state: GameState) -> list[ClearBodies]:
    """Every legal clearing of the active side now."""
    if state.step != MOVEMENT or state.pending:
        return []
    bodies = bodies_map(state)
    if not bodies:
        return []
    able = [w for w in state.characters.values() if w.side == state.active and w.hex is not None]
    out: list[ClearBodies] = []
    for h in sorted(bodies, key=lambda x: x.label):
        ws = sorted((w for w in able if w.hex.distance(h) <= 1 and worker_problem(state, w, h) is None),
                    key=lambda w: w.id)
        if len(ws) < 2:
            continue
        tos = [n for n in sorted(h.neighbours(), key=lambda x: x.label)
               if destination_problem(state, h, n, state.active) is None]
        men, horses = bodies[h]
        kinds = [k for k, n in ((MAN, men), (HORSE, horses)) if n]
        for i, w1 in enumerate(ws):
            for w2 in ws[i + 1:]:
                for k in kinds:
                    for n in tos:
                        out.append(ClearBodies((w1.id, w2.id), h.label, n.label, k))
    return out


def has_clear_option(state: GameState) -> bool:
    return bool(clear_options(state))


def clear_ruling(state: GameState, a: ClearBodies) -> Ruling:
    r = Ruling(kind="clear_bodies")
    p = clear_problem(state, a)
    if p:
        return r.refuse(*p)
    h, to = Hex.from_label(a.hex), Hex.from_label(a.to)
    men, horses = bodies_at(state, h)
    n = min(men, _rule(state, "clear_dead_men")) if a.kind == MAN else _rule(state, "clear_dead_horses")
    names = ", ".join(state.characters[c].name for c in a.chars)
    what = describe(n, 0) if a.kind == MAN else describe(0, n)
    r.step(f"{h.label} holds {describe(men, horses)}", "MC §4.2.2")
    r.step(f"{names} move {what} from {h.label} into {to.label}", CLEAR_REF)
    if _sinks(state, to):
        r.step(f"{to.label} is water: the bodies sink and leave the board", CLEAR_REF)
    r.step(f"{names} do nothing else this phase: no move, no fire, no combat", CLEAR_REF)
    r.data.update(moved=n, kind=a.kind, sinks=_sinks(state, to))
    return r


def do_clear(state: GameState, a: ClearBodies) -> None:
    h, to = Hex.from_label(a.hex), Hex.from_label(a.to)
    sink = _sinks(state, to)
    if a.kind == MAN:
        left = _rule(state, "clear_dead_men")
        moved = 0
        for c in sorted((c for c in state.characters.values() if c.hex == h and not c.alive and body_kind(c) == MAN),
                        key=lambda c: c.id)[:left]:
            c.hex = None if sink else to   # a sunk body stays in the roster, dead, off the board
            moved += 1
        extra = take_carcass(state, h, MAN, left - moved)
    else:
        moved, extra = 0, take_carcass(state, h, HORSE, _rule(state, "clear_dead_horses"))
    if extra and not sink:
        add_carcass(state, to, a.kind, extra)
    n = moved + extra
    state.phase.clearing.update(a.chars)
    names = ", ".join(state.characters[c].name for c in a.chars)
    # carcasses.describe(n, 0) or describe(0, n), as a message
    what = (nested("bodies.none") if not n else
            nested(f"bodies.{(('man', 'men') if a.kind == MAN else ('horse', 'horses'))[n != 1]}", n=n))
    emit(state, "clear_bodies", msg="clear.sink" if sink else "clear.out",
         params={"names": names, "what": what, "hex": h.label, "to": to.label},
         chars=list(a.chars), hex=h.label, to=to.label, kind=a.kind, count=n, sunk=sink, ref=CLEAR_REF)


# =============================================================================================
# carrying a stunned friend (§4.2.4)
# =============================================================================================
def carrier_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if state.step != MOVEMENT:
        return "characters move in the movement step", "MC §2.1 (2)"
    if c.side != state.active:
        return f"{c.name} belongs to side {c.side}; it is side {state.active}'s phase", "MC §2.1"
    if not c.active:
        return f"{c.name} is {c.status} and cannot move", "MC §1.2"
    if c.mounted:
        return f"{c.name} is mounted: only a character on foot carries a stunned friend", CARRY_REF
    if c.id in state.phase.clearing:
        if c.id in state.carts.harnessing:
            return f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", "MC §4.5.1"
        return f"{c.name} cleared a hex this phase and does nothing else", CLEAR_REF
    if c.id in state.phase.stopped:
        return f"{c.name} was stopped and cannot move again this phase", "MC §4.3.1"
    if points_left(state, c) <= 0:
        return f"{c.name} has no movement points left", "MC §4"
    return None


def friend_problem(state: GameState, c: Character, f: Character) -> tuple[str, str] | None:
    if f.id == c.id or f.side != c.side:
        return f"{f.name} is not a friend of {c.name}", CARRY_REF
    if f.status != "stunned" or f.hex is None:
        return f"{f.name} is not a stunned character on the board", CARRY_REF
    return None


def _free_for(state: GameState, h: Hex, *ignore: str) -> bool:
    """No live character (but ``ignore``) and no riderless horse (§4.4.4: no move ends on one)."""
    return not any(o.id not in ignore for o in state.live_at(h)) and state.horse_at(h) is None


def set_down_hexes(state: GameState, at: Hex, friend: Character, carrier: str = "") -> list[Hex]:
    """The hexes around ``at`` where ``friend`` may be set down: on the map, terrain and
    hexside he could enter, no live character, not choked with dead (§4.1, §4.2.2, §4.2.4)."""
    rs, m = state.rules, state.gmap
    th = thresholds(rs)
    out = []
    for n in sorted(at.neighbours(), key=lambda x: x.label):
        if n not in m:
            continue
        if rs.terrain[m.terrain(n)].cost_for(friend.mounted, friend.armour) == "impassable":
            continue
        hs = m.hexside(at, n)
        if hs and rs.hexsides[hs].crossing_for(friend.mounted) == "impassable":
            continue
        if not _free_for(state, n, friend.id, carrier) or th.blocked(*bodies_at(state, n)):
            continue
        out.append(n)
    return out


def _cheapest(ctx, start: Hex, budget: int) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Cheapest cost and path (start excluded) to every hex within ``budget``, occupied or not."""
    best = {start: 0}
    prev: dict[Hex, Hex] = {}
    heap = [(0, start.label, start)]
    while heap:
        cost, _, h = heapq.heappop(heap)
        if cost > best[h]:
            continue
        for n in h.neighbours():
            sc = ctx.cost(h, n)
            if sc is None or cost + sc > budget or cost + sc >= best.get(n, budget + 1):
                continue
            best[n] = cost + sc
            prev[n] = h
            heapq.heappush(heap, (cost + sc, n.label, n))
    out = {}
    for h, cost in best.items():
        path = []
        x = h
        while x != start:
            path.append(x)
            x = prev[x]
        out[h] = (cost, tuple(reversed(path)))
    return out


def carry_costs(state: GameState, c: Character, f: Character, path: tuple[Hex, ...]):
    """``(before, after, left, reason, ref)``: the cost of the path up to and including the
    friend's hex, the cost after it, the points left; reason None when the carry is legal."""
    p = carrier_problem(state, c) or friend_problem(state, c, f)
    if p:
        return 0, 0, 0, *p
    if not path:
        return 0, 0, 0, "an empty move", "MC §4"
    if f.hex not in path:
        return 0, 0, 0, f"the path does not pass through {f.name}'s hex ({f.hex.label})", CARRY_REF
    k = path.index(f.hex)
    ctx = MoveContext(state, c)
    cur, costs = c.hex, []
    for h in path:
        sc, why, ref = step_cost(state, c, cur, h, ctx)
        if sc is None:
            return 0, 0, 0, why, ref
        costs.append(sc)
        cur = h
    left = points_left(state, c)
    before, after = sum(costs[: k + 1]), sum(costs[k + 1:])
    if before > left:
        return before, after, left, f"reaching {f.name} costs {before} PM and {c.name} has {left} left", "MC §4, §3.1"
    half = (left - before) // _rule(state, "carry_stunned_divisor")
    if after > half:
        return (before, after, left, f"carrying {f.name} halves the {left - before} PM left to {half}; "
                f"the rest of the move costs {after}", CARRY_REF)
    if not _free_for(state, path[-1], c.id, f.id):
        return before, after, left, f"a move cannot end in {path[-1].label}: one live character per hex", "MC §4.1"
    if not set_down_hexes(state, path[-1], f, c.id):
        return before, after, left, f"no free hex around {path[-1].label} to set {f.name} down", CARRY_REF
    return before, after, left, None, ""


def carry_options(state: GameState) -> list[Carry]:
    """Every carry of the active side now: for each carrier and stunned friend, the cheapest
    path to the friend, then the cheapest path on to each free hex within half the points."""
    if state.step != MOVEMENT or state.pending:
        return []
    side = state.active
    friends = sorted((f for f in state.characters.values() if f.side == side and f.status == "stunned"
                      and f.hex is not None), key=lambda f: f.id)
    if not friends:
        return []
    div = _rule(state, "carry_stunned_divisor")
    out: list[Carry] = []
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.side != side or c.hex is None or carrier_problem(state, c) is not None:
            continue
        left = points_left(state, c)
        near = [f for f in friends if f.hex.distance(c.hex) <= left]
        if not near:
            continue
        ctx = MoveContext(state, c)
        first = _cheapest(ctx, c.hex, left)
        for f in near:
            if f.hex not in first:
                continue
            before, p1 = first[f.hex]
            rest = _cheapest(ctx, f.hex, (left - before) // div)
            for h, (_, p2) in sorted(rest.items(), key=lambda x: x[0].label):
                if not _free_for(state, h, c.id, f.id) or not set_down_hexes(state, h, f, c.id):
                    continue
                out.append(Carry(c.id, f.id, tuple(x.label for x in p1 + p2)))
    return out


def carry_ruling(state: GameState, a: Carry) -> Ruling:
    r = Ruling(kind="carry")
    c, f = state.characters.get(a.char), state.characters.get(a.friend)
    if c is None or f is None:
        return r.refuse(f"unknown character {a.char if c is None else a.friend!r}")
    try:
        path = tuple(Hex.from_label(x) for x in a.path)
    except ValueError as exc:
        return r.refuse(str(exc))
    before, after, left, why, ref = carry_costs(state, c, f, path)
    if why:
        return r.refuse(why, ref)
    half = (left - before) // _rule(state, "carry_stunned_divisor")
    r.step(f"{c.name} reaches {f.name} in {f.hex.label}: {before} PM of {left}", "MC §4, §3.1")
    r.step(f"{c.name} carries {f.name}: the {left - before} PM left are halved to {half}", CARRY_REF)
    if after:
        r.step(f"{c.name} carries {f.name} to {path[-1].label}: {after} PM of {half}", CARRY_REF)
    opts = set_down_hexes(state, path[-1], f, c.id)
    r.step(f"{c.name} sets {f.name} down next to {path[-1].label} ({', '.join(h.label for h in opts)}); "
           f"his move is over", CARRY_REF)
    r.data.update(cost=before + after, set_down=[h.label for h in opts])
    return r


def do_carry(state: GameState, a: Carry) -> None:
    c, f = state.characters[a.char], state.characters[a.friend]
    path = tuple(Hex.from_label(x) for x in a.path)
    k = path.index(f.hex)
    start, home = c.hex, f.hex
    spent_before = state.phase.mp_spent.get(c.id, 0)
    ctx = MoveContext(state, c)
    steps, cur = [], start
    for h in path:
        steps.append(step_cost(state, c, cur, h, ctx)[0])
        cur = h

    def may_go_on(ch: Character, i: int) -> bool:
        return spent_before + sum(steps[: i + 1]) < allowance(state, ch)

    # to the friend, as an ordinary move (his hex is entered last: no test there yet)
    final, interrupted, _ = walk(state, c, path[: k + 1], why="move", after_wound=may_go_on)
    if not c.alive or interrupted or final != home:
        idx = path.index(final) if final in path[: k + 1] else -1
        state.phase.mp_spent[c.id] = spent_before + (sum(steps[: idx + 1]) if idx >= 0 else 0)
        state.phase.stopped.add(c.id)
        emit(state, "carry", msg="carry.miss", params={"name": c.name, "friend": f.name}, char=c.id, friend=f.id, ref=CARRY_REF)
        return
    emit(state, "carry", msg="carry.pick_up", params={"name": c.name, "friend": f.name, "hex": home.label}, char=c.id, friend=f.id,
         hex=home.label, ref=CARRY_REF)
    state.phase.mp_spent[c.id] = allowance(state, c)  # the move ends with the set-down (§4.2.4)
    f.hex = None  # on the carrier's back
    if k + 1 < len(path):
        # on from the friend's hex: leaving it is a crossing (§4.3), so the walk starts there;
        # a wounded carrier stops (interpretation: his halved points are not recomputed)
        final, _, _ = walk(state, c, path[k:], why="move", after_wound=lambda ch, i: False)
        shown = [x.label for x in path[k:]]
        shown = shown[: len(shown) - shown[::-1].index(final.label)] if final.label in shown else [home.label]
        emit(state, "move", msg="carry.along", params={"name": c.name, "friend": f.name, "path": ' → '.join(shown)}, char=c.id, friend=f.id,
             path=shown, ref=CARRY_REF)
    f.hex = c.hex
    if not c.alive:
        if not _free_for(state, c.hex, f.id):  # killed while crossing a friend's hex (§4.1)
            f.hex = _nearest_free(state, c.hex, f, c.id) or c.hex
        emit(state, "carry", msg="carry.falls", params={"friend": f.name, "hex": f.hex.label}, char=f.id, ref=CARRY_REF)
        return
    opts = set_down_hexes(state, c.hex, f, c.id)
    if len(opts) == 1:
        put_down(state, c, f, opts[0])
    elif opts:
        state.pending.insert(0, Pending("set_down", c.side, [c.id],
                                        {"friend": f.id, "hexes": [h.label for h in opts], "ref": CARRY_REF}))
    else:
        # stopped short where no hex around is free (interpretation): the nearest free hex
        h = _nearest_free(state, c.hex, f, c.id)
        if h is not None:
            put_down(state, c, f, h)


def _nearest_free(state: GameState, at: Hex, f: Character, carrier: str) -> Hex | None:
    """The nearest hex (then the first by label) where ``f`` could lie: on the map, terrain he
    could enter, no live character."""
    seen, ring = {at}, [at]
    while ring:
        nxt = []
        for h in ring:
            for n in sorted(h.neighbours(), key=lambda x: x.label):
                if n not in seen and n in state.gmap:
                    seen.add(n)
                    nxt.append(n)
        for n in sorted(nxt, key=lambda x: x.label):
            if _free_for(state, n, f.id, carrier) and \
                    state.rules.terrain[state.gmap.terrain(n)].cost_for(f.mounted, f.armour) != "impassable":
                return n
        ring = nxt
    return None


def put_down(state: GameState, c: Character, f: Character, h: Hex) -> None:
    f.hex = h
    emit(state, "carry", msg="carry.set_down", params={"name": c.name, "friend": f.name, "hex": h.label}, char=c.id, friend=f.id, hex=h.label,
         ref=CARRY_REF)


def set_down_options(p: Pending, state: GameState | None = None) -> list[SetDown]:
    hexes = p.data["hexes"]
    if state is not None and state.riders.horses:  # a led horse may have followed into one since (§4.4.4)
        hexes = [h for h in hexes if state.horse_at(Hex.from_label(h)) is None] or hexes
    return [SetDown(p.chars[0], h) for h in hexes]


def answer_set_down(state: GameState, p: Pending, a: SetDown) -> None:
    put_down(state, state.characters[a.char], state.characters[p.data["friend"]], Hex.from_label(a.hex))


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
handlers.register("clear_bodies", check=lambda state, a: handlers.refuse_if(clear_problem(state, a)), do=do_clear,
                  explain=clear_ruling)
handlers.register("carry", check=lambda state, a: handlers.refuse_unless_legal(carry_ruling(state, a)), do=do_carry,
                  explain=carry_ruling)
handlers.register("set_down", check=handlers.no_prompt)  # a prompt's answer
