"""Fire and melee at a riderless horse (Magna Carta §6.8).

"Si un joueur décide d'attaquer un cheval sans cavalier ..., il résout le combat ou le tir comme
s'il avait affaire à un personnage à cheval sans armure. Les résultats C, D, E ou F pour les
tirs, et E, F, G ou H pour les combats, entraînent la mort du cheval. ... Tous les chevaux ont un
potentiel de 1 point en défense."

* The horse is resolved as a stand-in rider (:func:`stand_in`): two hexes, no armour, the
  defence of data ``melee.toml [lone_horse]``; the fire and melee rulings of
  :mod:`~oriflamme.rulesets.magna_carta.engine.fire` and :mod:`~oriflamme.rulesets.magna_carta.engine.melee` do the rest (range and line
  of fire to the better hex, cover, terrain of the worse hex, several attackers, weather).
* Which letters kill it is data (``kills_lone_horse`` on the result rows). A killed horse
  becomes a dead horse (a body, §4.2.2) in the hex of its head.
* Any horse not of the attacker's side may be attacked (an uncontrolled one included).
* **Retreats** (Oriflamme's reading of "comme s'il avait affaire à un personnage à cheval" and
  of "Si un cheval est tenu par la bride et qu'il doit reculer, l'animal recule mais pas le
  personnage qui le conduit"): the results that make a rider retreat (A under fire: 4 hexes;
  C in melee: 1 hex, data) make the horse back away as a rider would, keeping its facing
  (:func:`retreat`: ``paths.retreat_paths`` for a stand-in, away from the shooter, never
  ending next to an attacker). The engine picks the path (a horse has no player: the one
  ending farthest from the shooter or attackers, then by labels). A horse that finds no
  retreat stays (a rider would be wounded; a horse is not). A led horse retreats alone: its
  leader stays, and lets go of it unless it still touches his counter.
* Other results do nothing to the horse. The results that strike the attackers in melee (A:
  an attacker wounded, B: the attackers retreat one hex, away from the horse) are played as in
  any combat. A missed shot may stray (§5.4.5) as any other.
* A horse is attacked alone: not in the same attack as characters.
"""

from __future__ import annotations

from itertools import combinations

from ....core.dice import roll_keyed
from ..resolve.ruling import Ruling, Step
from . import handlers
from .character import Character
from .combat import casualty, order_retreat, stray
from .events import animal, emit
from .fire import fire_ruling
from .animals import horse_name
from .melee import attacker_problem, can_strike, melee_ruling
from .state import GameState, Horse
from . import defensive_fire
from .carcasses import add_carcass
from .carts import retreat_team
from .kneeling import collapse
from .led import let_go, touches
from .paths import retreat_paths

REF = "MC §6.8"


def stand_in(state: GameState, horse: Horse) -> Character:
    """The riderless horse as the rulings see it: a rider without armour, defence 1 (§6.8)."""
    d = state.rules.lone_horse.defence
    return Character(id=f"horse:{horse.id}", name=horse_name(horse), side=horse.side or "", type="horse",
                     attack=0, defence=d, movement=0, wounded_attack=0, wounded_defence=d, wounded_movement=0,
                     stunned_defence=d, armour=False, mounted=True, hex=horse.hex, facing=horse.facing)


def _horse_problem(horse: Horse | None, side: str) -> tuple[str, str] | None:
    if horse is None or not horse.alive:
        return ("there is no riderless horse there", REF)
    if horse.side == side:
        return (f"{horse_name(horse)} is held by side {side} itself", REF)
    return None


def _kills(state: GameState, table: str, letter: str | None, melee: bool) -> bool:
    rows = state.rules.melee_results if melee else state.rules.fire_results
    res = rows.get((table, letter or "-"))
    return bool(res and res.kills_lone_horse)


def _odds_note(state: GameState, r: Ruling, melee: bool) -> None:
    if not r.legal or not r.probabilities:
        return
    p = sum((v for k, v in r.probabilities.items() if _kills(state, r.data.get("table", "vs_mounted"), k, melee)), 0)
    r.data["horse_killed_probability"] = float(p)
    r.step(f"the horse is killed on {', '.join(_letters(state, melee))}: {float(p):.0%}", REF)


def _letters(state: GameState, melee: bool) -> list[str]:
    rows = state.rules.melee_results if melee else state.rules.fire_results
    return sorted(k[1] for k, v in rows.items() if k[0] == "vs_mounted" and v.kills_lone_horse)


# --- fire ----------------------------------------------------------------------------------
def fire_ruling_at(state: GameState, shooter: Character, horse: Horse | None, die: int | None = None) -> Ruling:
    prob = _horse_problem(horse, shooter.side)
    if prob:
        return Ruling(kind="fire").refuse(*prob)
    r = fire_ruling(state, shooter, stand_in(state, horse), die)
    if r.legal:
        r.steps.insert(0, Step(f"{horse_name(horse)}, riderless, is shot at as a rider without armour", REF))
        if die is None:
            _odds_note(state, r, melee=False)
    return r


