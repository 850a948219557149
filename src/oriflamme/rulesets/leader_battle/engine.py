"""The sequence of play A–E (LB seed 001 l.2-25, ``data/sequence.toml``): legal actions, the
checked apply with the rule that refuses, and the settling that runs the steps no side acts in.

A step a side acts in waits for its actions and its ``end_step``; a step with nothing to do for
the side whose turn it is is passed at once (the log says so), as the seed's "en fonction des
unités présentes" (l.5) does for step B.
"""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction

from . import fire, melee
from .actions import FACING_NAMES, Action, action_from_json, emit, side_name  # noqa: F401 (re-exported)
from .board import front_hexes
from .losses import disorder, lose_steps, retreat
from .queries import (H, commanded_by, leader_alive, leader_moves, live_units, objectives_held, unit_moves,
                      units_at)
from .rules import rules
from .state import Combat, State, Unit
from .texts import both

SEED = "LB seed 001"
#: the kinds of action each step of the sequence knows (a refusal names the rule behind it)
STEP_TYPES = {"B": {"fire", "end_step"}, "C": {"initiative"}, "D1": {"move", "end_step"},
              "D2": {"fire", "end_step"}, "D3": {"declare", "end_step"},
              "D4": {"resolve", "fire", "melee", "advance", "end_step"}, "E": {"rally", "end_step"}}


# --- who acts ---------------------------------------------------------------------------------
def to_act(state: State) -> str | None:
    if state.over:
        return None
    if state.step == "B":
        return state.role_side(rules().fire_order[state.b_index].side)
    if state.step == "C":
        return state.attacker
    if state.step in ("D1", "D2", "D3"):
        return state.active_side
    if state.step == "D4":
        if state.current is not None and state.combats[state.current].stage == "defensive":
            return state.enemy(state.active_side)
        return state.active_side
    if state.step == "E":
        return state.attacker if state.e_index == 0 else state.defender
    return None


def _fire_actions(state: State, side: str, mode: str) -> list[Action]:
    return [Action("fire", side, unit=u.id, target=t.id)
            for u in fire.shooters(state, side, mode) for t in fire.targets(state, u, mode)]


def can_declare(state: State, unit: Unit) -> tuple[str, str] | None:
    if unit.broken or unit.side != state.active_side or unit.leader != state.active_leader:
        return "only the units the activated leader commands declare combats", f"{SEED} l.13, l.16"
    if not unit.spec.melee:
        return f"{unit.name} cannot melee", f"{SEED} l.22"
    if not unit.in_command:
        return f"{unit.name} is out of command", rules().command.ref
    if unit.disordered:
        return f"{unit.name} is disordered and may not attack", "LB house §6.0"
    if any(unit.id in c.attackers for c in state.combats):
        return f"{unit.name} has already declared a combat", "LB house §6.0"
    return None


def declare_targets(state: State, unit: Unit) -> list[str]:
    a = H(unit.hex)
    out = []
    for h in front_hexes(a, unit.facing):
        if units_at(state, h, state.enemy(unit.side)) and state.board.combat_allowed(a, h):
            out.append(h.label)
    return out


def legal_actions(state: State, side: str | None = None) -> list[Action]:
    who = to_act(state)
    if who is None or (side is not None and side != who):
        return []
    step = state.step
    out: list[Action] = []
    end = [Action("end_step", who)]
    if step == "B":
        return _fire_actions(state, who, "B") + end
    if step == "C":
        return [Action("initiative", who)]
    if step == "D1":
        for u in commanded_by(state, state.active_leader):
            if u.in_command and u.id not in state.moved:
                out += [Action("move", who, unit=u.id, to=h, facing=f) for h, f in unit_moves(state, u)]
        ld = state.leaders[state.active_leader]
        if ld.id not in state.moved:
            out += [Action("move", who, unit=ld.id, to=h, facing=0) for h in leader_moves(state, ld)]
        return out + end
    if step == "D2":
        return _fire_actions(state, who, "D2") + end
    if step == "D3":
        for u in live_units(state, who):
            if can_declare(state, u) is None:
                out += [Action("declare", who, unit=u.id, hex=h) for h in declare_targets(state, u)]
        return out + end
    if step == "D4":
        if state.current is None:
            return [Action("resolve", who, hex=c.hex) for c in state.combats if c.stage == "pending"]
        c = state.combats[state.current]
        if c.stage in ("defensive", "offensive"):
            return _fire_actions(state, who, c.stage) + end
        if c.stage == "advance":
            return [Action("advance", who, hex=c.hex)] + end
        return [Action("melee", who, hex=c.hex)]
    if step == "E":
        return [Action("rally", who, unit=u.id) for u in live_units(state, who)
                if u.disordered and u.id not in state.fired] + end
    return []


