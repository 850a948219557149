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

from ....geometry.hexgrid import DIRECTION_NAMES, Hex
from ..resolve.ruling import Ruling
from . import bodies, bridle, carts, defensive_fire, horses, kneeling, led, lone_horse, ransom, turn
from .actions import (Action, Advance, AskQuarter, Attack, AttackHorse, Carry, Casualty, ClearBodies, Declare, Decline,
                      Designate, Dismount, DriveCart, EndStep, EnterLitter, FightOn, Fire, FireAtHorse, Grab, Harness,
                      Kneel, Lead, LeaveLitter, Mount, Move, Place, Retreat, Rise, SetDown, Stand, Unharness, Volley)
from .character import Character
from .errors import IllegalAction
from .events import emit
from .fire import fire_ruling, fire_targets
from .melee import attack_options, melee_ruling
from ..resolve.infiltration import Infiltrator, Opposer, infiltration_test
from .movement import check_path, opposers, points_left, reachable, step_cost
from .paths import advance_paths, retreat_paths, walk
from .state import MELEE, MOVEMENT, OFFENSIVE_FIRE, GameState, Pending
from .victory import sudden_death_check


# =============================================================================================
# legal actions
# =============================================================================================
def to_act(state: GameState) -> str | None:
    return state.to_act()


def legal_actions(state: GameState) -> list[Action]:
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
            if c.active and c.id not in state.stopped:
                if c.mounted and horses.dismount_problem(state, c) is None:
                    out.extend(Dismount(c.id, h.label) for h in horses.dismount_hexes(state, c))
                elif not c.mounted and c.horse_type:
                    out.extend(Mount(c.id, x.id) for x in horses.mountable(state, c)
                               if horses.mount_problem(state, c, x) is None)
            out.extend(Lead(c.id, x.id) for x in led.lead_options(state, c))  # §4.4.4
            out.extend(_moves(state, c))
        out += bodies.carry_options(state) + bodies.clear_options(state)  # §4.2.4, §4.2.3
        if state.horses or state.kneeling:
            out += kneeling.options(state)  # §4.6.4 kneeling camels, litters
        out += carts.drive_options(state) + carts.harness_options(state)  # §4.5.1, §4.5.4
    if state.step in (OFFENSIVE_FIRE, MOVEMENT):  # fire frequency declarations (§5.1)
        for c in mine:
            out.extend(Declare(c.id, f) for f in defensive_fire.declare_choices(state, c))
    if state.step == MOVEMENT and state.defensive_ready:  # §5.3 N.B.: declared not moving
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
    if c.id in state.kneeling:  # §4.6.4 a kneeling camel does not move
        return []
    if c.mounted:  # one move per (front hex, facing) reached (§4.4.1)
        from .movement import points_left as _left
        from . import riding
        return [Move(c.id, tuple(x.label for x in path))
                for _, (_, path) in sorted(riding.reachable(state, c, _left(state, c)).items())]
    return [Move(c.id, tuple(x.label for x in path)) for h, (_, path) in sorted(reachable(state, c).items())]


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
    raise AssertionError(p.kind)


