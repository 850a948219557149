"""Phase 5, reactions to charges (GF seed 003 l.285-287, l.610-616): a unit charged in phase 4
that went on ("continuer") and was not reached by the first half of the charge may take a reaction
test (d100 ≤ its class + modifiers, part 1's referee, ``test: reaction``; a directly controlling
character adds FC × 2, GF-C3). Its side chooses, unit by unit (``data/reactions.toml``): stand (no
test), or test to

* counter-charge the charger (l.395-397, l.610-612): the first half of its charge now (OR-GF42),
  the second in phase 9;
* evade (open order and characters only, l.403-405, l.614-616): it moves back in phase 6 and ends
  in disorder;
* fire at the charger in phase 8 (l.287), only if it did not fire last turn or the charger needs
  more than half the turn to reach it (OR-GF131);
* change formation at once (l.287, l.677): into the formations its orders would allow, from the
  centre, facing as it faced, its whole move spent; or cancel the formation change it was ordered
  (OR-GF130).

A failed test: it keeps its order and takes the charge (l.287)."""

from __future__ import annotations

from functools import lru_cache

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt

from .. import referee
from ..rows import Row, load, one
from . import curses, moves, orders, spell_modifiers
from .charges import charge_move
from .actions import emit
from .rules import rules
from .state import Battle, Unit

REF = "GF seed 003 l.285-287"
FILE = "reactions.toml"


class Reaction(Row):
    id: str
    name_en: str
    printed: str
    test: bool
    open_order_only: bool = False
    missile_only: bool = False
    order: str = ""       # a formation change: the order whose change it makes at once
    formation: str = ""
    cancels: bool = False


class FireCondition(Row):
    turns_back: int
    charger_share: float


class After(Row):
    order: str


@lru_cache(maxsize=None)
def table() -> dict[str, Reaction]:
    return {r.id: r for r in load(Reaction, FILE, "reaction")}


@lru_cache(maxsize=None)
def fire_rule() -> FireCondition:
    return one(FireCondition, FILE, "fire_condition")


@lru_cache(maxsize=None)
def after() -> After:
    return one(After, FILE, "after")


REACTIONS = tuple(table())


def fire_condition(state: Battle, u: Unit) -> tuple[bool, list[str]]:
    """"Le tir n'est possible que si l'unité n'a pas tiré lors du tour précédent ou si l'unité
    chargeant met plus de la moitié du tour pour l'atteindre" (l.287; OR-GF131): (allowed, the steps)."""
    rule = fire_rule()
    last = state.turn - rule.turns_back
    fired = False
    for ev in reversed(state.log):
        if ev.get("turn", 0) < last:
            break
        if ev.get("turn") == last and ev.get("type") == "fire" and ev.get("unit") == u.id and ev.get("target"):
            fired = True
            break
    if not fired:
        return True, [f"{u.name} did not fire in turn {last}: it may fire at the charger"]
    steps = [f"{u.name} fired in turn {last}"]
    charger = state.units.get(state.reacting.get(u.id, ""))
    if charger is None:
        return False, steps
    gap = tt.nearest_distance(charger.footprint(), u.footprint())
    reach, _ = moves.allowance(charger, "charge")
    needed = reach * rule.charger_share
    ok = gap > needed + 1e-6
    steps.append(f"{charger.name} is {gap:.1f} cm away, {'more' if ok else 'no more'} than {rule.charger_share:g} "
                 f"× its charge move of {reach:g} cm ({needed:g} cm): it "
                 + ("needs more than half the turn to reach it" if ok else "reaches it within half the turn"))
    return ok, steps