def has_work(state: State) -> bool:
    return any(a.type != "end_step" for a in legal_actions(state))


# --- refusals ----------------------------------------------------------------------------------
def step_ref(state: State) -> str:
    return rules().step(state.step).ref if state.step in {s.id for s in rules().steps} else ""


def refusal(state: State, action: Action) -> tuple[str, str]:
    """Why a listed-nowhere action is illegal, with the rule that forbids it."""
    who = to_act(state)
    if who is None:
        return "the game is over", rules().victory.ref
    if action.side != who:
        return f"it is {who}'s turn in step {state.step}, not {action.side!r}'s", step_ref(state)
    allowed = STEP_TYPES.get(state.step, set())
    if action.type not in allowed or (action.type == "fire" and fire.mode_of(state) is None):
        now = sorted({a.type for a in legal_actions(state)})
        return f"no {action.type} in step {state.step} now (allowed: {', '.join(now)})", step_ref(state)
    if action.type in ("fire", "rally", "declare") or (action.type == "move" and action.unit in state.units):
        u = state.units.get(action.unit or "")
        if u is None:
            return f"no unit {action.unit!r}", step_ref(state)
        if u.side != who:
            return f"{u.name} is not a unit of {who}", step_ref(state)
        if action.type == "fire":
            mode = fire.mode_of(state)
            why = fire.why_not_shooter(state, u, mode)
            if why:
                return why
            t = state.units.get(action.target or "")
            if t is None:
                return f"no unit {action.target!r}", "LB house §5.1"
            why = fire.why_not_target(state, u, t, mode)
            if why:
                return why
        if action.type == "declare":
            why = can_declare(state, u)
            if why:
                return why
            return (f"{u.name} may attack only an adjacent enemy hex in its front hexes, across a hexside that "
                    "allows combat", f"{SEED} l.16, l.24; LB house §2.2")
        if action.type == "rally":
            return f"{u.name} is not disordered", rules().rally.ref
        if action.type == "move":
            if u.leader != state.active_leader:
                return f"{u.name} is not commanded by the activated leader", f"{SEED} l.13-14"
            if not u.in_command:
                return f"{u.name} is out of command", rules().command.ref
            if u.id in state.moved:
                return f"{u.name} has already moved", f"{SEED} l.14"
            return (f"{u.name} cannot reach {action.to} facing {action.facing} (movement {u.spec.movement}, "
                    "stacking, river, enemies)", f"{SEED} l.14; LB house §2.3, §2.6")
    if action.type == "move":
        if action.unit != state.active_leader:
            return "only the activated leader and his units move", f"{SEED} l.14"
        return f"{action.unit} cannot move to {action.to}", "LB house §3.2"
    return "not a choice offered now", step_ref(state)