# =============================================================================================
# explain (preview before committing)
# =============================================================================================
def explain(state: GameState, action: Action) -> Ruling:
    ch = state.characters
    r = defensive_fire.explain(state, action)
    if r is not None:
        return r
    if isinstance(action, Declare):
        r = Ruling(kind="declare")
        if action.char not in ch:
            return r.refuse(f"unknown character {action.char!r}")
        prob = defensive_fire.declare_problem(state, ch[action.char], action.fire)
        if prob:
            return r.refuse(*prob)
        c = ch[action.char]
        move = next(x.movement for x in state.rules.weapons[c.weapon].choices if x.fire == action.fire)
        r.step(f"{c.name} declares {action.fire.replace('_', ' ')} fire", "MC §5.1, §5.3")
        return r.step(f"{move} movement this phase, and no attack", "MC §5.1, §5.2")
    if isinstance(action, Fire):
        if action.shooter not in ch or action.target not in ch:
            return Ruling(kind="fire").refuse("unknown character")
        return fire_ruling(state, ch[action.shooter], ch[action.target])
    if isinstance(action, Attack):
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
    if isinstance(action, ClearBodies):
        return bodies.clear_ruling(state, action)
    if isinstance(action, Grab):
        return bridle.explain(state, action)
    if isinstance(action, DriveCart):  # §4.5.1, §4.5.4
        return carts.check_drive(state, action)
    if isinstance(action, (Harness, Unharness)):
        return carts.harness_ruling(state, action)
    if isinstance(action, (Lead, FireAtHorse, AttackHorse)):
        return _horse_ruling(state, action)
    if isinstance(action, Carry):
        return bodies.carry_ruling(state, action)
    if isinstance(action, (Kneel, Rise, EnterLitter, LeaveLitter)):
        return kneeling.ruling(state, action)
    if isinstance(action, Move):
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
        r.step(f"{c.name} moves {c.hex.label} → {path[-1].label}: {cost} PM of {points_left(state, c)}", "MC §4, §3.1")
        return r
    if isinstance(action, AskQuarter) and state.pending and state.pending[0].kind == "quarter":
        p = state.pending[0]
        return ransom.quarter_ruling(state, [ch[x] for x in p.data["attackers"]], [ch[x] for x in p.data["defenders"]])
    return Ruling(kind=action.type)


def _horse_ruling(state: GameState, a: Action) -> Ruling:
    """Previews of leading a horse (§4.4.4) and of fire and attacks at a lone horse (§6.8)."""
    ch = state.characters
    ids = (a.attackers if isinstance(a, AttackHorse) else (a.shooter if isinstance(a, FireAtHorse) else a.char,))
    kind = {"lead": "lead", "fire_at_horse": "fire", "attack_horse": "melee"}[a.type]
    unknown = [x for x in ids if x not in ch]
    if unknown:
        return Ruling(kind=kind).refuse(f"unknown character {unknown[0]!r}")
    horse = state.horses.get(a.horse)
    if isinstance(a, Lead):
        return led.lead_ruling(state, ch[a.char], horse)
    if isinstance(a, FireAtHorse):
        return lone_horse.fire_ruling_at(state, ch[a.shooter], horse)
    prob = lone_horse.attack_problem(state, a.attackers, horse)
    return Ruling(kind=kind).refuse(*prob) if prob else lone_horse.attack_ruling(state, [ch[x] for x in ids], horse)


def _explain_path(state: GameState, c: Character, path: tuple[Hex, ...], r: Ruling) -> None:
    """The steps of a move's preview: each hex, its cost, the turns of a rider (§4.4.1), and
    the infiltration tests it would meet with their odds (§4.3)."""
    from .movement import position_opposers
    from . import riding
    rs = state.rules
    costs = _step_costs(state, c, path)
    steps = riding.path_steps(state, c, path, riding.extra_costs(state)) if c.mounted else [None] * len(path)
    probe = c if not c.mounted else None
    cur = c.hex
    for i, (h, sc, s) in enumerate(zip(path, costs, steps)):
        t = rs.terrain[state.gmap.terrain(h)]
        if s is not None and s.kind == riding.VOLTE:
            r.step(f"{h.label}: half-turn on the spot, {sc} PM", "MC §4.4.1")
        elif s is not None and s.kind == riding.JUMP:
            from ..resolve.jump import jump_test
            p = jump_test(rs, c.armour, c.status == "wounded", len(s.over) == 2)
            odds = ", ".join(f"{k} {float(v):.0%}" for k, v in p.probabilities.items())
            what = f"over {', '.join(x.label for x in s.over)}" if s.over else "over the low wall"
            r.step(f"{h.label}: jump {what}, {sc} PM; jump test ({odds})", "MC §4.4.3")
        else:
            frm = s.crossed_from if s is not None else cur
            side = state.gmap.hexside(frm, h)
            extra = f" across the {rs.hexsides[side].names[0].lower()}" if side else ""
            turn_txt = f" (turning: {s.kind}, +{s.extra})" if s is not None and s.extra else ""
            r.step(f"{h.label}: {t.names[0].lower()}{extra}, {sc} PM{turn_txt}",
                   "MC §4.4.1" if turn_txt else t.ref)
        if i < len(path) - 1:
            if s is not None:
                probe = _at(c, s.front, s.facing)
                foes = position_opposers(state, probe, probe.hexes)
            else:
                foes = opposers(state, c, h)
            for e in foes:
                p = infiltration_test(rs, Infiltrator(c.mounted, c.armour, c.status == "wounded"),
                                      Opposer(e.mounted, e.polearm, e.status == "wounded"))
                odds = ", ".join(f"{k} {float(v):.0%}" for k, v in p.probabilities.items())
                r.step(f"crossing {h.label} next to {e.name}: infiltration test ({odds})", "MC §4.3, §4.3.1")
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
    _settle(state)
    return state.log[first:]


