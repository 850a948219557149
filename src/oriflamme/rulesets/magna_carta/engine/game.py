"""The engine's public API (OpenSpiel / Rally the Troops style):

* :func:`legal_actions` — every action the side to act may take now (the one place rules are
  enumerated; the CLI, the AI and validation all draw on it);
* :func:`apply` — checked: refuses an illegal action with :class:`IllegalAction` (the rule that
  forbids it) and leaves the state unchanged; returns the events it logged;
* :func:`explain` — the ruling of an action *before* it is committed (odds, probabilities);
* :func:`to_act`, :func:`clone` (on the state), :func:`view` in :mod:`oriflamme.rulesets.magna_carta.engine.view`.

Every die is rolled through ``state.dice`` and every consequence is logged in ``state.log``.
"""

from __future__ import annotations

from typing import NamedTuple

from ....geometry.hexgrid import Hex
from ....core.dice import roll_keyed
from ..resolve.ruling import Ruling
from . import bodies, bridle, carts, charges, defensive_fire, handlers, horses, kneeling, led, lone_horse, ransom, riding, turn
from .actions import (Action, Advance, Attack, AttackHorse, Casualty, Declare, Decline, Dismount, EndStep,
                      Fire, FireAtHorse, Lead, Mount, Move, Place, Retreat, Stand)
from .character import Character
from .errors import IllegalAction
from .events import emit, nested, status
from .fire import apply_status, fire_ruling, fire_targets, has_fire_target
from .memo import per_position
from .melee import attack_options, has_attack_option, is_attack_option, melee_ruling
from ..resolve.infiltration import infiltration_test, Infiltrator, Opposer
from .movement import can_move, check_path, opposers, points_left, position_opposers, reachable
from .paths import make_room, step_aside, walk
from .state import GameState, MELEE, MOVEMENT, OFFENSIVE_FIRE, Pending
from .victory import sudden_death_check
from .combat import fill_advance_paths, fill_retreat_paths, hit, melee_roll, order_retreat, stray
from .moving import move, step_costs
from ..resolve.jump import jump_test


# =============================================================================================
# legal actions
# =============================================================================================
def to_act(state: GameState) -> str | None:
    return state.to_act()


def legal_actions(state: GameState) -> list[Action]:
    return _legal_actions(state, _moves)


class MoveSummary(NamedTuple):
    """In :func:`view_actions`, the stand-in for one character's ``Move`` actions (never
    empty): ``costs`` maps the key of each move (a rider's (front hex, facing), a hex on foot),
    in the order of his moves, to its cost; ``paths`` the moves' paths (hex labels) by the same
    keys, None for a rider (:func:`moves_of` lists his moves)."""
    char: str
    costs: dict
    paths: dict | None


def view_actions(state: GameState) -> list[Action | MoveSummary]:
    """:func:`legal_actions` as a view needs them: the same list, in the same order, except
    that each character's moves are one :class:`MoveSummary` (no ``Move`` objects); a rider's
    (one move per (front hex, facing), about 600, each with its path) holds their costs only,
    from a cheaper search without paths: the board shows his cheapest cost per hex and
    fetches his moves on selection (:func:`moves_of`)."""
    return _legal_actions(state, _moves_in_view)