def check(state: State, action) -> Action:
    if isinstance(action, dict):
        action = action_from_json(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action of leader-battle: {action!r:.60}")
    if action.side != to_act(state) or action not in legal_actions(state):
        reason, ref = refusal(state, action)
        raise IllegalAction(reason, ref)
    return action


# --- effects -----------------------------------------------------------------------------------
def apply(state: State, action: Action) -> list[dict]:
    first = len(state.log)
    HANDLERS[action.type](state, action)
    settle(state)
    return state.log[first:]


TABLE_NAMES = {"fire": ("fire table", "table de tir"), "combat": ("combat table", "table de combat")}


def rolled(rl: dict, die: int, row: int, res: str, label_en: str, label_fr: str) -> dict:
    """A ruling (fire or melee, before the die) completed by its roll: the die, the row read,
    the table cell and its result, the explanation's last line in both languages."""
    en, fr = TABLE_NAMES[rl["table"]]
    return {**rl, "die": die, "modified_die": row, "result": res,
            "cell": {"table": rl["table"], "column": rl["column"], "row": row, "result": res},
            "explanation": rl["steps"] + [f"die {die} (row {row}): {en}, column {rl['column']}: {res}, {label_en}"],
            "explanation_fr": rl["steps_fr"] + [f"dé {die} (ligne {row}) : {fr}, colonne {rl['column']} : {res}, "
                                                f"{label_fr}"]}


def _fire(state: State, a: Action) -> None:
    mode = fire.mode_of(state)
    u, t = state.units[a.unit], state.units[a.target]
    rl = fire.ruling(state, u, t, mode)
    die = state.dice.roll(10)
    modified, res = fire.cell(rl, die)
    state.fired.add(u.id)
    label = rules().fire_results[res]
    ruling = rolled(rl, die, modified, res, label.label_en, label.label_fr)
    mode_name = {"B": both("step B", "phase B"), "D2": both("D2", "D2"),
                 "defensive": both("defensive fire", "tir défensif"),
                 "offensive": both("offensive fire", "tir offensif")}[mode]
    emit(state, "fire", u.side, rl["citations"][0], ruling, shooter=u.name, target=t.name, mode=mode_name, die=die,
         modified=modified, column=rl["column"], result=both(label.label_en, label.label_fr))
    if res == "1":
        lose_steps(state, t, 1)
    elif res == "D":
        disorder(state, t)


def _move(state: State, a: Action) -> None:
    state.moved.add(a.unit)
    if a.unit in state.leaders:
        ld = state.leaders[a.unit]
        ld.hex = a.to
        emit(state, "leader_move", ld.side, f"{SEED} l.14", leader=ld.name, to=a.to)
        return
    u = state.units[a.unit]
    u.hex, u.facing = a.to, a.facing
    emit(state, "move", u.side, f"{SEED} l.14", unit=u.name, to=a.to, facing=FACING_NAMES[a.facing])


def _declare(state: State, a: Action) -> None:
    u = state.units[a.unit]
    c = next((c for c in state.combats if c.hex == a.hex), None)
    if c is None:
        c = Combat(a.hex, [], [x.id for x in units_at(state, H(a.hex), state.enemy(u.side))])
        state.combats.append(c)
    c.attackers.append(u.id)
    emit(state, "declare", u.side, f"{SEED} l.16", unit=u.name, hex=a.hex)


def _resolve(state: State, a: Action) -> None:
    idx = next(i for i, c in enumerate(state.combats) if c.hex == a.hex and c.stage == "pending")
    start_combat(state, idx)


def start_combat(state: State, idx: int) -> None:
    c = state.combats[idx]
    state.current, c.stage = idx, "defensive"
    emit(state, "combat", state.active_side, f"{SEED} l.17", hex=c.hex,
         attackers=", ".join(state.units[x].name for x in c.attackers),
         defenders=", ".join(state.units[x].name for x in c.defenders))


def _melee(state: State, a: Action) -> None:
    r = rules()
    c = state.combats[state.current]
    rl = melee.ruling(state, c)
    die = state.dice.roll(10)
    res = r.combat.cell(rl["column_index"], die)
    row = r.combat_results[res]
    ruling = rolled(rl, die, die, res, row.label_en, row.label_fr)
    emit(state, "melee", state.active_side, f"{SEED} l.20", ruling, hex=c.hex, die=die, column=rl["column"],
         result=both(f"{res}, {row.label_en}", f"{res}, {row.label_fr}"))
    att, dfn = melee.live(state, c.attackers), melee.live(state, c.defenders)
    if row.defender_steps:
        lose_steps(state, melee.strongest(dfn), row.defender_steps)
    if row.attacker_steps:
        lose_steps(state, melee.strongest(att), row.attacker_steps)
    if row.defender_retreats:
        retreat(state, melee.live(state, c.defenders), [H(x.hex) for x in melee.live(state, c.attackers)])
    if row.attacker_retreats:
        for h in sorted({x.hex for x in melee.live(state, c.attackers)}):
            group = [x for x in melee.live(state, c.attackers) if x.hex == h]
            retreat(state, group, [H(c.hex)])
    if not units_at(state, H(c.hex)) and not row.attacker_retreats and advancers(state, c):
        c.stage = "advance"  # the active player advances or stays (LB house §6.5)
    else:
        c.stage, state.current = "done", None


def advancers(state: State, c: Combat) -> list[Unit]:
    """The attackers that may advance into the emptied hex, in order, as stacking allows."""
    r = rules()
    target, load, out = H(c.hex), 0, []
    for u in melee.live(state, c.attackers):
        if state.board.crossable(H(u.hex), target) and load + u.spec.stack <= r.stacking.limit:
            load += u.spec.stack
            out.append(u)
    return out


def _advance(state: State, a: Action) -> None:
    c = state.combats[state.current]
    for u in advancers(state, c):
        u.hex = c.hex
        emit(state, "advance", u.side, rules().advance.ref, unit=u.name, hex=c.hex)
    c.stage, state.current = "done", None


def _initiative(state: State, a: Action) -> None:
    r = rules()
    die = state.dice.roll(10)
    first = state.attacker if die <= r.initiative.attacker_first_max else state.defender
    state.initiative = first
    ranks = {s: [ld.id for ld in sorted(state.leaders.values(), key=lambda x: x.rank)
                 if ld.side == s and not ld.lost] for s in (first, state.enemy(first))}
    order = []
    a_list, b_list = ranks[first], ranks[state.enemy(first)]
    for i in range(max(len(a_list), len(b_list))):
        order += a_list[i:i + 1] + b_list[i:i + 1]
    state.order, state.act_index = order, 0
    ruling = {"kind": "initiative", "die": die, "modified_die": die, "result": first,
              "explanation": [f"1D10 = {die}: 1-{r.initiative.attacker_first_max} the attacker starts"],
              "explanation_fr": [f"1D10 = {die} : de 1 à {r.initiative.attacker_first_max}, l'attaquant commence"],
              "citations": [f"{SEED} l.10-11", r.initiative.ref]}
    emit(state, "initiative", a.side, r.initiative.ref, ruling, die=die, need=r.initiative.attacker_first_max,
         first=side_name(state, first))
    emit(state, "order", None, f"{SEED} l.11, l.13; {r.activation.ref}",
         order=", ".join(state.leaders[x].name for x in order))
    start_activation(state)


def _rally(state: State, a: Action) -> None:
    r = rules()
    u = state.units[a.unit]
    need = r.rally.in_command_max if u.in_command and leader_alive(state, u.leader) else r.rally.out_of_command_max
    die = state.dice.roll(10)
    ok = die <= need
    if ok:
        u.disordered = False
    state.fired.add(u.id)
    ruling = {"kind": "rally", "die": die, "modified_die": die, "result": "rallied" if ok else "failed",
              "explanation": [f"{u.name}: 1D10 = {die}, needs {need} or less"],
              "explanation_fr": [f"{u.name} : 1D10 = {die}, il faut {need} ou moins"],
              "citations": [f"{SEED} l.25", r.rally.ref]}
    emit(state, "rally", u.side, r.rally.ref, ruling, unit=u.name, die=die, need=need,
         result=both("rallied", "ralliée") if ok else both("still disordered", "toujours désorganisée"))


def _end_step(state: State, a: Action) -> None:
    emit(state, "end_step", a.side, step_ref(state), who=side_name(state, a.side))
    advance(state)


B_WHO = {("attacker", "artillery"): both("of the attacker's artillery", "d'artillerie de l'attaquant"),
         ("defender", "artillery"): both("of the defender's artillery", "d'artillerie du défenseur"),
         ("defender", "archers"): both("of the defender's archers", "d'archers du défenseur"),
         ("attacker", "archers"): both("of the attacker's archers", "d'archers de l'attaquant")}

HANDLERS = {"fire": _fire, "move": _move, "declare": _declare, "resolve": _resolve, "melee": _melee,
            "advance": _advance,
            "initiative": _initiative, "rally": _rally, "end_step": _end_step}


# --- the sequence ------------------------------------------------------------------------------
def enter(state: State, step: str) -> None:
    state.step = step
    st = rules().step(step)
    emit(state, "step", None, st.ref, title=both(st.title_en, st.title_fr))


def command_check(state: State) -> None:
    """A (LB house §3.1, §3.3): units of a lost leader pass to the best surviving leader of the
    side; a unit is in command when its leader lives and stands within his command range."""
    inside = outside = 0
    for u in live_units(state):
        if not leader_alive(state, u.leader):
            heirs = sorted((ld for ld in state.leaders.values() if ld.side == u.side and not ld.lost),
                           key=lambda x: x.rank)
            if heirs:
                u.leader = heirs[0].id
                emit(state, "command_passes", u.side, "LB house §3.3", unit=u.name, leader=heirs[0].name)
                u.in_command = False  # until the next command check (LB house §3.3)
                outside += 1
                continue
            u.leader = None
            u.in_command = False
            emit(state, "command_leaderless", u.side, "LB house §3.3", unit=u.name)
            outside += 1
            continue
        ld = state.leaders[u.leader]
        dist = H(u.hex).distance(H(ld.hex))
        u.in_command = dist <= ld.command_range
        if u.in_command:
            inside += 1
        else:
            outside += 1
            emit(state, "command_out", u.side, rules().command.ref, unit=u.name, dist=dist, leader=ld.name,
                 range=ld.command_range)
    emit(state, "command_summary", None, rules().command.ref, inside=inside, outside=outside)


def start_b(state: State) -> None:
    enter(state, "B")
    state.b_index = 0
    state.fired = set()


def start_activation(state: State) -> None:
    while state.act_index < len(state.order) and state.leaders[state.order[state.act_index]].lost:
        state.act_index += 1
    state.moved, state.fired, state.combats, state.current = set(), set(), [], None
    if state.act_index >= len(state.order):
        state.active_leader = None
        state.e_index = 0
        enter(state, "E")
        return
    state.active_leader = state.order[state.act_index]
    ld = state.leaders[state.active_leader]
    emit(state, "activate", ld.side, f"{SEED} l.13", leader=ld.name)
    enter(state, "D1")


def advance(state: State) -> None:
    """Leave the current step (or sub-step) for the next one of the sequence."""
    s = state.step
    if s == "B":
        state.b_index += 1
        if state.b_index >= len(rules().fire_order):
            enter(state, "C")
    elif s == "D1":
        enter(state, "D2")
    elif s == "D2":
        enter(state, "D3")
    elif s == "D3":
        enter(state, "D4")
    elif s == "D4":
        c = state.combats[state.current]
        if c.stage == "advance":  # the attackers stay
            c.stage, state.current = "done", None
        else:
            c.stage = "offensive" if c.stage == "defensive" else "melee"
    elif s == "E":
        state.e_index += 1
        if state.e_index >= 2:
            end_of_turn(state)


def end_of_turn(state: State) -> None:
    sc = state.scenario
    if state.turn >= sc.turns:
        held = len(objectives_held(state, state.attacker))
        winner = state.attacker if held >= sc.objectives_needed else state.defender
        ev = emit(state, "win_objectives", winner, rules().victory.ref, held=held, needed=sc.objectives_needed,
                  winner=side_name(state, winner))
        finish(state, winner, ev)
        return
    state.turn += 1
    state.step = "A"
    state.order, state.act_index, state.initiative, state.active_leader = [], 0, None, None


def finish(state: State, winner: str | None, ev: dict) -> None:
    state.over, state.winner = True, winner
    state.result, state.result_fr = ev["text"], ev["text_fr"]
    state.step = "over"
    state.current = None


def check_break(state: State) -> bool:
    broken = {s.id: sum(1 for u in state.units.values() if u.side == s.id and u.broken) for s in state.scenario.side}
    limits = {s.id: s.break_point for s in state.scenario.side}
    losers = [s for s in broken if broken[s] >= limits[s]]
    if not losers:
        return False
    if len(losers) == 2:
        finish(state, None, emit(state, "draw", None, rules().victory.ref))
        return True
    loser = losers[0]
    winner = state.enemy(loser)
    finish(state, winner, emit(state, "win_break", winner, rules().victory.ref, loser=side_name(state, loser),
                               broken=broken[loser], limit=limits[loser], winner=side_name(state, winner)))
    return True


def settle(state: State) -> None:
    """Run what no side decides: A, empty steps, the choice of a lone combat, the end of an
    activation, of the turn; stop where a side has something to do."""
    for _ in range(10_000):
        if state.over or check_break(state):
            return
        s = state.step
        if s == "A":
            emit(state, "turn", None, "", turn=state.turn)
            enter(state, "A")
            command_check(state)
            start_b(state)
            continue
        if s == "C":
            return
        if s == "D4":
            if state.current is None:
                pending = [i for i, c in enumerate(state.combats) if c.stage == "pending"]
                if not pending:
                    state.act_index += 1
                    start_activation(state)
                    continue
                if len(pending) == 1:
                    start_combat(state, pending[0])
                    continue
                return
            c = state.combats[state.current]
            if c.stage == "advance":
                return
            if not melee.live(state, c.attackers) or not melee.live(state, c.defenders) \
                    or any(state.units[d].hex != c.hex for d in c.defenders if not state.units[d].broken):
                emit(state, "called_off", state.active_side, "LB house §6.0", hex=c.hex)
                c.stage, state.current = "done", None
                continue
            if c.stage == "melee":
                return
        if not has_work(state):
            advance(state)
            continue
        if s == "B" and state.announced != f"{state.turn}:B{state.b_index}":
            state.announced = f"{state.turn}:B{state.b_index}"
            order = rules().fire_order[state.b_index]
            emit(state, "b_order", to_act(state), order.ref, who=B_WHO[(order.side, order.category)])
        return
    raise RuntimeError("the sequence does not settle")  # a bug, not a player's error


def setup(state: State) -> State:
    settle(state)
    return state