def apply_unchecked(state: GameState, action: Action) -> list[dict]:
    """Fast path for searches: the caller vouches that ``action`` came from legal_actions."""
    first = len(state.log)
    _do(state, action)
    _settle(state)
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
                    "grab": "the grab in passing (grab or ride on) of"}[p.kind]
            raise IllegalAction(f"the game waits for {what} {', '.join(state.characters[c].name for c in p.chars)} "
                                f"(side {p.side}); {a.type} is not one of the options", p.data.get("ref", ""))
        return
    if isinstance(a, (Mount, Dismount)):
        if state.step != MOVEMENT:
            raise IllegalAction("mounting and dismounting are movement", "MC §2.1 (2), §4.4.2")
        c = _char(state, a.char)
        if c.side != state.active:
            raise IllegalAction(f"{c.name} belongs to side {c.side}; it is side {state.active}'s phase", "MC §2.1")
        if not c.active or c.id in state.stopped:
            raise IllegalAction(f"{c.name} cannot move now", "MC §1.2, §4.3.1")
        if isinstance(a, Mount):
            prob = horses.mount_problem(state, c, state.horses.get(a.horse))
        else:
            prob = horses.dismount_problem(state, c)
            if prob is None and a.hex not in [h.label for h in horses.dismount_hexes(state, c)]:
                prob = (f"{a.hex} is not a free hex next to {c.name}'s horse", "MC §4.4.2")
        if prob:
            raise IllegalAction(*prob)
        return
    if isinstance(a, (Retreat, Advance, Decline, Casualty, Place, SetDown, AskQuarter, FightOn, Designate, Volley, Grab)):
        raise IllegalAction(f"there is no pending {a.type} to answer", "")
    if isinstance(a, (Kneel, Rise, EnterLitter, LeaveLitter)):  # §4.6.4
        prob = kneeling.problem(state, a)
        if prob:
            raise IllegalAction(*prob)
        return
    if isinstance(a, (DriveCart, Harness, Unharness)):  # §4.5.1, §4.5.4
        r = carts.check_drive(state, a) if isinstance(a, DriveCart) else carts.harness_ruling(state, a)
        if not r.legal:
            raise IllegalAction(r.steps[-1].text, r.steps[-1].ref)
        return
    if isinstance(a, (Lead, FireAtHorse, AttackHorse)):  # §4.4.4, §6.8
        r = _horse_ruling(state, a)
        if not r.legal:
            raise IllegalAction(r.steps[-1].text, r.steps[-1].ref)
        return
    if isinstance(a, EndStep):
        return
    if isinstance(a, Declare):
        prob = defensive_fire.declare_problem(state, _char(state, a.char), a.fire)
        if prob:
            raise IllegalAction(*prob)
        return
    if isinstance(a, Stand):
        prob = defensive_fire.stand_problem(state, _char(state, a.char))
        if prob:
            raise IllegalAction(*prob)
        return
    if isinstance(a, Fire):
        shooter, target = _char(state, a.shooter), _char(state, a.target)
        if shooter.side != state.active:
            raise IllegalAction(f"{shooter.name} belongs to side {shooter.side}; it is side {state.active}'s phase", "MC §2.1")
        r = fire_ruling(state, shooter, target)
        if not r.legal:
            raise IllegalAction(r.reason or "illegal fire")
        return
    if isinstance(a, Move):
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
        if c.id in state.stopped:
            raise IllegalAction(f"{c.name} was stopped and cannot move again this phase", "MC §4.3.1")
        if c.id in state.harnessing:
            raise IllegalAction(f"{c.name} harnessed or unharnessed a cart's animal this phase and does nothing else", "MC §4.5.1")
        if c.id in state.clearing:
            raise IllegalAction(f"{c.name} cleared a hex this phase and does nothing else", "MC §4.2.3")
        cost, why, ref = check_path(state, c, _labels(a.path))
        if cost is None:
            raise IllegalAction(why, ref)
        return
    if isinstance(a, Attack):
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
        from .melee import is_attack_option
        if not is_attack_option(state, state.active, a.attackers, a.defenders, ruling_checked=True):
            raise IllegalAction("attackers and defenders must form one group in contact (list them in id order)", "MC §6.2")
        return
    if isinstance(a, ClearBodies):
        p = bodies.clear_problem(state, a)
        if p:
            raise IllegalAction(*p)
        return
    if isinstance(a, Carry):
        r = bodies.carry_ruling(state, a)
        if not r.legal:
            raise IllegalAction(r.steps[-1].text, r.steps[-1].ref)
        return
    raise IllegalAction(f"unsupported action {a.type!r}")