def _legal_actions(state: GameState, moves) -> list:
    """The one enumeration of the legal actions; ``moves(state, c)`` lists ``c``'s moves
    (:func:`_moves`, or their summary for a view)."""
    if state.over:
        return []
    if state.pending:
        return _pending_options(state, state.pending[0])
    side = state.active
    out: list[Action] = []
    mine = sorted((c for c in state.characters.values() if c.side == side and c.hex is not None), key=lambda c: c.id)
    if state.step == OFFENSIVE_FIRE:
        for c in mine:
            for t, _ in fire_targets(state, c):
                out.append(Fire(c.id, t.id))
            out.extend(FireAtHorse(c.id, x.id) for x in lone_horse.fire_targets(state, c))  # §6.8
    elif state.step == MOVEMENT:
        for c in mine:
            if c.active and c.id not in state.phase.stopped:
                if c.mounted and horses.dismount_problem(state, c) is None:
                    out.extend(Dismount(c.id, h.label) for h in horses.dismount_hexes(state, c))
                elif not c.mounted and c.horse_type:
                    out.extend(Mount(c.id, x.id) for x in horses.mountable(state, c)
                               if horses.mount_problem(state, c, x) is None)
            out.extend(Lead(c.id, x.id) for x in led.lead_options(state, c))  # §4.4.4
            out.extend(moves(state, c))
        out += bodies.carry_options(state) + bodies.clear_options(state)  # §4.2.4, §4.2.3
        if state.riders.horses or state.camels.kneeling:
            out += kneeling.options(state)  # §4.6.4 kneeling camels, litters
        out += carts.drive_options(state) + carts.harness_options(state)  # §4.5.1, §4.5.4
    elif state.step == charges.ANNOUNCEMENTS:  # an edition's announcements step (MC §7.6.1)
        out += charges.announce_options(state)
    if state.step in (OFFENSIVE_FIRE, MOVEMENT):  # fire frequency declarations (§5.1)
        for c in mine:
            out.extend(Declare(c.id, f) for f in defensive_fire.declare_choices(state, c))
    if state.step == MOVEMENT and state.defensive_fire.defensive_ready:  # §5.3 N.B.: declared not moving
        out.extend(Stand(c.id) for c in mine if defensive_fire.stand_problem(state, c) is None)
    elif state.step == MELEE:
        for aset, dset in attack_options(state, side):
            out.append(Attack(aset, dset))
        out.extend(AttackHorse(aset, hid) for aset, hid in lone_horse.attack_options(state, side))  # §6.8
    out.append(EndStep())
    return out


def moves_of(state: GameState, char_id: str) -> list[Move]:
    """The legal moves of one character now: exactly the ``Move`` actions of
    :func:`legal_actions` whose ``char`` is ``char_id`` (empty outside his side's movement step,
    while a prompt waits, or when he may not move)."""
    c = state.characters.get(char_id)
    if (state.over or state.pending or state.step != MOVEMENT or c is None or c.side != state.active
            or c.hex is None):
        return []
    return _moves(state, c)


def _moves(state: GameState, c: Character) -> list[Move]:
    if c.id in state.camels.kneeling:  # §4.6.4 a kneeling camel does not move
        return []
    if state.charges.announced:  # an announced charger's only move is his path (MC §7.6.2)
        route = charges.route_of(state, c)
        if route is not None:
            ok = route and check_path(state, c, tuple(Hex.from_label(x) for x in route))[0] is not None
            return [Move(c.id, route)] if ok else []
    found, labels = move_table(state, c)
    # a rider: one move per (front hex, facing) reached (§4.4.1); on foot, one per hex
    return [Move(c.id, labels[k]) for k in sorted(found)]


def _moves_in_view(state: GameState, c: Character) -> list:
    """:func:`_moves` for :func:`view_actions`: the moves as one :class:`MoveSummary` (a
    rider's without their paths: the search without them)."""
    if c.id in state.camels.kneeling:  # §4.6.4 a kneeling camel does not move
        return []
    if state.charges.announced and charges.route_of(state, c) is not None:  # MC §7.6.2
        mv = _moves(state, c)
        if not mv:
            return []
        path = tuple(Hex.from_label(x) for x in mv[0].path)
        last = riding.path_steps(state, c, path, riding.extra_costs(state))[-1]
        return [MoveSummary(c.id, {(last.front, last.facing): check_path(state, c, path)[0]}, None)]
    if c.mounted:  # the keys and costs of move_table's search
        costs = riding.reach_costs(state, c, points_left(state, c))
        return [MoveSummary(c.id, costs, None)] if costs else []  # keys sorted, as in _moves
    found, labels = move_table(state, c)
    return [MoveSummary(c.id, {k: found[k][0] for k in sorted(found)}, labels)] if found else []


@per_position
def move_table(state: GameState, c: Character) -> tuple[dict, dict]:
    """The search behind ``c``'s moves now: ``(found, labels)``, where ``found`` is the
    search's answer (``riding.reachable`` of a rider with the points he has left, keyed by
    (front hex, facing); ``movement.reachable`` on foot, keyed by hex) and ``labels`` its
    paths as hex labels, by the same keys (read-only: shared inside ``memo.read_only``)."""
    found = riding.reachable(state, c, points_left(state, c)) if c.mounted else reachable(state, c)
    label = hex_labels(state.gmap).__getitem__
    return found, {k: tuple(map(label, path)) for k, (_, path) in found.items()}


