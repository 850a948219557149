"""Fire frequency (Magna Carta §5.1, §5.2) and defensive fire (§5.3) on the map.

Declarations (Oriflamme's reading, docs/decisions.md "Defensive fire"):

* In the offensive fire or movement step of his own phase, a shooter may **declare** one of his
  weapon's fire frequencies that allows defensive fire (:class:`~.actions.Declare`; the
  ``choices`` of ``weapons.toml``, SEED-NOTES §1). Its movement limit applies at once
  (``state.phase.fire_limit``, read by :func:`movement.allowance`) and is refused if he has already
  spent more; he may not attack this phase (§5.2).
* Firing offensively without a declaration declares the most permissive frequency that
  includes offensive fire (as before); declare first to fire both ways.
* At the end of the phase, a declared shooter becomes **ready** for defensive fire in the
  enemy's following phase, unless he fired offensively under "offensive OR defensive" (§5.3
  "seuls les arbalétriers qui n'ont pas effectué de tir offensif") or attacked. A character who
  declares nothing moves and attacks normally (§5.1 N.B., §5.2 N.B.).

Defensive fire: every hex an enemy enters during a move (:func:`paths.walk`) calls
:func:`on_enter`; when a ready shooter of the other side can fire at him there, the move
pauses in a ``defensive_fire`` prompt holding the move in progress. The other side designates
shooters (:class:`~.actions.Designate`, all before any die), then fires
(:class:`~.actions.Volley`) or lets him pass (:class:`~.actions.Decline`); the move then
resumes along the rest of its path (``moving.walk_move``).
"""

from __future__ import annotations

from ....core.dice import roll_keyed
from ..resolve.ruling import Ruling
from . import handlers
from .actions import Action, Decline, Declare, Designate, Stand, Volley
from .character import Character
from .combat import stray
from .events import emit, nested
from .hooks import HOOKS
from .moving import walk_move
from .fire import target_ruling, apply_status, weapon_problem
from .state import MOVEMENT, OFFENSIVE_FIRE, GameState, Pending
from . import riding
from .horses import unhorse
from .movement import allowance
from .charges import charging, no_defensive_fire
from ....geometry.hexgrid import Hex

OFFENSIVE = ("offensive", "offensive_or_defensive", "offensive_and_defensive")
DEFENSIVE = ("defensive", "offensive_or_defensive", "offensive_and_defensive")
_MOVE_ORDER = ("full", "half", "none")
REF = "MC §5.3"


# =============================================================================================
# declarations (§5.1, §5.2)
# =============================================================================================
def declare_choices(state: GameState, c: Character) -> list[str]:
    """The frequencies ``c`` may declare now (those of his weapon allowing defensive fire)."""
    if c.side != state.active or state.step not in (OFFENSIVE_FIRE, MOVEMENT) or not c.weapon:
        return []
    return [ch.fire for ch in state.rules.weapons[c.weapon].choices
            if ch.fire in DEFENSIVE and declare_problem(state, c, ch.fire) is None]


@HOOKS.provide(name="defensive_fire_refusal")
def _defensive_fire_exists(state: GameState) -> tuple[str, str] | None:
    """Why no fire frequency may be declared at all (None: Magna Carta has defensive fire, §5.3);
    an edition without defensive fire overrides it (Cry Havoc)."""
    return None


def declare_problem(state: GameState, c: Character, fire: str) -> tuple[str, str] | None:
    none = HOOKS.defensive_fire_refusal(state)
    if none is not None:
        return none
    if state.step not in (OFFENSIVE_FIRE, MOVEMENT) or c.side != state.active:
        return ("a fire frequency is declared in the offensive fire or movement step of one's own phase", "MC §5.1, §2.1")
    if not c.weapon or c.hex is None:
        return (f"{c.name} has no missile weapon", "MC §5")
    if not c.active:
        return (f"{c.name} is {c.status}", "MC §1.2")
    w = state.rules.weapons[c.weapon]
    if w.mounted != c.mounted:
        return (f"the {w.names[0]} is used {'mounted' if w.mounted else 'on foot'}", w.ref)
    if c.id in state.defensive_fire.declared:
        return (f"{c.name} has already declared his fire frequency this phase "
                f"({state.defensive_fire.declared[c.id].replace('_', ' ')})", "MC §5.1")
    choice = next((ch for ch in w.choices if ch.fire == fire), None)
    if choice is None or fire not in DEFENSIVE:
        known = ", ".join(ch.fire.replace("_", " ") for ch in w.choices if ch.fire in DEFENSIVE) or "none"
        return (f"the {w.names[0]} cannot declare {fire.replace('_', ' ')} fire (it allows: {known})", w.ref)
    if c.id in state.phase.attacked:
        return (f"{c.name} attacked this phase and cannot fire", "MC §5.2")
    spent = state.phase.mp_spent.get(c.id, 0)
    if spent > _limited(state, c, choice.movement):
        return (f"{c.name} has spent {spent} PM, more than {choice.fire.replace('_', ' ')} fire allows "
                f"({choice.movement} movement)", "MC §5.1, §5.3")
    return None