def _do(state: GameState, a: Action) -> None:
    if state.pending:
        p = state.pending.pop(0)
        _answer(state, p, a)
        return
    if isinstance(a, EndStep):
        emit(state, "end_step", f"Side {state.active} ends the {state.step.replace('_', ' ')} step")
        turn.next_step(state)
    elif isinstance(a, Declare):
        defensive_fire.declare(state, state.characters[a.char], a.fire)
    elif isinstance(a, Stand):
        defensive_fire.stand(state, state.characters[a.char])
    elif isinstance(a, Fire):
        _fire(state, state.characters[a.shooter], state.characters[a.target])
    elif isinstance(a, Move):
        before = state.mp_spent.get(a.char, 0)
        _move(state, state.characters[a.char], _labels(a.path))
        if state.horses:
            kneeling.after_move(state, state.characters[a.char], before)  # §4.6.2 led camels
    elif isinstance(a, Attack):
        atts, defs = [state.characters[x] for x in a.attackers], [state.characters[x] for x in a.defenders]
        if not ransom.on_attack(state, atts, defs):  # §6.9: the knight may ask for quarter first
            _melee_roll(state, atts, defs)
    elif isinstance(a, Mount):
        horses.mount(state, state.characters[a.char], state.horses[a.horse])
    elif isinstance(a, Dismount):
        horses.dismount(state, state.characters[a.char], Hex.from_label(a.hex))
    elif isinstance(a, ClearBodies):
        bodies.do_clear(state, a)
    elif isinstance(a, Lead):
        led.lead(state, state.characters[a.char], state.horses[a.horse])
    elif isinstance(a, FireAtHorse):
        lone_horse.fire_at(state, state.characters[a.shooter], state.horses[a.horse])
    elif isinstance(a, AttackHorse):
        lone_horse.attack(state, [state.characters[x] for x in a.attackers], state.horses[a.horse])
    elif isinstance(a, Carry):
        bodies.do_carry(state, a)
    elif isinstance(a, (Kneel, Rise, EnterLitter, LeaveLitter)):
        kneeling.do(state, a)
    elif isinstance(a, DriveCart):
        carts.drive(state, a)
    elif isinstance(a, Harness):
        carts.harness(state, a)
    elif isinstance(a, Unharness):
        carts.unharness(state, a)


