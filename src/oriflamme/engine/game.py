"""The engine's public API (OpenSpiel / Rally the Troops style):

* :func:`legal_actions` — every action the side to act may take now (the one place rules are
  enumerated; the CLI, the AI and validation all draw on it);
* :func:`apply` — checked: refuses an illegal action with :class:`IllegalAction` (the rule that
  forbids it) and leaves the state unchanged; returns the events it logged;
* :func:`explain` — the ruling of an action *before* it is committed (odds, probabilities);
* :func:`to_act`, :func:`clone` (on the state), :func:`view` in :mod:`oriflamme.engine.view`.

Every die is rolled through ``state.dice`` and every consequence is logged in ``state.log``.
"""

from __future__ import annotations

from ..hexes import Hex
from ..resolve.ruling import Ruling
from . import turn
from . import defensive_fire
from .actions import (Action, Advance, Attack, Casualty, Decline, Declare, Designate, EndStep, Fire, Move, Retreat,
                      Volley)
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
    elif state.step == MOVEMENT:
        for c in mine:
            for h, (_, path) in sorted(reachable(state, c).items()):
                out.append(Move(c.id, tuple(x.label for x in path)))
    if state.step in (OFFENSIVE_FIRE, MOVEMENT):  # fire frequency declarations (§5.1)
        for c in mine:
            out.extend(Declare(c.id, f) for f in defensive_fire.declare_choices(state, c))
    elif state.step == MELEE:
        for aset, dset in attack_options(state, side):
            out.append(Attack(aset, dset))
    out.append(EndStep())
    return out


def _pending_options(state: GameState, p: Pending) -> list[Action]:
    if p.kind == "retreat":
        return [Retreat(p.chars[0], tuple(path)) for path in p.data["paths"]]
    if p.kind == "casualty":
        return [Casualty(c) for c in p.chars]
    if p.kind == "advance":
        opts: list[Action] = [Advance(c, tuple(path)) for c, paths in sorted(p.data["paths"].items()) for path in paths]
        return opts + [Decline()]
    if p.kind == "defensive_fire":
        return defensive_fire.options(state, p)
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
            return melee_ruling(state, [ch[a] for a in action.attackers], [ch[d] for d in action.defenders])
        except KeyError as exc:
            return Ruling(kind="melee").refuse(f"unknown character {exc.args[0]}")
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
        rs = state.rules
        cur = c.hex
        for i, h in enumerate(path):
            sc = step_cost(state, c, cur, h)[0]
            t = rs.terrain[state.gmap.terrain(h)]
            side = state.gmap.hexside(cur, h)
            extra = f" across the {rs.hexsides[side].names[0].lower()}" if side else ""
            r.step(f"{h.label}: {t.names[0].lower()}{extra}, {sc} PM", t.ref)
            if i < len(path) - 1:
                for e in opposers(state, c, h):
                    p = infiltration_test(rs, Infiltrator(c.mounted, c.armour, c.status == "wounded"),
                                          Opposer(e.mounted, e.polearm, e.status == "wounded"))
                    odds = ", ".join(f"{k} {float(v):.0%}" for k, v in p.probabilities.items())
                    r.step(f"crossing {h.label} next to {e.name}: infiltration test ({odds})", "MC §4.3, §4.3.1")
            cur = h
        r.step(f"{c.name} moves {c.hex.label} → {path[-1].label}: {cost} PM of {points_left(state, c)}", "MC §4, §3.1")
        return r
    return Ruling(kind=action.type)


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
                    "defensive_fire": "defensive fire (designate, volley or decline) at"}[p.kind]
            raise IllegalAction(f"the game waits for {what} {', '.join(state.characters[c].name for c in p.chars)} "
                                f"(side {p.side}); {a.type} is not one of the options", p.data.get("ref", ""))
        return
    if isinstance(a, (Retreat, Advance, Decline, Casualty, Designate, Volley)):
        raise IllegalAction(f"there is no pending {a.type} to answer", "")
    if isinstance(a, EndStep):
        return
    if isinstance(a, Declare):
        prob = defensive_fire.declare_problem(state, _char(state, a.char), a.fire)
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
            raise IllegalAction(f"{c.name} is {c.status} and cannot move", "MC §1.2")
        if c.id in state.stopped:
            raise IllegalAction(f"{c.name} was stopped and cannot move again this phase", "MC §4.3.1")
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
    elif isinstance(a, Fire):
        _fire(state, state.characters[a.shooter], state.characters[a.target])
    elif isinstance(a, Move):
        _move(state, state.characters[a.char], _labels(a.path))
    elif isinstance(a, Attack):
        _attack(state, [state.characters[x] for x in a.attackers], [state.characters[x] for x in a.defenders])