def _limited(state: GameState, c: Character, movement: str) -> int:
    saved = state.phase.fire_limit.get(c.id)
    state.phase.fire_limit[c.id] = movement
    try:
        return allowance(state, c)
    finally:
        if saved is None:
            del state.phase.fire_limit[c.id]
        else:
            state.phase.fire_limit[c.id] = saved


def _set_choice(state: GameState, c: Character, fire: str, movement: str) -> None:
    state.defensive_fire.declared[c.id] = fire
    old = state.phase.fire_limit.get(c.id, "full")
    limit = max(old, movement, key=_MOVE_ORDER.index)
    if limit != "full":
        state.phase.fire_limit[c.id] = limit


def declare(state: GameState, c: Character, fire: str) -> None:
    w = state.rules.weapons[c.weapon]
    choice = next(ch for ch in w.choices if ch.fire == fire)
    _set_choice(state, c, fire, choice.movement)
    emit(state, "declare", msg="fire.declare", params={"name": c.name, "fire": nested(f"fire.{fire}"),
                                                      "movement": nested(f"movement.{choice.movement}")},
         char=c.id, fire=fire, movement=choice.movement, ref="MC §5.1, §5.2")


def offensive_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """A declared frequency that forbids offensive fire (``defensive`` alone)."""
    d = state.defensive_fire.declared.get(c.id)
    if d is not None and d not in OFFENSIVE:
        return (f"{c.name} declared defensive fire only", "MC §5.1")
    return None


def record_offensive(state: GameState, c: Character) -> None:
    """``c`` fires offensively: without a declaration he takes the most permissive frequency
    that includes offensive fire (SEED-NOTES §1)."""
    if c.id in state.defensive_fire.declared:
        return
    w = state.rules.weapons[c.weapon]
    allowed = [ch for ch in w.choices if ch.fire in OFFENSIVE]
    if not allowed:
        state.phase.fire_limit[c.id] = "none"
        return
    best = min(allowed, key=lambda ch: _MOVE_ORDER.index(ch.movement))
    _set_choice(state, c, best.fire, best.movement)


def ready_after_phase(state: GameState) -> set[str]:
    """At the end of a phase: who may fire defensively in the enemy's next phase (§5.3)."""
    out = set()
    for cid, fire in state.defensive_fire.declared.items():
        c = state.characters[cid]
        if fire not in DEFENSIVE or not c.alive or cid in state.phase.attacked:
            continue
        if fire == "offensive_or_defensive" and cid in state.phase.fired:
            continue  # §5.3: "seuls les arbalétriers qui n'ont pas effectué de tir offensif"
        out.add(cid)
    return out


def new_phase(state: GameState) -> None:
    """Called by :func:`turn.begin_phase` before the phase's bookkeeping is cleared (the rest of
    this part, ``declared`` and the ``df_*`` fields, is cleared by its ``reset_phase``)."""
    state.defensive_fire.defensive_ready = ready_after_phase(state)


# =============================================================================================
# defensive fire (§5.3)
# =============================================================================================
def spacing(state: GameState, mover: Character) -> int:
    """Hexes the mover must enter after a defensive fire before he can be shot at again."""
    sp = state.rules.defensive_spacing
    if mover.mounted:
        # a rider who announced a charge (MC §7.6.1, an edition's announcements step): 4 hexes
        return sp.mounted_charging if state.charges.announced and charging(state, mover) else sp.mounted
    return sp.foot_wounded if mover.status == "wounded" else sp.foot


def target_problem(state: GameState, mover: Character) -> tuple[str, str] | None:
    if state.charges.announced:  # MC §7.6.2: no defensive fire at a charger met by a counter-charge
        p = no_defensive_fire(state, mover)
        if p:
            return p
    if mover.id in state.defensive_fire.df_targets and state.defensive_fire.df_targets[-1] != mover.id:
        return (f"{mover.name} was shot at before another target: he cannot be shot at again this phase", "MC §5.3 N.B.")
    if mover.id in state.defensive_fire.df_last:
        gap = state.defensive_fire.df_walked.get(mover.id, 0) - state.defensive_fire.df_last[mover.id]
        need = spacing(state, mover)
        if gap < need:
            return (f"{mover.name} was shot at {gap} hex(es) ago; he can be shot at again only {need} hex(es) "
                    f"further", state.rules.defensive_spacing.ref)
    return None


