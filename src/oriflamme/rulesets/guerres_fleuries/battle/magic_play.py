"""Divine magic during the battle (GF La magie, seed 003 l.1134-1160; GF-J1…J4): "Il n'y a pas de phase
spécifique de magie… on arrête le cours normal de la partie et l'on résout immédiatement les effets des
sorts" (l.252). A priest or warrior-priest casts one spell a turn (l.1136, GF-J4), not in base contact
with the enemy except *Main de la mort* (l.1136), at a target within the spell's distance measured on
the table; the part-1 referee (kind ``magic``) rules the threshold, the d100 and, on a failure, the
magic failure table.

On the table: *Blessure* kills a warrior or wounds a character, creature or monster; *Bonté divine*
heals a character's worst wound; *Aura de pouvoir* adds 2 to a character's FC. A unit targeted by an
enemy priest is disordered (l.1440) and tests its morale ("Etre la cible d'une attaque magique",
l.1593). The other spells and the failure results are ruled and explained, not yet applied to the
table (docs/rules-coverage.md § Les Guerres Fleuries, part 2)."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop

from ..magic import data as magic_data
from ..names import RefereeError
from ..referee import adjudicate
from ..referee.wound import _state, _worst
from . import crash_play, morale_play
from .casualties import remove_figures, wound
from .fighters import finish, in_combat, shape, unit

REF_ONE_A_TURN = "GF seed 003 l.1136"
APPLIED = ("blessure", "bonte_divine", "aura_de_pouvoir")
SEVERITY_ORDER = ("stunned", "blind", "cut", "wounded", "light", "severe", "serious", "critical")


def _situation(state, caster, spell: str, target) -> dict:
    # the army's type and level ("Prêtre-guerrier mineur") as the magic table prints it ("Prêtre guerrier mineur")
    sit = {"kind": "magic", "caster": (caster.type or caster.name).replace("-", " "), "spell": spell}
    if target is not None and target.id != caster.id:
        sit["distance_cm"] = round(tabletop.nearest_distance(shape(caster), shape(target)), 3)
    if in_combat(state, caster):
        sit["base_contact"] = True
    if caster.wounds:
        sit["wound_state"] = _worst(["none"] + [_state(w) for w in caster.wounds])
    return sit


def _check(state, caster_id: str, spell: str, target_id: str | None):
    caster = unit(state, caster_id)
    target = unit(state, target_id) if target_id else None
    if caster.kind != "character" or not caster.alive:
        raise IllegalAction(f"{caster.name or caster.id} cannot cast: only a living priest or warrior-priest "
                            "calls on his god", "GF seed 003 l.1136")
    if any(e.get("type") == "magic" and e.get("unit") == caster.id and e.get("turn") == getattr(state, "turn", None)
           for e in getattr(state, "log", [])):
        raise IllegalAction(f"{caster.name or caster.id} has already cast a spell this turn", REF_ONE_A_TURN)
    try:
        sit = _situation(state, caster, spell, target)
        ruling = adjudicate(sit)
    except RefereeError as exc:
        raise IllegalAction(str(exc), "GF La magie > Procédure") from None
    return caster, target, sit, ruling


def preview(state, caster_id: str, spell: str, target_id: str | None = None) -> dict:
    """The spell's threshold before the d100 (the referee's ``success_if_d100_below``), its range."""
    caster, target, sit, ruling = _check(state, caster_id, spell, target_id)
    return {"unit": caster_id, "target": target_id, "spell": ruling["spell"], "situation": sit,
            "percent": max(0, ruling["threshold"] - 1), "success_if_d100_below": ruling["threshold"],
            "in_range": ruling.get("in_range", True), "ruling": ruling,
            "explanation": ruling["explanation"], "citations": ruling["citations"]}


def cast(state, caster_id: str, spell: str, target_id: str | None, dice) -> list[dict]:
    """Cast a spell now: refused with the rule (IllegalAction) when it may not be cast; else the d100
    (and the failure d100), the ruling, and the effects on the table."""
    caster, target, sit, ruling = _check(state, caster_id, spell, target_id)
    if not ruling.get("in_range", True):
        raise IllegalAction(f"{target.name or target.id} is out of range of « {ruling['spell_printed']} »",
                            "GF seed 003 l.1151")
    roll = dice.roll(100)
    full = adjudicate({**sit, "d100": roll})
    if not full["success"]:
        full = adjudicate({**sit, "d100": roll, "failure_d100": dice.roll(100)})
    steps = [f"{caster.name or caster.id} calls on his god: « {full['spell_printed']} »"
             + (f" at {target.name or target.id}" if target is not None else "")] + full["explanation"]
    cites = list(full["citations"])
    text = (f"{caster.name or caster.id} casts « {full['spell_printed']} »: d100 {roll} against {full['threshold']} — "
            + ("it works" if full["success"] else f"it fails: {full.get('failure_en') or full.get('failure')}"))
    text_fr = (f"{caster.name or caster.id} lance « {full['spell_printed']} » : d100 {roll} contre "
               f"{full['threshold']} — " + ("réussi" if full["success"] else f"échec : {full.get('failure')}"))
    ev = {"type": "magic", "unit": caster.id, "side": caster.side, "target": target_id, "spell": full["spell"],
          "d100": roll, "success": full["success"], "ruling": full, "text": text, "text_fr": text_fr,
          "explanation": steps, "citations": cites}
    events = [ev]
    if full["success"] and target is not None:
        events += _effects(state, caster, target, full, dice, ev)
    return finish(state, events)


def _effects(state, caster, target, ruling, dice, ev) -> list[dict]:
    spell, out = ruling["spell"], []
    spell_ref = magic_data().spells[spell].ref
    if spell == "blessure":
        if target.kind == "troop":
            out.append(remove_figures(target, 1))
            ev["explanation"].append(f"« Blessure » on a simple warrior: one figure of {target.name or target.id} dies")
        else:
            altitude = target.altitude
            out.append(wound(target, dice))
            crash_play.note_fall(state, target, altitude, out[-1])  # killed in the air: it crashes (l.897)
            ev["explanation"].append(f"« Blessure » on {target.name or target.id}: one wound")
        ev["citations"].append(spell_ref)
    elif spell == "bonte_divine" and target.kind == "character" and target.wounds:
        worst = max(target.wounds, key=lambda w: SEVERITY_ORDER.index(w) if w in SEVERITY_ORDER else 0)
        target.wounds.remove(worst)
        ev["explanation"].append(f"« Bonté divine » heals {target.name or target.id}'s worst wound ({worst})")
        ev["citations"].append(spell_ref)
    elif spell == "aura_de_pouvoir" and target.kind == "character":
        target.FC += 2
        ev["explanation"].append(f"« Aura de pouvoir »: {target.name or target.id}'s FC + 2 = {target.FC} for the day")
        ev["citations"].append(spell_ref)
    elif spell not in APPLIED:
        ev["explanation"].append(f"effect (as printed): {ruling.get('effect_en') or ruling.get('effect')} — not applied "
                                 "to the table yet")
    if target.side != caster.side and target.alive and target.kind != "character":
        target.disorder = True
        if "disorder" not in target.markers:
            target.markers.append("disorder")
        ev["explanation"].append(f"{target.name or target.id}, target of a magic attack, is disordered")
        ev["citations"].append("GF seed 003 l.1440")
        out.append(morale_play.test(state, target.id, "magic_target", dice, caster.id, deferred=False))
    return out
