"""What a result of fire or melee does to the characters (Magna Carta §5.4, §6): the melee die,
the choice of the casualty, wounds, retreats and the advance after combat, stray shots. Used by
the fire and melee actions (engine/game.py) and by the features that fire or strike
(engine/defensive_fire.py, engine/lone_horse.py, engine/ransom.py).
"""

from __future__ import annotations

from ....core.dice import roll_keyed
from ....geometry.hexgrid import Hex
from . import horses
from .character import Character
from .events import emit, status
from .melee import melee_ruling
from .paths import advance_paths, retreat_paths
from .state import GameState, Pending
from .stray import stray_shot


def stray(state: GameState, shooter: Character, target: Character) -> None:
    r, victim = stray_shot(state, shooter, target, roll_keyed(state.dice, state.rules.stray_shot.die,
                                                               lambda: stray_faces(state, shooter, target)))
    emit(state, "stray_shot", ruling=r, msg=r.message[0], params=r.message[1], shooter=shooter.id)
    if victim is None:
        return
    st = state.rules.stray_shot
    if victim.armour:
        order_retreat(state, victim, st.armour_retreat, away_from=shooter.hex, combatants=(), ref=st.ref)
    else:
        emit(state, "status", msg="status.is", params={"name": victim.name, "status": status(victim.wound())}, char=victim.id, ref=st.ref)


def stray_faces(state: GameState, shooter: Character, target: Character) -> tuple:
    """What each face of the stray-shot die does (:attr:`Ruling.faces`): the character struck,
    if any, and how (the hex where a harmless shot lands is the log's narration only)."""
    def key(d: int):
        r, victim = stray_shot(state, shooter, target, d)
        return r.result, victim.id if victim else None
    return tuple(key(d) for d in range(1, state.rules.stray_shot.die + 1))


# --- melee -------------------------------------------------------------------------------
def melee_roll(state: GameState, atts: list[Character], defs: list[Character]) -> None:
    die = roll_keyed(state.dice, 10, lambda: melee_ruling(state, atts, defs).faces)
    r = melee_ruling(state, atts, defs, die)
    for a in atts:
        state.phase.attacked.add(a.id)
        state.phase.engaged.add(a.id)
    for d in defs:
        state.phase.engaged.add(d.id)
    emit(state, "melee", ruling=r, msg="melee.result", params={
        "attackers": ', '.join(a.name for a in atts), "defenders": ', '.join(d.name for d in defs),
        "column": r.data['column'], "die": r.die, "result": r.result},
         attackers=[a.id for a in atts], defenders=[d.id for d in defs], result=r.result)
    res = state.rules.melee_results.get((r.data["table"], r.result))
    if r.data.get("swapped"):  # MC §7.6.3 N.B.: the counter-charger attacks, the charger defends
        atts, defs = defs, atts
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
        casualty(state, ctx, "attacker", "wound")
    elif res.defender_stunned:
        casualty(state, ctx, "defender", "stun")
    elif res.defender_wounded:
        casualty(state, ctx, "defender", "wound")
    elif res.defender_killed:
        casualty(state, ctx, "defender", "kill")
    elif res.attacker_retreats or res.defender_retreats:
        who = "attackers" if res.attacker_retreats else "defenders"
        n = res.attacker_retreats or res.defender_retreats
        ctx["retreating"] = list(ctx[who])
        ctx["victor"] = "defenders" if who == "attackers" else "attackers"
        for cid in ctx[who]:
            c = state.characters[cid]
            others = ctx["defenders"] if who == "attackers" else ctx["attackers"]
            order_retreat(state, c, n, away_from=None, combatants=others, ref=ctx["ref"])
        offer_advance(state, ctx)


def casualty(state: GameState, ctx: dict, who: str, effect: str) -> None:
    ids = ctx["attackers"] if who == "attacker" else ctx["defenders"]
    cands = [state.characters[c] for c in ids if state.characters[c].alive]
    if who == "defender" and not all(c.armour for c in cands):
        unarmoured = [c for c in cands if not c.armour]
        if len(unarmoured) < len(cands):
            cands = unarmoured  # §6.3: damage goes to an unarmoured defender
    ctx = dict(ctx, effect=effect, who=who)
    if len(cands) == 1:
        hit(state, cands[0], ctx)
        return
    side = cands[0].side
    state.pending.insert(0, Pending("casualty", side, [c.id for c in cands],
                                    {"ctx": ctx, "ref": "MC §6.2" + ("; MC §6.3" if who == "defender" else "")}))


def hit(state: GameState, c: Character, ctx: dict) -> None:
    effect = ctx["effect"]
    if effect == "wound":
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.wound())}, char=c.id, ref=ctx["ref"])
    elif effect == "stun":
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.stun(state.phase_no))}, char=c.id,
             ref=ctx["ref"])
    else:
        emit(state, "status", msg="status.is", params={"name": c.name, "status": status(c.kill())}, char=c.id, ref=ctx["ref"])
    if ctx["who"] == "defender" and ctx.get("unhorse") and c.mounted:
        horses.unhorse(state, c, ctx.get("horse_killed", False), ctx["ref"])
    if ctx["who"] == "defender" and effect in ("stun", "kill", "wound"):
        if effect in ("stun", "kill") or not c.alive:
            ctx = dict(ctx, victor="attackers")
            offer_advance(state, ctx)


def order_retreat(state: GameState, c: Character, n: int, away_from: Hex | None, combatants, ref: str) -> None:
    if c.status == "stunned":
        c.kill()
        emit(state, "status", msg="retreat.stunned_killed", params={"name": c.name}, char=c.id, ref="MC §5.4.3, §6.5")
        return
    # the paths are computed when the prompt comes up: an earlier retreat of the same combat
    # may have taken a hex (fill_retreat_paths)
    state.pending.append(Pending("retreat", c.side, [c.id],
                                 {"paths": [], "n": n, "ref": ref, "lazy": True, "combatants": list(combatants),
                                  "away_from": away_from.label if away_from is not None else None}))


def fill_retreat_paths(state: GameState) -> None:
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
        emit(state, "retreat", msg="retreat.blocked", params={"name": c.name, "n": p.data['n'], "status": status(c.wound())},
             char=c.id, ref="MC §5.4.3 (§), §6.5 (§)")


def offer_advance(state: GameState, ctx: dict) -> None:
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


def fill_advance_paths(state: GameState) -> None:
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