def fire_targets(state: GameState, shooter: Character) -> list[Horse]:
    return [x for x in sorted(state.riders.horses.values(), key=lambda x: x.id)
            if x.alive and x.side != shooter.side and fire_ruling_at(state, shooter, x).legal]


def fire_at(state: GameState, shooter: Character, horse: Horse) -> None:
    die = roll_keyed(state.dice, 10, lambda: fire_ruling_at(state, shooter, horse).faces)  # the fire table's results
    target = stand_in(state, horse)
    r = fire_ruling_at(state, shooter, horse, die)
    state.phase.fired.add(shooter.id)
    defensive_fire.record_offensive(state, shooter)  # fire frequency and movement limit (§5.1)
    emit(state, "fire_horse", ruling=r, msg="fire.result", params={"shooter": shooter.name, "target": animal(horse),
                                                                   "result": r.result},
         shooter=shooter.id, horse=horse.id, result=r.result)
    res = state.rules.fire_results[(r.data["table"], r.result)]
    if res.kills_lone_horse:
        kill(state, horse, res.ref)
    elif res.miss:
        stray(state, shooter, target)
    elif res.retreat:
        retreat(state, horse, res.retreat, [shooter.hex], (), res.ref)
    else:
        unharmed(state, horse, r.result)


# --- melee ---------------------------------------------------------------------------------
def attack_ruling(state: GameState, attackers: list[Character], horse: Horse | None, die: int | None = None) -> Ruling:
    if not attackers:
        return Ruling(kind="melee").refuse("an attack needs at least one attacker", "MC §6")
    prob = _horse_problem(horse, attackers[0].side)
    if prob:
        return Ruling(kind="melee").refuse(*prob)
    r = melee_ruling(state, attackers, [stand_in(state, horse)], die)
    if r.legal:
        r.steps.insert(0, Step(f"{horse_name(horse)}, riderless, is attacked as a rider without armour, "
                               f"defence {state.rules.lone_horse.defence}", REF))
        if die is None:
            _odds_note(state, r, melee=True)
    return r


def attack_options(state: GameState, side: str) -> list[tuple[tuple[str, ...], str]]:
    """(attackers, horse id) for every legal attack of ``side`` on a horse: every group of
    able attackers next to it (all of them and each alone when more than four)."""
    out = []
    able = sorted((c for c in state.characters.values()
                   if c.side == side and c.hex is not None and attacker_problem(state, c) is None), key=lambda c: c.id)
    for horse in sorted(state.riders.horses.values(), key=lambda x: x.id):
        if not horse.alive or horse.side == side:
            continue
        proxy = stand_in(state, horse)
        cands = [c for c in able if c.touches(proxy) and can_strike(state, c, proxy)]
        if len(cands) <= 4:
            groups = [g for n in range(1, len(cands) + 1) for g in combinations(cands, n)]
        else:
            groups = [(c,) for c in cands] + [tuple(cands)]
        for g in groups:
            if attack_ruling(state, list(g), horse).legal:
                out.append((tuple(c.id for c in g), horse.id))
    return out


def attack_problem(state: GameState, ids: tuple[str, ...], horse: Horse | None) -> tuple[str, str] | None:
    ch = state.characters
    if not ids or any(x not in ch for x in ids):
        return ("an attack needs known attackers", "MC §6")
    if any(not x < y for x, y in zip(ids, ids[1:])):
        return ("list the attackers once each, in id order", "MC §6.2")
    atts = [ch[x] for x in ids]
    if any(a.side != state.active for a in atts):
        return (f"attackers must belong to side {state.active}", "MC §6")
    r = attack_ruling(state, atts, horse)
    if not r.legal:
        return (r.steps[-1].text, r.steps[-1].ref)
    return None


def attack(state: GameState, attackers: list[Character], horse: Horse) -> None:
    die = roll_keyed(state.dice, 10, lambda: attack_ruling(state, attackers, horse).faces)  # the melee table's results
    r = attack_ruling(state, attackers, horse, die)
    for a in attackers:
        state.phase.attacked.add(a.id)
        state.phase.engaged.add(a.id)
    emit(state, "melee_horse", ruling=r, msg="melee.result", params={
        "attackers": ', '.join(a.name for a in attackers), "defenders": animal(horse),
        "column": r.data['column'], "die": r.die, "result": r.result},
         attackers=[a.id for a in attackers], horse=horse.id, result=r.result)
    res = state.rules.melee_results.get((r.data["table"], r.result))
    if res is not None and res.kills_lone_horse:
        kill(state, horse, res.ref)
    elif res is not None and res.attacker_wounded:
        ctx = {"attackers": [a.id for a in attackers], "defenders": [], "defender_hexes": {}, "attacker_hexes": {},
               "letter": r.result, "ref": res.ref, "unhorse": False, "horse_killed": False}
        casualty(state, ctx, "attacker", "wound")
    elif res is not None and res.defender_retreats:
        retreat(state, horse, res.defender_retreats, [h for a in attackers for h in a.hexes],
                tuple(a.id for a in attackers), res.ref)
    elif res is not None and res.attacker_retreats:
        for a in attackers:
            away = min(horse.hexes, key=lambda h: (a.distance_to(h), h.label))
            order_retreat(state, a, res.attacker_retreats, away_from=away, combatants=(), ref=res.ref)
    else:
        unharmed(state, horse, r.result)


