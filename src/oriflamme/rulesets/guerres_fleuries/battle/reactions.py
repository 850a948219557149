"""Phase 5, reactions to charges (GF seed 003 l.285-287, l.610-616): a unit charged in phase 4
that went on ("continuer") and was not reached by the first half of the charge may take a reaction
test (d100 ≤ its class + modifiers, part 1's referee, ``test: reaction``; a directly controlling
character adds FC × 2, GF-C3). Its side chooses, unit by unit: stand (no test), or test to

* counter-charge the charger (l.395-397, l.610-612): the first half of its charge now (OR-GF42),
  the second in phase 9;
* evade (open order and characters only, l.403-405, l.614-616): it moves back in phase 6 and ends
  in disorder;
* fire at the charger in phase 8 (l.287; the condition on last turn's fire is not checked: partial).

A failed test: it keeps its order and takes the charge (l.287)."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction

from .. import referee
from . import spell_modifiers
from .charges import charge_move
from .actions import emit
from .state import Battle, Unit

REF = "GF seed 003 l.285-287"
REACTIONS = ("stand", "counter_charge", "evade", "fire")


def choices(state: Battle, u: Unit) -> list[str]:
    if u.inside:  # in a building: no counter-charge nor evasion, only stand or fire (l.792, OR-GF82)
        return ["stand"] + (["fire"] if u.missile and u.kind == "troop" else [])
    out = ["stand", "counter_charge"]
    if u.open_order:
        out.append("evade")
    if u.missile and u.kind == "troop":
        out.append("fire")
    return out


def pending(state: Battle, side: str) -> list[Unit]:
    return [state.units[uid] for uid in sorted(state.reacting) if state.units[uid].side == side]


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
    if reaction not in choices(state, u):
        raise IllegalAction(f"{u.name} may {', '.join(choices(state, u))} (not {reaction!r})",
                            "GF seed 003 l.792; OR-GF82" if u.inside else "GF seed 003 l.403-405" if reaction == "evade" else REF)


def react(state: Battle, u: Unit, reaction: str) -> None:
    charger = state.units[state.reacting.pop(u.id)]
    if reaction == "stand":
        emit(state, "reaction", f"{u.name} stands and awaits {charger.name}'s charge",
             f"{u.name} reste en place et attend la charge de {charger.name}", side=u.side, ref=REF, unit=u.id,
             reaction="stand")
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
    names = {"counter_charge": ("counter-charge", "contre-charger"), "evade": ("evade", "s'évader"),
             "fire": ("fire at the charger", "tirer sur le chargeur")}[reaction]
    emit(state, "reaction",
         f"{u.name}: reaction test to {names[0]}, d100 {d100} against {ruling.get('threshold')} — "
         + ("passed" if ok else "failed: it takes the charge"),
         f"{u.name} : test de réaction pour {names[1]}, d100 {d100} contre {ruling.get('threshold')} — "
         + ("réussi" if ok else "raté : elle subit la charge"), side=u.side, ref=REF, unit=u.id, reaction=reaction,
         result="passed" if ok else "failed", ruling=ruling)
    if not ok:
        return
    if reaction == "fire":
        u.order, u.target = "tirer", charger.id
    elif reaction == "evade":
        u.order, u.target = "s_evader", None
    else:
        u.order, u.target = "charger", charger.id
        u.mark("counter_charge")
        u.charging, u.charge_half = True, True
        charge_move(state, u, charger, half=True)