def why_not(state: Battle, u: Unit, reaction: str, formation_orders: set[str] | None = None) -> tuple[str, str] | None:
    """Why ``u`` may not choose ``reaction`` now (the reason and its citation), None if it may
    (``formation_orders``: the formation changes its orders allow, when already known)."""
    row = table().get(reaction)
    if row is None:
        return f"{reaction!r} is not a reaction (may: {', '.join(table())})", REF
    from . import coyolxauhqui
    if reaction in coyolxauhqui.forbidden_rule().reactions and coyolxauhqui.master(state, u) is not None:
        # possessed: not to attack his own side nor charge into his captor's (l.1284, OR-GF127, OR-GF149)
        fr = coyolxauhqui.forbidden_rule()
        return (f"{u.name} is possessed (« Possession de Coyolxauhqui »): no {row.name_en} — not to kill himself nor "
                "attack a friendly unit", f"{fr.ref}; {fr.decision}")
    if (u.inside or u.split) and reaction not in ("stand", "fire"):
        # in a building: no counter-charge nor evasion, only stand or fire (l.792, OR-GF82)
        return f"{u.name} is in a building: it may only stand or fire", "GF seed 003 l.792; OR-GF82"
    if row.open_order_only and not u.open_order:
        return f"{u.name} is not in open order: only open order and characters evade", "GF seed 003 l.403-405"
    if row.missile_only:
        if not (u.missile and u.kind == "troop"):
            return f"{u.name} has no missile weapon to fire", row.ref
        ok, steps = fire_condition(state, u)
        if not ok:
            return f"{u.name} may not fire at the charger: " + "; ".join(steps), rule_ref(fire_rule())
    if row.formation:
        if u.kind != "troop":
            return f"{u.name} is no troop: only troops change formation", row.ref
        offered = formation_orders if formation_orders is not None else {o["id"] for o in _formation_options(state, u)}
        if row.order not in offered:
            return (f"{u.name} may not change into {row.formation} ({u.formation} now; open order only from line, "
                    "l.389)", f"{row.ref}; {row.decision}")
    if row.cancels and not cancellable(u):
        return f"{u.name} has no formation change to cancel (its order: {u.order or 'none'})", f"{row.ref}; {row.decision}"
    return None


def rule_ref(row: Row) -> str:
    return f"{row.ref}; {row.decision}" if row.decision else row.ref


def cancellable(u: Unit) -> bool:
    """Its order is a formation change not yet made (they are made in phase 6, l.677)."""
    play = rules().order_play.get(u.order or "")
    return bool(play and play.formation)


def _formation_options(state: Battle, u: Unit) -> list[dict]:
    # the orders' own limits (l.379-389)
    return [o for o in orders.options(state, u) if rules().order_play.get(o["id"]) and rules().order_play[o["id"]].formation]


def choices(state: Battle, u: Unit) -> list[str]:
    known = {o["id"] for o in _formation_options(state, u)} if u.kind == "troop" and not (u.inside or u.split) else set()
    return [r for r in table() if why_not(state, u, r, known) is None]


def pending(state: Battle, side: str) -> list[Unit]:
    """The charged units whose reaction ``side`` chooses: its own, and an enemy character its priest possesses
    (« Possession de Coyolxauhqui », "Il doit obéir à chaque ordre du prêtre", l.1282; OR-GF149)."""
    from . import coyolxauhqui
    return [state.units[uid] for uid in sorted(state.reacting)
            if coyolxauhqui.controller(state, state.units[uid]) == side]


def declare(state: Battle) -> None:
    """After phase 4: the charged units that may react."""
    from . import fighters
    state.reacting = {}
    for u in state.units.values():
        if not u.alive or not u.charge_half or u.order != "charger" or u.status != "ok":
            continue
        t = state.units.get(u.target or "")
        if (t is None or not t.alive or t.status != "ok" or t.order in ("charger", "contre_charger")
                or "uncontrolled_advance" in t.markers or fighters.in_combat(state, t) or t.id in state.reacting):
            continue
        state.reacting[t.id] = u.id


def check(state: Battle, u: Unit, reaction: str) -> None:
    if u.id not in state.reacting:
        raise IllegalAction(f"{u.name} has no reaction to make (only a unit charged in phase 4, not yet reached, "
                            "that went on)", REF)
    why = why_not(state, u, reaction)
    if why is not None:
        raise IllegalAction(f"{why[0]} (may: {', '.join(choices(state, u))})", why[1])