def _settle(state: GameState) -> None:
    """After an action: resolve forced prompts, check victory, pass empty steps."""
    for _ in range(1000):
        _fill_retreat_paths(state)  # may wound (and kill) a character who cannot retreat
        for c in sorted(state.characters.values(), key=lambda c: c.id):
            if c.mounted and not c.alive:  # a rider killed in the saddle falls beside his horse
                horses.unhorse(state, c, False, "MC §6.8")
        led.settle(state)  # §4.4.4: led horses follow, bridles let go, control lost
        _fill_advance_paths(state)
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
            emit(state, "step_skipped", f"nothing to do in the {state.step.replace('_', ' ')} step of side {state.active}")
            turn.next_step(state)
            continue
        return
    raise AssertionError("the game does not settle")


def _step_has_actions(state: GameState) -> bool:
    """Whether the active side can do anything but end the step (cheap early exits)."""
    from .fire import has_fire_target
    from .melee import has_attack_option
    from .movement import can_move
    mine = sorted((c for c in state.characters.values() if c.side == state.active and c.hex is not None),
                  key=lambda c: c.id)
    # each test is the truth value of fire_targets / points_left > 0 and reachable /
    # attack_options, stopping at the first action found
    if state.step == OFFENSIVE_FIRE:
        return any(has_fire_target(state, c) or (state.horses and lone_horse.fire_targets(state, c)) for c in mine)
    if state.step == MOVEMENT:
        return (any(can_move(state, c) for c in mine) or bool(bodies.clear_options(state))
                or bool(bodies.carry_options(state)) or any(defensive_fire.declare_choices(state, c) for c in mine)
                or any(state.horses and led.lead_options(state, c) for c in mine)
                or bool((state.horses or state.kneeling) and kneeling.options(state))
                or bool(state.carts and (carts.harness_options(state) or carts.drive_options(state))))
    return has_attack_option(state, state.active) or bool(state.horses and lone_horse.attack_options(state, state.active))


def _kill_surrounded_stunned(state: GameState) -> None:
    """§6.2: a stunned character whose every neighbouring hex holds an enemy is dead."""
    for c in sorted(state.characters.values(), key=lambda c: c.id):
        if c.status != "stunned" or c.hex is None:
            continue
        ns = c.hex.neighbours()
        if all(any(o.side != c.side for o in state.live_at(n)) for n in ns):
            c.kill()
            emit(state, "status", f"{c.name}, stunned and surrounded by enemies, is killed", char=c.id, ref="MC §6.2")


# --- fire ---------------------------------------------------------------------------------
def _fire(state: GameState, shooter: Character, target: Character) -> None:
    die = state.dice.roll(10)
    r = fire_ruling(state, shooter, target, die)
    state.fired.add(shooter.id)
    shooter.shots += 1
    defensive_fire.record_offensive(state, shooter)  # fire frequency and movement limit (§5.1)
    emit(state, "fire", f"{shooter.name} fires at {target.name}: {r.result}", ruling=r,
         shooter=shooter.id, target=target.id, result=r.result)
    res = state.rules.fire_results[(r.data["table"], r.result)]
    from .fire import apply_status
    apply_status(state, target, res)
    if res.unhorse and target.mounted:
        horses.unhorse(state, target, res.horse_killed, res.ref)
    if res.retreat and target.alive and target.hex is not None:  # not a passenger in his litter (§4.6.8)
        _order_retreat(state, target, res.retreat, away_from=shooter.hex, combatants=(), ref=res.ref)
    if res.miss:
        _stray(state, shooter, kneeling.as_target(state, target))


def _stray(state: GameState, shooter: Character, target: Character) -> None:
    from .stray import stray_shot
    r, victim = stray_shot(state, shooter, target, state.dice.roll(10))
    emit(state, "stray_shot", r.data["text"], ruling=r, shooter=shooter.id)
    if victim is None:
        return
    st = state.rules.stray_shot
    if victim.armour:
        _order_retreat(state, victim, st.armour_retreat, away_from=shooter.hex, combatants=(), ref=st.ref)
    else:
        emit(state, "status", f"{victim.name} is {victim.wound()}", char=victim.id, ref=st.ref)