def _settle(state: GameState) -> None:
    """After an action: resolve forced prompts, check victory, pass empty steps."""
    for _ in range(1000):
        _fill_advance_paths(state)
        sudden_death_check(state)
        if state.over:
            return
        _kill_surrounded_stunned(state)
        if state.pending:
            p = state.pending[0]
            opts = _pending_options(state, p)
            if p.kind in ("retreat", "casualty") and len(opts) == 1:
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
        return any(has_fire_target(state, c) for c in mine)
    if state.step == MOVEMENT:
        return any(can_move(state, c) for c in mine) or any(defensive_fire.declare_choices(state, c) for c in mine)
    return has_attack_option(state, state.active)


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
    defensive_fire.record_offensive(state, shooter)  # fire frequency and movement limit (§5.1)
    emit(state, "fire", f"{shooter.name} fires at {target.name}: {r.result}", ruling=r,
         shooter=shooter.id, target=target.id, result=r.result)
    res = state.rules.fire_results[(r.data["table"], r.result)]
    if res.kill:
        emit(state, "status", f"{target.name} is {target.kill()}", char=target.id, ref=res.ref)
    elif res.wound:
        emit(state, "status", f"{target.name} is {target.wound()}", char=target.id, ref=res.ref)
    elif res.stun:
        emit(state, "status", f"{target.name} is {target.stun(state.phase_no)}", char=target.id, ref=res.ref)
    if res.retreat and target.alive:
        _order_retreat(state, target, res.retreat, away_from=shooter.hex, combatants=(), ref=res.ref)
    if res.miss:
        _stray(state, shooter, target)


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
    # cumulative cost per step, to re-check the allowance after a wound (§4.3.1 "blessé");
    # one MoveContext for the whole path (the board does not change before the walk)
    steps = []
    cur = c.hex
    from .movement import MoveContext
    ctx = MoveContext(state, c)
    for h in path:
        steps.append(step_cost(state, c, cur, h, ctx)[0])
        cur = h
    # the move in progress, JSON-able: defensive fire (§5.3) may pause it in a prompt
    _walk_move(state, c, {"char": c.id, "origin": c.hex.label, "path": [h.label for h in path], "steps": steps,
                          "spent_before": state.mp_spent.get(c.id, 0), "at": None})


def _walk_move(state: GameState, c: Character, mv: dict) -> None:
    """Walk (or resume, ``mv["at"]`` set) the move ``mv``; see :func:`_move`."""
    from .movement import allowance
    from .paths import PAUSED
    path, steps, spent_before = _labels(mv["path"]), mv["steps"], mv["spent_before"]

    def may_go_on(ch: Character, i: int) -> bool:
        spent = spent_before + sum(steps[: i + 1])
        if mv.get("at") is not None:  # after defensive fire: the next step must be affordable (§5.3)
            spent += steps[i + 1] if i + 1 < len(steps) else 0
            return spent <= allowance(state, ch)
        return spent < allowance(state, ch)

    final, interrupted = walk(state, c, path, why="move", after_wound=may_go_on, move=mv)
    if interrupted == PAUSED:
        return  # the defensive fire prompt (engine/defensive_fire.py) holds ``mv``
    start = Hex.from_label(mv["origin"])
    idx = path.index(final) if final in path else -1
    spent = spent_before + (sum(steps[: idx + 1]) if idx >= 0 else 0)
    state.mp_spent[c.id] = spent
    if interrupted:
        state.stopped.add(c.id)
    shown = [h.label for h in path[: idx + 1]] if idx >= 0 else []
    cost = sum(steps[: idx + 1]) if idx >= 0 else 0
    emit(state, "move", f"{c.name} moves {start.label} → {' → '.join(shown) if shown else start.label}"
         f" ({cost} PM){' and is stopped' if interrupted and c.alive else ''}",
         char=c.id, path=shown, cost=cost, ref="MC §4")


# --- melee -------------------------------------------------------------------------------
def _attack(state: GameState, atts: list[Character], defs: list[Character]) -> None:
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
    if ctx["who"] == "defender" and effect in ("stun", "kill", "wound"):
        if effect in ("stun", "kill") or not c.alive:
            ctx = dict(ctx, victor="attackers")
            _offer_advance(state, ctx)


def _order_retreat(state: GameState, c: Character, n: int, away_from: Hex | None, combatants, ref: str) -> None:
    if c.status == "stunned":
        c.kill()
        emit(state, "status", f"{c.name}, stunned, is forced to retreat and is killed", char=c.id, ref="MC §5.4.3, §6.5")
        return
    paths = retreat_paths(state, c, n, away_from, combatants)
    if not paths:
        emit(state, "retreat", f"{c.name} cannot retreat {n} hex(es): he stays and is {c.wound()}",
             char=c.id, ref="MC §5.4.3 (§), §6.5 (§)")
        return
    state.pending.append(Pending("retreat", c.side, [c.id],
                                 {"paths": [[h.label for h in p] for p in paths], "n": n, "ref": ref}))


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
    if p.kind == "defensive_fire":
        defensive_fire.answer(state, p, a)
    elif p.kind == "casualty":
        _hit(state, state.characters[a.char], p.data["ctx"])
    elif p.kind == "retreat":
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        final, interrupted = walk(state, c, path, why="retreat")
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
    elif p.kind == "advance":
        if isinstance(a, Decline):
            emit(state, "advance", "no advance after combat", ref="MC §6.6")
            return
        c = state.characters[a.char]
        path = _labels(a.path)
        start = c.hex
        losers = p.data.get("engaged_losers", [])
        exclude = set(losers) | set(state.engaged)
        final, interrupted = walk(state, c, path, exclude=exclude, why="advance after combat")
        emit(state, "advance", f"{c.name} advances {start.label} → {' → '.join(x.label for x in path[: path.index(final) + 1]) if final in path else start.label}",
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