def react(state: Battle, u: Unit, reaction: str) -> None:
    charger = state.units[state.reacting.pop(u.id)]
    if reaction == "stand":
        emit(state, "reaction", f"{u.name} stands and awaits {charger.name}'s charge",
             f"{u.name} reste en place et attend la charge de {charger.name}", side=u.side, ref=REF, unit=u.id,
             reaction="stand")
        return
    row = table()[reaction]
    cursed = curses.evil_eye(state, u)
    if cursed is not None:  # "ratent automatiquement leurs tests de réactions" (l.218, OR-GF137): no die
        eye = curses.evil_eye_rule()
        emit(state, "reaction", f"{u.name}: reaction test to {row.name_en} fails automatically: {cursed.name}'s weapon "
             "is cursed with Mauvais œil — it takes the charge",
             f"{u.name} : le test de réaction pour {row.printed} est raté d'office : l'arme de {cursed.name} est "
             "maudite (Mauvais œil) — elle subit la charge", side=u.side, ref=eye.ref, decision=eye.decision,
             unit=u.id, reaction=reaction, result="failed",
             ruling={"explanation": [eye.text_en], "citations": [eye.ref, eye.decision]})
        return
    d100 = state.dice.roll(100)
    sit: dict = {"kind": "command_test", "test": "reaction", "d100": d100}
    if u.kind == "troop":
        sit.update({"race": u.race, "class": u.cls})
    elif u.kind in ("creature", "monster"):
        sit[u.kind] = u.being
    else:
        sit.update({"race": u.race, "class": "A"})  # a character reacts as the best class (OR-GF42)
    if u.led_by and u.led_by in state.units:
        sit["character"] = {"FC": state.units[u.led_by].FC}
        sit["modifiers"] = [{"modifier": "character_controls", "count": 1}]
    # a spell lasting on the unit (Hurlement, OR-GF120)
    spell_modifiers.reaction(state, u, sit, [], {"creature": "command_creatures", "monster": "command_monsters"}
                             .get(u.kind, "command"))
    ruling = referee.adjudicate(sit)
    ok = bool(ruling.get("success"))
    row = table()[reaction]
    names = (row.name_en, row.printed)
    emit(state, "reaction",
         f"{u.name}: reaction test to {names[0]}, d100 {d100} against {ruling.get('threshold')} — "
         + ("passed" if ok else "failed: it takes the charge"),
         f"{u.name} : test de réaction pour {names[1]}, d100 {d100} contre {ruling.get('threshold')} — "
         + ("réussi" if ok else "raté : elle subit la charge"), side=u.side, ref=REF, unit=u.id, reaction=reaction,
         result="passed" if ok else "failed", ruling=ruling)
    if not ok:
        return
    if row.formation or row.cancels:
        change(state, u, row)
    elif reaction == "fire":
        u.order, u.target = "tirer", charger.id
    elif reaction == "evade":
        u.order, u.target = "s_evader", None
    else:
        u.order, u.target = "charger", charger.id
        u.mark("counter_charge")
        u.charging, u.charge_half = True, True
        charge_move(state, u, charger, half=True)


def change(state: Battle, u: Unit, row: Reaction) -> None:
    """A formation change made at once (l.287), from the centre and facing as before, its whole move
    spent (l.677); or the ordered change cancelled. Then the unit waits for the charge (OR-GF130).
    No room on the table or among the units: not made, as an ordered change (OR-GF39)."""
    wait = after()
    if row.cancels:
        was = u.order
        u.order, u.target, u.fire_targets = wait.order, None, []
        emit(state, "manoeuvre", f"{u.name} cancels its change of formation ({was}) and stays in {u.formation}",
             f"{u.name} annule son changement de formation ({was}) et reste en {FORMATION_FR[u.formation]}",
             side=u.side, ref=row.ref, decision=row.decision, unit=u.id)
        return
    before = (u.formation, u.heading)
    u.set_formation(row.formation)
    if not moves.table_box().covers(u.footprint()) or _overlaps(state, u):
        u.set_formation(before[0])
        u.heading = before[1]
        emit(state, "manoeuvre_blocked", f"{u.name} has no room to change into {row.formation}: it stays as it was",
             f"{u.name} n'a pas la place de passer en {FORMATION_FR[row.formation]} : elle reste telle quelle",
             side=u.side, ref=row.ref, decision="OR-GF39, OR-GF130", unit=u.id)
        return
    u.order, u.target, u.fire_targets = wait.order, None, []
    u.moved = True  # "Cela consume la totalité du mouvement de l'unité" (l.677)
    emit(state, "manoeuvre", f"{u.name} changes into {row.formation} at once, from its centre and facing as before; "
         "its whole move is spent",
         f"{u.name} passe immédiatement en {FORMATION_FR[row.formation]}, à partir de son centre et sans changer de "
         "face ; tout son mouvement y passe", side=u.side, ref=row.ref, decision=row.decision, unit=u.id,
         formation=row.formation)


FORMATION_FR = {"line": "ligne", "column": "colonne", "open": "ordre ouvert"}


def _overlaps(state: Battle, u: Unit) -> bool:
    fp = u.footprint()
    return any(o.id != u.id and o.alive and fp.intersection(o.footprint()).area > 0.01
               and "character" not in (o.kind, u.kind) for o in state.units.values())