# --- outcomes ------------------------------------------------------------------------------
def kill(state: GameState, horse: Horse, ref: str) -> None:
    name = animal(horse)
    if horse.passenger is not None:  # §4.6.8 the litter falls with its camel (engine/kneeling.py)
        collapse(state, horse)
    del state.riders.horses[horse.id]
    add_carcass(state, horse.hex)  # a dead horse is a body in the hex of its head (§4.2.2)
    emit(state, "horse_killed", msg="animal.killed", params={"horse": name}, horse=horse.id, hex=horse.hex.label, ref=ref)


def retreat(state: GameState, horse: Horse, n: int, away: list, combatants: tuple[str, ...], ref: str) -> None:
    """The lone horse backs away ``n`` hexes as a rider would (see the module's docstring);
    ``away``: the hexes of the shooter or of the attackers."""
    if horse.harnessed_to is not None:  # §6.8: the draught horse's cart backs with it
        retreat_team(state, horse, n, ref)
        return
    proxy = stand_in(state, horse)
    away_from = away[0] if len(away) == 1 else None
    del state.riders.horses[horse.id]  # its own hexes do not block it
    try:
        paths = retreat_paths(state, proxy, n, away_from, combatants)
    finally:
        state.riders.horses[horse.id] = horse
    name = animal(horse)
    if not paths:
        emit(state, "horse_retreat", msg="animal.retreat_blocked", params={"horse": name, "n": n}, horse=horse.id, ref=ref)
        return
    path = min(paths, key=lambda p: (-min(p[-1].distance(x) for x in away), [h.label for h in p]))
    horse.hex = path[-1]
    emit(state, "horse_retreat", msg="animal.retreats", params={
        "horse": name, "n": n, "hexes": f"{horse.hexes[0].label}-{horse.hexes[1].label}"},
         horse=horse.id, path=[h.label for h in path], ref=ref)
    leader = state.characters.get(horse.led_by or "")
    if leader is not None:
        # §6.8: "l'animal recule mais pas le personnage qui le conduit"
        if touches(leader, horse):
            emit(state, "horse_retreat", msg="lead.keeps", params={"name": leader.name, "horse": animal(horse)},
                 char=leader.id, horse=horse.id, ref=REF)
        else:
            let_go(state, horse, "lead.why.retreated", REF)


def unharmed(state: GameState, horse: Horse, letter: str | None) -> None:
    emit(state, "horse_unharmed", msg="animal.unharmed", params={"horse": animal(horse), "letter": letter or '-'},
         horse=horse.id, ref=f"{REF}; docs/decisions.md (lone horses)")


# =============================================================================================
# action handlers (engine/handlers.py)
# =============================================================================================
def _fire_at_horse_ruling(state: GameState, a) -> Ruling:
    if a.shooter not in state.characters:
        return Ruling(kind="fire").refuse(f"unknown character {a.shooter!r}")
    return fire_ruling_at(state, state.characters[a.shooter], state.riders.horses.get(a.horse))


def _attack_horse_ruling(state: GameState, a) -> Ruling:
    ch = state.characters
    unknown = [x for x in a.attackers if x not in ch]
    if unknown:
        return Ruling(kind="melee").refuse(f"unknown character {unknown[0]!r}")
    horse = state.riders.horses.get(a.horse)
    prob = attack_problem(state, a.attackers, horse)
    return Ruling(kind="melee").refuse(*prob) if prob else attack_ruling(state, [ch[x] for x in a.attackers], horse)


handlers.register("fire_at_horse", explain=_fire_at_horse_ruling,
                  check=lambda state, a: handlers.refuse_unless_legal(_fire_at_horse_ruling(state, a)),
                  do=lambda state, a: fire_at(state, state.characters[a.shooter], state.riders.horses[a.horse]))
handlers.register("attack_horse", explain=_attack_horse_ruling,
                  check=lambda state, a: handlers.refuse_unless_legal(_attack_horse_ruling(state, a)),
                  do=lambda state, a: attack(state, [state.characters[x] for x in a.attackers], state.riders.horses[a.horse]))