class _Labels(dict):
    """Hex -> its label, for the hexes of one map (any other hex: computed)."""
    def __missing__(self, h: Hex) -> str:
        return h.label


def hex_labels(gmap) -> dict:
    """Hex -> its label, one table per map (kept in ``GameMap.memo``)."""
    return gmap.memo("hex_labels", lambda: _Labels((h, h.label) for h in gmap.hexes))


def _pending_options(state: GameState, p: Pending) -> list[Action]:
    if p.kind == "retreat":
        return [Retreat(p.chars[0], tuple(path)) for path in p.data["paths"]]
    if p.kind == "casualty":
        return [Casualty(c) for c in p.chars]
    if p.kind == "advance":
        opts: list[Action] = [Advance(c, tuple(path)) for c, paths in sorted(p.data["paths"].items()) for path in paths]
        return opts + [Decline()]
    if p.kind == "place":
        return [Place(p.chars[0], h) for h in p.data["hexes"]]
    if p.kind == "set_down":
        return bodies.set_down_options(p, state)
    if p.kind == "quarter":
        return ransom.pending_options(state, p)
    if p.kind == "defensive_fire":
        return defensive_fire.options(state, p)
    if p.kind == "grab":  # §4.4.4: a rider passing by a riderless horse
        return bridle.options(state, p)
    if p.kind == "counter_charge":  # MC §7.6.2: the answer to a charge just announced
        return charges.counter_options(state, p)
    raise AssertionError(p.kind)


# =============================================================================================
# explain (preview before committing)
# =============================================================================================
def explain(state: GameState, action: Action) -> Ruling:
    """The ruling of ``action`` before it is committed (its handler's preview). An action
    without a preview of its own (a prompt's answer: retreat, casualty, advance...), and any
    action while a prompt waits, is first checked as :func:`apply` would check it, so the
    preview never calls legal what ``apply`` refuses."""
    h = handlers.HANDLERS.get(action.type)
    if state.over or state.pending or h is None or h.explain is None:
        try:
            _check(state, action)
        except IllegalAction as exc:
            return Ruling(kind=action.type).refuse(exc.reason, exc.ref)
    return handlers.explain_with(state, action)


def _explain_fire(state: GameState, action: Fire) -> Ruling:
    ch = state.characters
    if action.shooter not in ch or action.target not in ch:
        return Ruling(kind="fire").refuse("unknown character")
    return fire_ruling(state, ch[action.shooter], ch[action.target])


def _explain_attack(state: GameState, action: Attack) -> Ruling:
    ch = state.characters
    try:
        atts, defs = [ch[a] for a in action.attackers], [ch[d] for d in action.defenders]
        r = melee_ruling(state, atts, defs)
        if r.legal and ransom.enabled(state):
            q = ransom.quarter_ruling(state, atts, defs)
            if q.legal:
                r.steps.extend(q.steps)
        return r
    except KeyError as exc:
        return Ruling(kind="melee").refuse(f"unknown character {exc.args[0]}")


def _explain_move(state: GameState, action: Move) -> Ruling:
    ch = state.characters
    r = Ruling(kind="move")
    c = ch.get(action.char)
    if c is None:
        return r.refuse(f"unknown character {action.char!r}")
    try:
        path = tuple(Hex.from_label(x) for x in action.path)
    except ValueError as exc:
        return r.refuse(str(exc))
    if c.side != state.active or state.step != MOVEMENT:
        return r.refuse(f"{c.name} moves only in the movement step of side {c.side}", "MC §2.1 (2)")
    cost, why, ref = check_path(state, c, path)
    if cost is None:
        return r.refuse(why, ref)
    r.data["cost"] = cost
    r.data["path"] = list(action.path)
    _explain_path(state, c, path, r)
    bridle.explain_move(state, c, path, r)  # §4.4.4: horses he may grab on the way
    r.say("move.summary", {"name": c.name, "start": c.hex.label, "end": path[-1].label, "cost": cost,
                           "left": points_left(state, c)}, "MC §4, §3.1")
    return r