def shooter_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    if c.side == state.active:
        return (f"{c.name} fires defensively only during the enemy's phase", "MC §2.1 (2), §5.3")
    if c.id not in state.defensive_fire.defensive_ready:
        return (f"{c.name} did not declare defensive fire in his phase, or fired offensively under "
                f"'offensive or defensive', or attacked", "MC §5.1, §5.3")
    if not c.active or c.hex is None:
        return (f"{c.name} is {c.status}", "MC §1.2")
    if c.id in state.defensive_fire.df_fired:
        return (f"{c.name} has already fired defensively this phase", REF)
    return weapon_problem(state, c)


def defensive_ruling(state: GameState, shooter: Character, mover: Character, die: int | None = None) -> Ruling:
    prob = shooter_problem(state, shooter) or target_problem(state, mover)
    if prob:
        return Ruling(kind="fire").refuse(*prob)
    r = target_ruling(state, shooter, mover, die, None)
    if r.legal:
        r.step(f"defensive fire at {mover.name} while he moves: the defensive reading of the result applies", REF)
    return r


def eligible(state: GameState, mover: Character) -> list[str]:
    """The ready shooters of the other side who can fire at ``mover`` where he stands."""
    if not state.defensive_fire.defensive_ready or target_problem(state, mover):
        return []
    occ = None
    out = []
    for cid in sorted(state.defensive_fire.defensive_ready):
        c = state.characters[cid]
        if c.side == mover.side or shooter_problem(state, c):
            continue
        if occ is None:
            occ = state.occupants()
        if target_ruling(state, c, mover, None, occ).legal:
            out.append(cid)
    return out


@HOOKS.provide(name="defensive_fire_on_enter")
def on_enter(state: GameState, mover: Character, h, i: int, move: dict) -> bool:
    """The hook ``defensive_fire_on_enter`` (engine/hooks.py): ``mover`` entered ``h`` (step ``i`` of ``move``).
    Pauses the move (returns True) with a prompt when the other side has an eligible shooter."""
    state.defensive_fire.df_walked[mover.id] = state.defensive_fire.df_walked.get(mover.id, 0) + 1
    if not state.defensive_fire.defensive_ready:
        return False
    if any(o.id != mover.id for x in mover.hexes for o in state.live_at(x)):
        return False  # passing through a friend: no pause there (§4.1, Oriflamme's reading)
    if state.riders.horses and any(state.horse_at(x) is not None for x in mover.hexes):
        return False  # crossing a riderless horse, where no move may stop (§4.4.4): the same
    shooters = eligible(state, mover)
    if not shooters:
        return False
    state.pending.append(Pending("defensive_fire", state.enemy_of(mover.side), [mover.id],
                                 {"mover": mover.id, "hex": h.label, "move": dict(move, at=i),
                                  "eligible": shooters, "designated": [], "ref": REF}))
    return True


def options(state: GameState, p: Pending) -> list[Action]:
    des = p.data["designated"]
    out: list[Action] = [Designate(x) for x in p.data["eligible"] if x not in des]
    if des:
        out.append(Volley())
    return out + [Decline()]


def explain(state: GameState, a: Action) -> Ruling | None:
    """Preview of an answer to a defensive fire prompt (None: not such an answer)."""
    if not state.pending or state.pending[0].kind != "defensive_fire" or not isinstance(a, (Designate, Volley)):
        return None
    p = state.pending[0]
    mover = state.characters[p.data["mover"]]
    if isinstance(a, Designate):
        if a.shooter not in state.characters:
            return Ruling(kind="fire").refuse(f"unknown character {a.shooter!r}")
        return defensive_ruling(state, state.characters[a.shooter], mover)
    r = Ruling(kind="volley")
    for sid in p.data["designated"]:
        one = defensive_ruling(state, state.characters[sid], mover)
        odds = ", ".join(f"{k} {float(v):.0%}" for k, v in one.probabilities.items())
        r.step(f"{state.characters[sid].name} firing defensively at {mover.name}: {odds}", REF)
    return r