# --- movement -----------------------------------------------------------------------------
def _move(state: GameState, c: Character, path: tuple[Hex, ...]) -> None:
    ransom.before_move(state, c)  # §6.9: a prisoner who moves tries to escape
    steps = _step_costs(state, c, path)
    # the move in progress, JSON-able: defensive fire (§5.3) may pause it in a prompt
    _walk_move(state, c, {"char": c.id, "origin": c.hex.label, "facing": c.facing, "mounted": c.mounted,
                          "path": [h.label for h in path], "steps": steps,
                          "spent_before": state.mp_spent.get(c.id, 0), "at": None})


def _walk_move(state: GameState, c: Character, mv: dict) -> None:
    """Walk (or resume, ``mv["at"]`` set) the move ``mv``; see :func:`_move`."""
    from .paths import PAUSED
    if mv.get("stand"):  # declared not moving, shot at where he stands (§5.3 N.B.): no walk
        return
    path, steps, spent_before = _labels(mv["path"]), mv["steps"], mv["spent_before"]

    def may_go_on(ch: Character, i: int) -> bool:
        from .movement import allowance
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
        state.mp_spent[c.id] = spent_before + cost
    if interrupted:
        state.stopped.add(c.id)
    shown = [h.label for h in path[:done]]
    facing = f", facing {DIRECTION_NAMES[c.facing]}" if c.mounted and c.alive else ""
    emit(state, "move", f"{c.name} moves {start.label} → {' → '.join(shown) if shown else start.label}"
         f" ({cost} PM){facing}{' and is stopped' if interrupted and c.alive else ''}",
         char=c.id, path=shown, cost=cost, ref="MC §4")
    ransom.after_move(state, c)  # §6.9: his prisoner follows him
    bridle.after_move(state, c, mv)  # §4.4.4: a horse grabbed in passing goes beside him

def _step_costs(state: GameState, c: Character, path: tuple[Hex, ...]) -> list[int]:
    """The cost of each step of a checked path (§3.1, §4.4.1), to re-check the allowance after
    a wound (§4.3.1 "blessé"); one MoveContext for the whole path (the board does not change
    before the walk)."""
    from .movement import MoveContext
    ctx = MoveContext(state, c)
    out = []
    if c.mounted:
        from . import riding
        for s in riding.path_steps(state, c, path, riding.extra_costs(state), ctx):
            entered = ctx.cost(s.crossed_from, s.entered, jump=s.kind == riding.JUMP) if s.entered is not None else 0
            out.append(s.extra + entered)
        return out
    cur = c.hex
    for h in path:
        out.append(step_cost(state, c, cur, h, ctx)[0])
        cur = h
    return out