#: A rider's turns (engine/riding.py) as message ids, in the steps of a move's preview.
TURN_IDS = {riding.SIDE: "turn.central_side", riding.SWING_SIDE: "turn.rear_side", riding.SWING_BEHIND: "turn.behind"}


def _infiltration_word(result: str) -> dict | str:
    """A result of the infiltration table (resolve/infiltration.py) as a nested message."""
    return nested(f"infiltration.odds.{result}") if result in ("none", "stop", "wounded", "killed") else result


def _explain_path(state: GameState, c: Character, path: tuple[Hex, ...], r: Ruling) -> None:
    """The steps of a move's preview: each hex, its cost, the turns of a rider (§4.4.1), and
    the infiltration tests it would meet with their odds (§4.3)."""
    rs = state.rules
    costs = step_costs(state, c, path)
    steps = riding.path_steps(state, c, path, riding.extra_costs(state)) if c.mounted else [None] * len(path)
    probe = c if not c.mounted else None
    cur = c.hex
    for i, (h, sc, s) in enumerate(zip(path, costs, steps)):
        t = rs.terrain[state.gmap.terrain(h)]
        if s is not None and s.kind == riding.VOLTE:
            r.say("move.step_volte", {"hex": h.label, "pm": sc}, "MC §4.4.1")
        elif s is not None and s.kind == riding.JUMP:
            p = jump_test(rs, c.armour, c.status == "wounded", len(s.over) == 2)
            odds = ", ".join(f"{k} {float(v):.0%}" for k, v in p.probabilities.items())
            what = f"over {', '.join(x.label for x in s.over)}" if s.over else "over the low wall"
            r.step(f"{h.label}: jump {what}, {sc} PM; jump test ({odds})", "MC §4.4.3")
        else:
            frm = s.crossed_from if s is not None else cur
            side = state.gmap.hexside(frm, h)
            # "0302: prairie[ across the haie], 2 PM[ (turning: rear side, +1)]"
            said = {"hex": h.label, "terrain": t.names[0].lower(), "pm": sc}
            mid = "move.step"
            if side:
                mid, said["hexside"] = mid + "_across", rs.hexsides[side].names[0].lower()
            turning = s is not None and s.extra
            if turning:
                mid += "_turning"
                said.update(turn=nested(TURN_IDS[s.kind]) if s.kind in TURN_IDS else s.kind, extra=s.extra)
            r.say(mid, said, "MC §4.4.1" if turning else t.ref)
        if i < len(path) - 1:
            if s is not None:
                probe = _at(c, s.front, s.facing)
                foes = position_opposers(state, probe, probe.hexes)
            else:
                foes = opposers(state, c, h)
            for e in foes:
                p = infiltration_test(rs, Infiltrator(c.mounted, c.armour, c.status == "wounded"),
                                      Opposer(e.mounted, e.polearm, e.status == "wounded"))
                odds = [nested("odds.infiltration", infiltration=_infiltration_word(k), pct=f"{float(v):.0%}"[:-1])
                        for k, v in p.probabilities.items()]
                r.say("move.infiltration_odds", {"hex": h.label, "name": e.name, "odds": odds}, "MC §4.3, §4.3.1")
        cur = h


def _at(c: Character, front: Hex, facing: int) -> Character:
    import copy
    probe = copy.copy(c)
    probe.hex, probe.facing = front, facing
    return probe