def answer(state: GameState, p: Pending, a: Action) -> None:
    mover = state.characters[p.data["mover"]]
    mv = p.data["move"]
    if isinstance(a, Designate):
        p.data["designated"].append(a.shooter)
        state.pending.insert(0, p)  # still waiting for more shooters, the volley or "let pass"
        return
    if isinstance(a, Decline) and mv.get("stand"):
        emit(state, "defensive_fire", msg="df.no_fire", params={"side": p.side, "name": mover.name}, char=mover.id, ref=REF)
    elif isinstance(a, Decline):
        emit(state, "defensive_fire", msg="df.let_pass", params={"side": p.side, "name": mover.name, "hex": p.data['hex']},
             char=mover.id, hex=p.data["hex"], ref=REF)
    else:
        _volley(state, p, mover, mv)
    _resume(state, mover, mv)


def _volley(state: GameState, p: Pending, mover: Character, mv: dict) -> None:
    shooters = [state.characters[x] for x in p.data["designated"]]
    emit(state, "defensive_volley", msg="df.volley", params={"names": ', '.join(s.name for s in shooters), "name": mover.name,
         "hex": p.data['hex']}, shooters=[s.id for s in shooters], char=mover.id, hex=p.data["hex"], ref=REF)
    # all the designated shooters count as having fired, whatever happens (§5.3)
    state.defensive_fire.df_fired.update(s.id for s in shooters)
    if not state.defensive_fire.df_targets or state.defensive_fire.df_targets[-1] != mover.id:
        state.defensive_fire.df_targets.append(mover.id)
    state.defensive_fire.df_last[mover.id] = state.defensive_fire.df_walked.get(mover.id, 0)
    rs = state.rules
    for s in shooters:
        if not mover.alive:
            emit(state, "defensive_fire", msg="df.wasted_down", params={"shooter": s.name, "name": mover.name},
                 shooter=s.id, char=mover.id, ref=REF)
            continue
        pre = target_ruling(state, s, mover, None, None)
        if not pre.legal:  # e.g. unhorsed by an earlier shot of the volley and set down out of sight
            emit(state, "defensive_fire", msg="df.wasted_unseen", params={"shooter": s.name, "name": mover.name},
                 ruling=pre, shooter=s.id, char=mover.id, ref=REF)  # the ruling says why
            continue
        die = roll_keyed(state.dice, 10, lambda: pre.faces)  # the preview's reading of each face
        s.shots += 1
        r = target_ruling(state, s, mover, die, None)
        r.step(f"defensive fire at {mover.name} while he moves: the defensive reading of the result applies", REF)
        emit(state, "fire", ruling=r, msg="fire.result", params={"shooter": s.name, "target": mover.name, "result": r.result},
             shooter=s.id, target=mover.id, result=r.result, defensive=True)
        res = rs.fire_results[(r.data["table"], r.result)]
        apply_status(state, mover, res)
        if mover.alive and mover.mounted and res.unhorse:
            # unhorsed in the middle of his move (§5.4.2, §6.8): the horse stays (or lies dead)
            # where the shot caught him, he is put beside it and moves no further this phase
            unhorse(state, mover, res.horse_killed, res.ref)
            mv["unhorsed"] = True
            mv["spent_before"] = allowance(state, mover)
            continue
        if mover.alive and res.defensive_movement_loss:
            _lose(state, mover, mv, res.defensive_movement_loss)
            emit(state, "defensive_fire", msg="df.loses", params={"name": mover.name, "n": res.defensive_movement_loss},
                 char=mover.id, ref=res.ref)
        if mover.alive and res.defensive_halve_remaining:
            spent = mv["spent_before"] + sum(mv["steps"][: mv["at"] + 1])
            left = max(0, allowance(state, mover) - spent)
            _lose(state, mover, mv, left - left // 2)
            emit(state, "defensive_fire", msg="df.halved", params={"name": mover.name, "n": left // 2}, char=mover.id, ref=res.ref)
        if res.miss:
            stray(state, s, mover)


def _lose(state: GameState, mover: Character, mv: dict, n: int) -> None:
    """The mover loses ``n`` movement points this phase (counted as spent, never beyond his
    allowance)."""
    cap = max(mv["spent_before"], allowance(state, mover) - sum(mv["steps"][: mv["at"] + 1]))
    mv["spent_before"] = min(mv["spent_before"] + n, cap)


def _resume(state: GameState, mover: Character, mv: dict) -> None:
    """Go on with the paused move: along the part of its path the mover can still pay for."""
    at, steps = mv["at"], mv["steps"]
    if mover.alive and not mv.get("unhorsed") and (mover.hex is None or mover.hex.label != mv["path"][at]):
        # moved off his path while the shots were resolved (a retreat): his move ends there
        state.phase.mp_spent[mover.id] = mv["spent_before"] + sum(steps[: at + 1])
        state.phase.stopped.add(mover.id)
        return
    if mover.active:
        room = allowance(state, mover) - mv["spent_before"]
        last = at
        while last + 1 < len(steps) and sum(steps[: last + 2]) <= room:
            last += 1
        if last < len(steps) - 1:
            # cut the path on the last hex he can pay for and stop in (one character a hex, §4.1)
            counters = _counters(state, mover, mv)
            free = [k for k in range(at, last + 1)
                    if all(not [o for o in state.live_at(x) if o.id != mover.id] and state.horse_at(x) is None
                           for x in counters[k])]  # nor on a riderless horse (§4.4.4); a rider's two hexes
            if free:
                mv["path"], mv["steps"] = mv["path"][: free[-1] + 1], steps[: free[-1] + 1]
            else:
                mv["path"], mv["steps"], mv["halt"] = mv["path"][: at + 1], steps[: at + 1], True
    walk_move(state, mover, mv)


def _counters(state: GameState, mover: Character, mv: dict) -> list[tuple]:
    """The hexes of ``mover``'s counter after each step of the move ``mv`` (a rider: his front
    and rear hexes, replayed from the move's origin)."""
    path = [Hex.from_label(x) for x in mv["path"]]
    if not mover.mounted:
        return [(h,) for h in path]
    import copy
    probe = copy.copy(mover)
    probe.hex, probe.facing = Hex.from_label(mv["origin"]), mv.get("facing", mover.facing)
    return [(st.front, st.front.neighbour(st.facing + 3))
            for st in riding.path_steps(state, probe, tuple(path), riding.extra_costs(state))]


# --- §5.3 N.B.: "sauf si le joueur adverse déclare qu'il ne compte pas le déplacer ce tour-ci" --
def stand_problem(state: GameState, c: Character) -> tuple[str, str] | None:
    """Why ``c``'s side cannot declare that he will not move (and offer him to defensive fire)."""
    if state.step != MOVEMENT or c.side != state.active:
        return (f"{c.name} can be declared standing only in the movement step of side {c.side}", "MC §2.1 (2), §5.3")
    if not c.active or c.hex is None:
        return (f"{c.name} is {c.status}", "MC §1.2")
    if c.id in state.phase.stopped or state.phase.mp_spent.get(c.id, 0):
        return (f"{c.name} has already moved or stopped this phase", "MC §5.3")
    if not eligible(state, c):
        return (f"no enemy shooter is ready to fire at {c.name} defensively", "MC §5.3")
    return None


def stand(state: GameState, c: Character) -> None:
    """``c`` will not move this phase; the enemy may fire at him defensively now (§5.3 N.B.)."""
    state.phase.stopped.add(c.id)
    emit(state, "defensive_fire", msg="df.stands", params={"name": c.name},
         char=c.id, ref="MC §5.3")
    shooters = eligible(state, c)
    if shooters:
        mv = {"char": c.id, "origin": c.hex.label, "facing": c.facing, "mounted": c.mounted,
              "path": [c.hex.label], "steps": [0], "spent_before": 0, "at": 0, "stand": True}
        state.pending.append(Pending("defensive_fire", state.enemy_of(c.side), [c.id],
                                     {"mover": c.id, "hex": c.hex.label, "move": mv,
                                      "eligible": shooters, "designated": [], "ref": REF}))


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
def _explain_declare(state: GameState, action: Declare) -> Ruling:
    ch = state.characters
    r = Ruling(kind="declare")
    if action.char not in ch:
        return r.refuse(f"unknown character {action.char!r}")
    prob = declare_problem(state, ch[action.char], action.fire)
    if prob:
        return r.refuse(*prob)
    c = ch[action.char]
    move = next(x.movement for x in state.rules.weapons[c.weapon].choices if x.fire == action.fire)
    r.step(f"{c.name} declares {action.fire.replace('_', ' ')} fire", "MC §5.1, §5.3")
    return r.step(f"{move} movement this phase, and no attack", "MC §5.1, §5.2")


def _explain_answer(state: GameState, action: Action) -> Ruling:
    r = explain(state, action)  # an answer to a defensive fire prompt (§5.3)
    return r if r is not None else Ruling(kind=action.type)


handlers.register("declare", explain=_explain_declare,
                  check=lambda state, a: handlers.refuse_if(declare_problem(state, handlers.character(state, a.char), a.fire)),
                  do=lambda state, a: declare(state, state.characters[a.char], a.fire))
handlers.register("stand", check=lambda state, a: handlers.refuse_if(stand_problem(state, handlers.character(state, a.char))),
                  do=lambda state, a: stand(state, state.characters[a.char]))
handlers.register("designate", "volley", check=handlers.no_prompt, explain=_explain_answer)  # a prompt's answers