# --- melee -------------------------------------------------------------------------------
def _melee_roll(state: GameState, atts: list[Character], defs: list[Character]) -> None:
    die = state.dice.roll(10)
    r = melee_ruling(state, atts, defs, die)
    for a in atts:
        state.attacked.add(a.id)
        state.engaged.add(a.id)
    for d in defs:
        state.engaged.add(d.id)
    emit(state, "melee", f"{', '.join(a.name for a in atts)} attack {', '.join(d.name for d in defs)}: "
         f"{r.data['column']}, die {r.die} → {r.result}", ruling=r,
         attackers=[a.id for a in atts], defenders=[d.id for d in defs], result=r.result)
    res = state.rules.melee_results.get((r.data["table"], r.result))
    ctx = {
        "attackers": [a.id for a in atts], "defenders": [d.id for d in defs],
        "defender_hexes": {d.id: d.hex.label for d in defs},
        "attacker_hexes": {a.id: a.hex.label for a in atts},
        "letter": r.result, "ref": res.ref if res else "MC §6",
        "unhorse": bool(res and res.unhorse), "horse_killed": bool(res and res.horse_killed),
    }
    if res is None or r.result == "-":
        return
    if res.attacker_wounded:
        _casualty(state, ctx, "attacker", "wound")
    elif res.defender_stunned:
        _casualty(state, ctx, "defender", "stun")
    elif res.defender_wounded:
        _casualty(state, ctx, "defender", "wound")
    elif res.defender_killed:
        _casualty(state, ctx, "defender", "kill")
    elif res.attacker_retreats or res.defender_retreats:
        who = "attackers" if res.attacker_retreats else "defenders"
        n = res.attacker_retreats or res.defender_retreats
        ctx["retreating"] = list(ctx[who])
        ctx["victor"] = "defenders" if who == "attackers" else "attackers"
        for cid in ctx[who]:
            c = state.characters[cid]
            others = ctx["defenders"] if who == "attackers" else ctx["attackers"]
            _order_retreat(state, c, n, away_from=None, combatants=others, ref=ctx["ref"])
        _offer_advance(state, ctx)


def _casualty(state: GameState, ctx: dict, who: str, effect: str) -> None:
    ids = ctx["attackers"] if who == "attacker" else ctx["defenders"]
    cands = [state.characters[c] for c in ids if state.characters[c].alive]
    if who == "defender" and not all(c.armour for c in cands):
        unarmoured = [c for c in cands if not c.armour]
        if len(unarmoured) < len(cands):
            cands = unarmoured  # §6.3: damage goes to an unarmoured defender
    ctx = dict(ctx, effect=effect, who=who)
    if len(cands) == 1:
        _hit(state, cands[0], ctx)
        return
    side = cands[0].side
    state.pending.insert(0, Pending("casualty", side, [c.id for c in cands],
                                    {"ctx": ctx, "ref": "MC §6.2" + ("; MC §6.3" if who == "defender" else "")}))


def _hit(state: GameState, c: Character, ctx: dict) -> None:
    effect = ctx["effect"]
    if effect == "wound":
        emit(state, "status", f"{c.name} is {c.wound()}", char=c.id, ref=ctx["ref"])
    elif effect == "stun":
        emit(state, "status", f"{c.name} is {c.stun(state.phase_no)}", char=c.id, ref=ctx["ref"])
    else:
        emit(state, "status", f"{c.name} is {c.kill()}", char=c.id, ref=ctx["ref"])
    if ctx["who"] == "defender" and ctx.get("unhorse") and c.mounted:
        horses.unhorse(state, c, ctx.get("horse_killed", False), ctx["ref"])
    if ctx["who"] == "defender" and effect in ("stun", "kill", "wound"):
        if effect in ("stun", "kill") or not c.alive:
            ctx = dict(ctx, victor="attackers")
            _offer_advance(state, ctx)


def _order_retreat(state: GameState, c: Character, n: int, away_from: Hex | None, combatants, ref: str) -> None:
    if c.status == "stunned":
        c.kill()
        emit(state, "status", f"{c.name}, stunned, is forced to retreat and is killed", char=c.id, ref="MC §5.4.3, §6.5")
        return
    # the paths are computed when the prompt comes up: an earlier retreat of the same combat
    # may have taken a hex (_fill_retreat_paths)
    state.pending.append(Pending("retreat", c.side, [c.id],
                                 {"paths": [], "n": n, "ref": ref, "lazy": True, "combatants": list(combatants),
                                  "away_from": away_from.label if away_from is not None else None}))


