"""Divine magic during the battle (GF La magie, seed 003 l.1134-1160; GF-J1…J4): "Il n'y a pas de phase
spécifique de magie… on arrête le cours normal de la partie et l'on résout immédiatement les effets des
sorts" (l.252). A priest or warrior-priest casts one spell a turn (l.1136, GF-J4), not in base contact
with the enemy except *Main de la mort* (l.1136), at a target within the spell's distance measured on
the table; the part-1 referee (kind ``magic``) rules the threshold, the d100 and, on a failure, the
magic failure table.

On the table (battle/spells.py, data/spell_effects.toml, OR-GF112): every spell whose effect the table can
represent — wounds and deaths, healing, FC, morale modifiers and fanatism for some turns, a missile
shield, the rally of a routing unit, quicksand, tremors; the others are ruled and explained, and listed
as not applied. A failed spell's row of the magic failure table is applied at once (l.1154, OR-GF113).
A priest casts only the spells he chose before the battle when his army names them (l.1136, OR-GF114).
A unit targeted by an enemy priest is disordered (l.1440) and tests its morale ("Etre la cible d'une
attaque magique", l.1593), with the spell's own modifier where it prints one."""

from __future__ import annotations

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop

from ..magic import data as magic_data
from ..names import RefereeError
from ..referee import adjudicate
from ..referee.wound import _state, _worst
from . import items_play, morale_play, spells
from .fighters import finish, in_combat, shape, touching, unit

REF_ONE_A_TURN = "GF seed 003 l.1136"
REF_CHOSEN = "GF seed 003 l.1136"
REF_CONTACT = "GF seed 003 l.1256-1258"
#: the spells whose effects the battle applies on the table (data/spell_effects.toml effect != "none")
APPLIED = tuple(sid for sid in magic_data().spells if spells.applied(sid))


def _situation(state, caster, spell: str, target, building=None) -> dict:
    # the army's type and level ("Prêtre-guerrier mineur") as the magic table prints it ("Prêtre guerrier mineur")
    sit = {"kind": "magic", "caster": (caster.type or caster.name).replace("-", " "), "spell": spell}
    sp = magic_data().spells.get(spell)
    if building is not None and (sp is None or sp.distance_cm is not None):
        sit["distance_cm"] = round(tabletop.nearest_distance(shape(caster), building.geometry), 3)
    if target is not None and target.id != caster.id and (sp is None or sp.distance_cm is not None):
        sit["distance_cm"] = round(tabletop.nearest_distance(shape(caster), shape(target)), 3)
    if in_combat(state, caster):
        sit["base_contact"] = True
    if caster.wounds:
        sit["wound_state"] = _worst(["none"] + [_state(w) for w in caster.wounds])
    items = items_play.modifiers(state, "magic", caster, target)  # the magic items (OR-GF151)
    if items:
        sit["modifiers"] = [{"modifier": mid} for mid, _ in items]
    return sit


def _check(state, caster_id: str, spell: str, target_id: str | None, destination=None):
    caster = unit(state, caster_id)
    building = spells.building(state, target_id)
    target = unit(state, target_id) if target_id and building is None else None
    if caster.kind != "character" or not caster.alive:
        raise IllegalAction(f"{caster.name or caster.id} cannot cast: only a living priest or warrior-priest "
                            "calls on his god", "GF seed 003 l.1136")
    if any(e.get("type") == "magic" and e.get("unit") == caster.id and e.get("turn") == getattr(state, "turn", None)
           for e in getattr(state, "log", [])):
        raise IllegalAction(f"{caster.name or caster.id} has already cast a spell this turn", REF_ONE_A_TURN)
    silent = spells.silenced(state, caster)
    if silent:
        raise IllegalAction(f"the gods do not answer {caster.name or caster.id} until the end of turn "
                            f"{silent['until_turn']}", silent["ref"])
    chosen = list(getattr(caster, "spells", None) or [])
    if chosen and spell not in chosen:
        raise IllegalAction(f"{caster.name or caster.id} did not choose « {spell} » before the battle "
                            f"(chosen: {', '.join(chosen)})", REF_CHOSEN)
    row = spells.spell_effects().get(spell)
    if building is not None and (row is None or not row.on_building):
        raise IllegalAction(f"« {magic_data().spells[spell].printed if row else spell} » is not cast at a building "
                            "(only a spell whose text names one: Eclair, Secousses telluriques)",
                            row.ref if row else "GF seed 003 l.1216, l.1308")
    if spell in magic_data().spells and building is None:
        ok, need = spells.target_ok(state, caster, spell, target)
        if not ok:
            raise IllegalAction(f"« {magic_data().spells[spell].printed} » is cast at {need}",
                                spells.spell_effects()[spell].ref)
        if magic_data().spells[spell].distance_cm is None and spell == "main_de_la_mort" and not touching(caster, target):
            raise IllegalAction("« Main de la mort » strikes an enemy in base contact with the priest", REF_CONTACT)
    if row is not None and row.effect == "jump":
        spells.check_jump(state, target, destination, row)  # Vol d'Ehecatl: where he lands (OR-GF123)
    elif destination is not None:
        raise IllegalAction(f"« {magic_data().spells[spell].printed} » moves nobody: no destination is given",
                            row.ref if row else REF_CHOSEN)
    try:
        sit = _situation(state, caster, spell, target, building)
        ruling = adjudicate(sit)
    except RefereeError as exc:
        raise IllegalAction(str(exc), "GF La magie > Procédure") from None
    return caster, target or building, sit, ruling