# =============================================================================================
# apply
# =============================================================================================
def apply(state: GameState, action: Action) -> list[dict]:
    """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
    if not isinstance(action, Action):
        action = Action.from_json(action)
    _check(state, action)
    first = len(state.log)
    _do(state, action)
    settle(state)
    return state.log[first:]


def apply_unchecked(state: GameState, action: Action) -> list[dict]:
    """Fast path for searches: the caller vouches that ``action`` came from legal_actions."""
    first = len(state.log)
    _do(state, action)
    settle(state)
    return state.log[first:]


def _char(state: GameState, cid: str) -> Character:
    c = state.characters.get(cid)
    if c is None:
        raise IllegalAction(f"unknown character {cid!r}")
    return c


def _labels(path) -> tuple[Hex, ...]:
    try:
        return tuple(Hex.from_label(x) for x in path)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


def _check(state: GameState, a: Action) -> None:
    if state.over:
        raise IllegalAction("the game is over", "")
    if state.pending:
        p = state.pending[0]
        if a not in _pending_options(state, p):
            what = {"retreat": "a retreat of", "casualty": "the choice of the casualty among",
                    "advance": "an advance after combat (or decline) by",
                    "place": "the hex where the unhorsed rider lands:",
                    "set_down": "the hex where a stunned friend is set down by",
                    "quarter": "the answer to the offer of quarter (MC §6.9) of",
                    "defensive_fire": "defensive fire (designate, volley or decline) at",
                    "grab": "the grab in passing (grab or ride on) of",
                    "counter_charge": "the answer (counter-charge or decline) to the charge of"}[p.kind]
            raise IllegalAction(f"the game waits for {what} {', '.join(state.characters[c].name for c in p.chars)} "
                                f"(side {p.side}); {a.type} is not one of the options", p.data.get("ref", ""))
        return
    h = handlers.HANDLERS.get(a.type)
    if h is None:
        raise IllegalAction(f"unsupported action {a.type!r}")
    h.check(state, a)


def _do(state: GameState, a: Action) -> None:
    if state.pending:
        p = state.pending.pop(0)
        _answer(state, p, a)
        return
    h = handlers.HANDLERS.get(a.type)
    if h is not None and h.do is not None:
        h.do(state, a)


def settle(state: GameState) -> None:
    """After an action: resolve forced prompts, check victory, pass empty steps."""
    for _ in range(1000):
        fill_retreat_paths(state)  # may wound (and kill) a character who cannot retreat
        for c in sorted(state.characters.values(), key=lambda c: c.id):
            if c.mounted and not c.alive:  # a rider killed in the saddle falls beside his horse
                horses.unhorse(state, c, False, "MC §6.8")
        led.settle(state)  # §4.4.4: led horses follow, bridles let go, control lost
        fill_advance_paths(state)
        sudden_death_check(state)
        if state.over:
            return
        _kill_surrounded_stunned(state)
        if state.pending:
            p = state.pending[0]
            opts = _pending_options(state, p)
            if p.kind in ("retreat", "casualty", "place") and len(opts) == 1:
                state.pending.pop(0)
                _answer(state, p, opts[0])
                continue
            if p.kind == "advance" and len(opts) == 1:  # only "decline"
                state.pending.pop(0)
                continue
            return
        if not _step_has_actions(state):
            emit(state, "step_skipped", msg="step.skipped", params={"step": turn.step_word(state, state.step), "side": state.active})
            turn.next_step(state)
            continue
        return
    raise AssertionError("the game does not settle")


def _step_has_actions(state: GameState) -> bool:
    """Whether the active side can do anything but end the step (cheap early exits)."""
    mine = sorted((c for c in state.characters.values() if c.side == state.active and c.hex is not None),
                  key=lambda c: c.id)
    # each test is the truth value of fire_targets / points_left > 0 and reachable /
    # attack_options, stopping at the first action found
    if state.step == OFFENSIVE_FIRE:
        return any(has_fire_target(state, c) or (state.riders.horses and lone_horse.fire_targets(state, c)) for c in mine)
    if state.step == charges.ANNOUNCEMENTS:
        return bool(charges.announce_options(state))
    if state.step == MOVEMENT:
        return (any(can_move(state, c) for c in mine) or bool(bodies.clear_options(state))
                or bool(bodies.carry_options(state)) or any(defensive_fire.declare_choices(state, c) for c in mine)
                or any(state.riders.horses and led.lead_options(state, c) for c in mine)
                or bool((state.riders.horses or state.camels.kneeling) and kneeling.options(state))
                or bool(state.carts.carts and (carts.harness_options(state) or carts.drive_options(state))))
    return has_attack_option(state, state.active) or bool(state.riders.horses and lone_horse.attack_options(state, state.active))


def _kill_surrounded_stunned(state: GameState) -> None:
    """§6.2: a stunned character whose every neighbouring hex holds an enemy is dead."""
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.status != "stunned" or c.hex is None:
            continue
        ns = c.hex.neighbours()
        if all(any(o.side != c.side for o in state.live_at(n)) for n in ns):
            c.kill()
            emit(state, "status", msg="status.surrounded_killed", params={"name": c.name}, char=c.id, ref="MC §6.2")


# --- fire ---------------------------------------------------------------------------------
def _fire(state: GameState, shooter: Character, target: Character) -> None:
    # the preview's reading of each face (an enumeration of the outcomes asks for it; play does not)
    die = roll_keyed(state.dice, 10, lambda: fire_ruling(state, shooter, target).faces)
    r = fire_ruling(state, shooter, target, die)
    state.phase.fired.add(shooter.id)
    shooter.shots += 1
    defensive_fire.record_offensive(state, shooter)  # fire frequency and movement limit (§5.1)
    emit(state, "fire", ruling=r, msg="fire.result", params={"shooter": shooter.name, "target": target.name, "result": r.result},
         shooter=shooter.id, target=target.id, result=r.result)
    res = state.rules.fire_results[(r.data["table"], r.result)]
    apply_status(state, target, res)
    if res.unhorse and target.mounted:
        horses.unhorse(state, target, res.horse_killed, res.ref)
    if res.retreat and target.alive and target.hex is not None:  # not a passenger in his litter (§4.6.8)
        order_retreat(state, target, res.retreat, away_from=shooter.hex, combatants=(), ref=res.ref)
    if res.miss and res.stray_shot:
        stray(state, shooter, kneeling.as_target(state, target))





















def _answer(state: GameState, p: Pending, a: Action) -> None:
    if p.kind == "place":
        horses.place(state, state.characters[a.char], Hex.from_label(a.hex))
        return
    if p.kind == "defensive_fire":
        defensive_fire.answer(state, p, a)
    elif p.kind == "set_down":
        bodies.answer_set_down(state, p, a)
    elif p.kind == "casualty":
        hit(state, state.characters[a.char], p.data["ctx"])
    elif p.kind == "retreat":
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        for f in [o for o in state.live_at(path[-1]) if o.id != c.id]:  # a friend makes room (§6.5 (§))
            to = make_room(state, f, path[-1], c)
            if to is not None:
                step_aside(state, f, to, c)
        final, interrupted, _ = walk(state, c, path, why="retreat")
        if not c.alive:
            pass  # killed on the way: the status event says so
        elif interrupted and final != path[-1]:
            # stopped short of the full distance (§4.3.1 "arrêt"): a character who cannot
            # retreat the whole distance is wounded (§5.4.3 (§), §6.5 (§))
            emit(state, "retreat", msg="retreat.cut_short", params={"name": c.name, "hex": final.label}, char=c.id, ref="MC §4.3")
            emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.wound())}, char=c.id,
                 ref="MC §5.4.3 (§), §6.5 (§)")
        else:
            emit(state, "retreat", msg="retreat.path", params={"name": c.name, "start": start.label,
                                                         "path": ' → '.join(x.label for x in path)},
                 char=c.id, path=list(a.path), ref=p.data.get("ref", ""))
    elif p.kind == "quarter":
        ransom.answer(state, p, a)
    elif p.kind == "grab":
        bridle.answer(state, p, a)
    elif p.kind == "counter_charge":
        charges.answer(state, p, a)
    elif p.kind == "advance":
        if isinstance(a, Decline):
            emit(state, "advance", msg="advance.none", ref="MC §6.6")
            return
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        losers = p.data.get("engaged_losers", [])
        exclude = set(losers) | set(state.phase.engaged)
        final, interrupted, done = walk(state, c, path, exclude=exclude, why="advance after combat")
        emit(state, "advance", msg="advance.path", params={"name": c.name, "start": start.label,
             "path": ' → '.join(x.label for x in path[:done]) if done else start.label},
             char=c.id, ref="MC §6.6")




# =============================================================================================
# the action handlers (check, effect, preview), registered by type name (engine/handlers.py)
# =============================================================================================
def _check_fire(state: GameState, a: Fire) -> None:
    shooter, target = _char(state, a.shooter), _char(state, a.target)
    if shooter.side != state.active:
        raise IllegalAction(f"{shooter.name} belongs to side {shooter.side}; it is side {state.active}'s phase", "MC §2.1")
    r = fire_ruling(state, shooter, target)
    if not r.legal:
        raise IllegalAction(r.reason or "illegal fire")


def _check_move(state: GameState, a: Move) -> None:
    if state.step != MOVEMENT:
        raise IllegalAction("characters move in the movement step", "MC §2.1 (2)")
    c = _char(state, a.char)
    if c.side != state.active:
        raise IllegalAction(f"{c.name} belongs to side {c.side}; it is side {state.active}'s phase", "MC §2.1")
    if not c.active:
        if c.ransom == "prisoner":
            why = ransom.escape_problem(state, c)
            if why:
                raise IllegalAction(*why)
        else:
            raise IllegalAction(f"{c.name} is {c.status} and cannot move", "MC §1.2")
    if c.id in state.phase.stopped:
        raise IllegalAction(f"{c.name} was stopped and cannot move again this phase", "MC §4.3.1")
    if c.id in state.carts.harnessing:
        raise IllegalAction(f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", "MC §4.5.1")
    if c.id in state.phase.clearing:
        raise IllegalAction(f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
    if state.charges.announced:
        handlers.refuse_if(charges.move_problem(state, c, a.path))  # MC §7.6.2
    cost, why, ref = check_path(state, c, _labels(a.path))
    if cost is None:
        raise IllegalAction(why, ref)


def _check_attack(state: GameState, a: Attack) -> None:
    if state.step != MELEE:
        raise IllegalAction("attacks are made in the combat step", "MC §2.1 (3)")
    atts = [_char(state, x) for x in a.attackers]
    defs = [_char(state, x) for x in a.defenders]
    if not atts or not defs:
        raise IllegalAction("an attack needs attackers and defenders", "MC §6")
    if any(x.side != state.active for x in atts):
        raise IllegalAction(f"attackers must belong to side {state.active}", "MC §6")
    r = melee_ruling(state, atts, defs)
    if not r.legal:
        raise IllegalAction(r.reason or "illegal attack")
    # membership in attack_options(state, state.active), the ruling being legal
    if not is_attack_option(state, state.active, a.attackers, a.defenders, ruling_checked=True):
        raise IllegalAction("attackers and defenders must form one group in contact (list them in id order)", "MC §6.2")


def _do_end_step(state: GameState, a: EndStep) -> None:
    emit(state, "end_step", msg="step.end", params={"side": state.active, "step": turn.step_word(state, state.step)})
    turn.next_step(state)


def _do_move(state: GameState, a: Move) -> None:
    before = state.phase.mp_spent.get(a.char, 0)
    if state.charges.announced:
        charges.before_move(state, state.characters[a.char])  # MC §7.6.2: the counter-charger rides
    move(state, state.characters[a.char], _labels(a.path))
    if state.riders.horses:
        kneeling.after_move(state, state.characters[a.char], before)  # §4.6.2 led camels


def _do_attack(state: GameState, a: Attack) -> None:
    atts, defs = [state.characters[x] for x in a.attackers], [state.characters[x] for x in a.defenders]
    if not ransom.on_attack(state, atts, defs):  # §6.9: the knight may ask for quarter first
        melee_roll(state, atts, defs)


def _register() -> None:
    reg, ch = handlers.register, lambda state, cid: state.characters[cid]
    reg("end_step", check=lambda state, a: None, do=_do_end_step)
    # §2.1 (1), §5: offensive fire
    reg("fire", check=_check_fire, do=lambda state, a: _fire(state, ch(state, a.shooter), ch(state, a.target)),
        explain=_explain_fire)
    # §4: movement
    reg("move", check=_check_move, do=_do_move, explain=_explain_move)
    # §6: melee
    reg("attack", check=_check_attack, do=_do_attack, explain=_explain_attack)
    # answers to the prompts of this module (retreat, casualty, advance after combat): only
    # while the prompt waits (see _check, _answer); the features register their own prompts'
    reg("retreat", "advance", "decline", "casualty", check=handlers.no_prompt)


_register()