def _fill_retreat_paths(state: GameState) -> None:
    """A retreat's options on the board as it is when the prompt comes up; none: the
    character stays and is wounded (§5.4.3 (§), §6.5 (§))."""
    while state.pending and state.pending[0].kind == "retreat" and state.pending[0].data.get("lazy"):
        p = state.pending[0]
        c = state.characters[p.chars[0]]
        if not c.alive:
            state.pending.pop(0)
            continue
        away = Hex.from_label(p.data["away_from"]) if p.data.get("away_from") else None
        paths = retreat_paths(state, c, p.data["n"], away, p.data.get("combatants", ()))
        if not paths:  # a friend may step aside to make room (§5.4.3 (§), §6.5 (§))
            paths = retreat_paths(state, c, p.data["n"], away, p.data.get("combatants", ()), displace=True)
        p.data["lazy"] = False
        if paths:
            p.data["paths"] = [[h.label for h in x] for x in paths]
            return
        state.pending.pop(0)
        emit(state, "retreat", f"{c.name} cannot retreat {p.data['n']} hex(es): he stays and is {c.wound()}",
             char=c.id, ref="MC §5.4.3 (§), §6.5 (§)")


def _offer_advance(state: GameState, ctx: dict) -> None:
    """§6.6: the victor may advance one character who took part in the combat."""
    victors = ctx["attackers"] if ctx.get("victor") == "attackers" else ctx["defenders"]
    losers_hexes = ctx["defender_hexes"] if ctx.get("victor") == "attackers" else ctx["attacker_hexes"]
    chars = [state.characters[v] for v in victors]
    chars = [c for c in chars if c.active]
    if not chars:
        return
    side = chars[0].side
    state.pending.append(Pending("advance", side, [c.id for c in chars],
                                 {"ctx_vacated": sorted(set(losers_hexes.values())),
                                  "engaged_losers": sorted(losers_hexes), "paths": {}, "ref": "MC §6.6",
                                  "lazy": True}))


def _answer(state: GameState, p: Pending, a: Action) -> None:
    if p.kind == "place":
        horses.place(state, state.characters[a.char], Hex.from_label(a.hex))
        return
    if p.kind == "defensive_fire":
        defensive_fire.answer(state, p, a)
    elif p.kind == "set_down":
        bodies.answer_set_down(state, p, a)
    elif p.kind == "casualty":
        _hit(state, state.characters[a.char], p.data["ctx"])
    elif p.kind == "retreat":
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        from .paths import make_room, step_aside
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
            emit(state, "retreat", f"{c.name}'s retreat is cut short in {final.label}", char=c.id, ref="MC §4.3")
            emit(state, "status", f"{c.name} is {c.wound()}", char=c.id, ref="MC §5.4.3 (§), §6.5 (§)")
        else:
            emit(state, "retreat", f"{c.name} retreats {start.label} → {' → '.join(x.label for x in path)}",
                 char=c.id, path=list(a.path), ref=p.data.get("ref", ""))
    elif p.kind == "quarter":
        ransom.answer(state, p, a)
    elif p.kind == "grab":
        bridle.answer(state, p, a)
    elif p.kind == "advance":
        if isinstance(a, Decline):
            emit(state, "advance", "no advance after combat", ref="MC §6.6")
            return
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        losers = p.data.get("engaged_losers", [])
        exclude = set(losers) | set(state.engaged)
        final, interrupted, done = walk(state, c, path, exclude=exclude, why="advance after combat")
        emit(state, "advance", f"{c.name} advances {start.label} → {' → '.join(x.label for x in path[:done]) if done else start.label}",
             char=c.id, ref="MC §6.6")


def _fill_advance_paths(state: GameState) -> None:
    """Advance options depend on the board once the retreats are done: computed lazily."""
    if state.pending and state.pending[0].kind == "advance" and state.pending[0].data.get("lazy"):
        p = state.pending[0]
        vac = [Hex.from_label(x) for x in p.data["ctx_vacated"]]
        n_foot, n_mounted = state.rules.advance.foot, state.rules.advance.mounted
        paths = {}
        for cid in p.chars:
            c = state.characters[cid]
            ps = advance_paths(state, c, vac, n_mounted if c.mounted else n_foot)
            if ps:
                paths[cid] = [[h.label for h in x] for x in ps]
        p.data["paths"] = paths
        p.data["lazy"] = False
        p.chars = sorted(paths)