def preview(state, caster_id: str, spell: str, target_id: str | None = None, destination=None) -> dict:
    """The spell's threshold before the d100 (the referee's ``success_if_d100_below``), its range."""
    caster, target, sit, ruling = _check(state, caster_id, spell, target_id, destination)
    return {"unit": caster_id, "target": target_id, "spell": ruling["spell"], "situation": sit,
            "percent": max(0, ruling["threshold"] - 1), "success_if_d100_below": ruling["threshold"],
            "in_range": ruling.get("in_range", True), "ruling": ruling,
            "explanation": ruling["explanation"], "citations": ruling["citations"]}


def cast(state, caster_id: str, spell: str, target_id: str | None, dice, destination=None) -> list[dict]:
    """Cast a spell now: refused with the rule (IllegalAction) when it may not be cast; else the d100
    (and the failure d100), the ruling, and the effects on the table. ``destination``: (x, y, heading or
    None) where *Vol d'Ehecatl* sets its character down."""
    caster, target, sit, ruling = _check(state, caster_id, spell, target_id, destination)
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
    if full["success"] and target is not None and spells.building(state, target_id) is not None:  # l.802
        events += spells.strike_building(state, caster, target, full["spell"], dice, ev)
    elif full["success"] and target is not None:
        if destination is not None:
            ev["destination"] = [destination[0], destination[1],
                                 target.heading if destination[2] is None else destination[2]]
        shielded = _deflect(state, caster, target, dice, ev)  # the Bouclier de Tonatiuh (OR-GF155)
        events += _effects(state, caster, target, full, dice, ev) if shielded is None else shielded
    elif not full["success"] and full.get("failure_d100") is not None:
        events += spells.failure(state, caster, full["failure_d100"], dice, ev)
    return finish(state, events)


def _effects(state, caster, target, ruling, dice, ev) -> list[dict]:
    """The spell's effect (battle/spells.py), then, on an enemy unit, the magic attack's disorder (l.1440)
    and morale test (l.1593) with the spell's own modifier where it prints one."""
    out, extra = spells.apply(state, caster, target, ruling["spell"], dice, ev)
    weather = spells.spell_effects()[ruling["spell"]].effect in spells.WEATHER  # an area, not a unit (OR-GF122)
    if target.side != caster.side and target.alive and target.kind != "character" and not weather:
        target.set_disorder(True)
        ev["explanation"].append(f"{target.name or target.id}, target of a magic attack, is disordered")
        ev["citations"].append("GF seed 003 l.1440")
        out.append(morale_play.test(state, target.id, "magic_target", dice, caster.id, deferred=False, extra=extra))
    return out


def _deflect(state, caster, target, dice, ev) -> list[dict] | None:
    """A spell ``caster`` cast successfully at ``target``: None when no shield stands in its way (the spell
    takes effect); else the events of the shield — [] when it deflects the spell, the magic failure
    table's on its bearer when the spell breaks it (l.239, OR-GF155). Written in ``ev`` (``shield``)."""
    sh = items_play.shield()
    if target.side == caster.side or target.kind != "character" or not target.alive \
            or not items_play.same_item(getattr(target, "magic_item", None), sh.item):
        return None
    potential, deflected, broken = items_play.shield_record(state, target.id)
    if broken:
        return None
    name = target.name or target.id
    rolled = potential is None
    if rolled:
        potential = dice.roll(sh.potential_die)
    ev["citations"] += [sh.ref, sh.decision]
    steps = ev["explanation"]
    if rolled:
        steps.append(f"{name}'s « {sh.item} » meets its first spell: its potential, 1d{sh.potential_die}: {potential} "
                     "spell(s) (l.239)")
    if deflected < potential:
        ev["shield"] = {"unit": target.id, "potential": potential, "deflected": True, "broken": False}
        steps.append(f"the « {sh.item} » deflects the spell ({deflected + 1} of {potential}): no effect")
        ev["text"] += f" — deflected by {name}'s « {sh.item} »"
        ev["text_fr"] += f" — dévié par le « {sh.item} » de {name}"
        return []
    ev["shield"] = {"unit": target.id, "potential": potential, "deflected": False, "broken": True}
    d100 = dice.roll(100)
    steps.append(f"the « {sh.item} » has deflected its {potential} spell(s) and breaks: \"le porteur jette un dé sur "
                 f"la table des échecs magiques\" — d100 {d100}, on {name}")
    ev["text"] += f" — {name}'s « {sh.item} » breaks"
    ev["text_fr"] += f" — le « {sh.item} » de {name} se brise"
    return spells.failure(state, target, d100, dice, ev)
