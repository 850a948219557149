"""``"kind": "magic"``: a priest's or warrior-priest's spell (GF La magie > Procédure; Tables
récapitulatives > Magie). GF-J1: threshold = level % + the spell's difficulty + modifiers; the
spell works if d100 < threshold (strict, as printed); a failure reads the magic failure table."""

from __future__ import annotations

from .. import d100, modifiers
from ..magic import data
from ..morale import data as morale_data
from ..names import RefereeError, match
from . import Ruling, kind
from ._fields import die, flag, number, only

FIELDS = {"caster", "level", "spell", "modifiers", "d100", "wound_state", "distance_cm", "base_contact",
          "failure_d100"}
CASTERS = {"pretre": ["prêtre", "priest"], "pretre_guerrier": ["prêtre-guerrier", "prêtre guerrier",
                                                               "warrior-priest", "warrior priest"]}
LEVELS = {"mineur": ["mineur", "minor"], "majeur": ["majeur", "major"], "legendaire": ["légendaire", "legendary"]}
WOUND_MODIFIER = {"light": "lightly_wounded", "serious": "seriously_wounded", "grave": "grievously_wounded"}


@kind("magic")
def magic(situation: dict) -> dict:
    only(situation, FIELDS, "magic")
    m = data()
    r = Ruling("magic")
    full = {f"{x.caster}:{x.level}": [x.printed] for x in m.levels}
    caster = match("caster", situation.get("caster"), CASTERS | full)
    given_level = match("level", situation["level"], LEVELS) if situation.get("level") is not None else None
    if ":" in caster:  # the printed level line, e.g. "Prêtre guerrier majeur"
        caster, level = caster.split(":")
        if given_level not in (None, level):
            raise RefereeError(f"field level: {situation['level']!r} contradicts the caster "
                               f"{situation['caster']!r}")
    elif given_level is None:
        raise RefereeError("field level: missing (mineur, majeur or légendaire), or name the caster by its "
                           "printed level line (e.g. 'Prêtre guerrier majeur')")
    else:
        level = given_level
    lv = m.level(caster, level)
    spell = m.spells[match("spell", situation.get("spell"),
                           {s.id: [s.printed, s.name_en, f"« {s.printed} »"] for s in m.spells.values()})]
    r.fields.update({"caster": caster, "level": level, "spell": spell.id, "spell_printed": spell.printed,
                     "spell_en": spell.name_en})
    r.step(f"{lv.printed}: {lv.pct} %", lv.ref)
    r.step(f"« {spell.printed} »: difficulty {spell.difficulty:+d} %, distance {spell.distance}", spell.ref,
           spell.decision)

    # where it may be cast (l.1136; GF-J3)
    if flag(situation, "base_contact") and spell.id != m.rules.not_in_base_contact_except:
        raise RefereeError("field base_contact: the caster cannot be in base contact with the enemy except for "
                           "« Main de la mort » (GF La magie; GF seed 003 l.1136)")
    dist = number(situation, "distance_cm", required=False)
    if dist is not None:
        if spell.distance_cm is None:
            raise RefereeError(f"field distance_cm: « {spell.printed} » has no distance in cm "
                               f"(printed: {spell.distance!r})")
        in_range = dist <= spell.distance_cm
        r.fields["in_range"] = in_range
        r.step(f"Distance {dist:g} cm {'≤' if in_range else '>'} {spell.distance_cm} cm: "
               f"{'in range' if in_range else 'out of range, the spell cannot be cast'}", spell.ref, "GF-J3")

    given = situation.get("modifiers")
    total, terms = modifiers.applied("magic", given)
    if situation.get("wound_state") is not None:
        state = match("wound_state", situation["wound_state"], {s.id: s.names for s in morale_data().states.values()})
        if state != "none":
            mid = WOUND_MODIFIER[state]
            if any(t["modifier"] in WOUND_MODIFIER.values() for t in terms):
                raise RefereeError("field wound_state: the wound is already among the modifiers; give it once")
            row = modifiers.modifiers("magic")[mid]
            total += row.value
            terms.append({"modifier": mid, "printed": row.printed, "value": row.value, "count": 1,
                          "total": row.value, "ref": row.ref, "decision": "GF-G3", "from_wound_state": state})
    for t in terms:
        r.step(f"Modifier \"{t['printed']}\" {t['value']:+d} × {t['count']} = {t['total']:+d}", t["ref"], t["decision"])
    threshold = lv.pct + spell.difficulty + total
    r.fields.update({"base_pct": lv.pct, "difficulty": spell.difficulty, "modifiers": terms,
                     "modifier_total": total, "threshold": threshold})
    r.step(f"Threshold = {lv.pct} {spell.difficulty:+d} {total:+d} = {threshold} %: the spell works on a d100 "
           f"below it", m.rules.ref, "GF-J1")
    roll = die(situation, "d100", required=False)
    if roll is None:
        r.fields["success_if_d100_below"] = threshold
        if situation.get("failure_d100") is not None:
            raise RefereeError("field failure_d100: give the spell's d100 first")
        return r.to_json()
    if not r.fields.get("in_range", True):
        r.fields.update({"d100": roll, "success": False})
        r.step("Out of range: the spell is not cast (procedure step 2), so no failure roll",
               "GF La magie > Procédure; GF seed 003 l.1151")
        return r.to_json()
    success = roll < threshold
    r.fields.update({"d100": roll, "success": success})
    r.step(f"d100 {roll} {'<' if roll < threshold else '≥'} {threshold}: "
           + ("the spell works" if success else "the spell fails: roll on the magic failure table"),
           m.rules.ref, "GF-J1")
    if success:
        r.fields["effect"] = spell.effect
        r.fields["effect_en"] = spell.effect_en
    else:
        failure = d100.table(m.rules.on_failure)
        r.fields["failure_table"] = m.rules.on_failure
        roll2 = die(situation, "failure_d100", sides=100, required=False)
        if roll2 is not None:
            row = failure.read(roll2, "failure_d100")
            r.fields.update({"failure_d100": roll2, "failure": row.result, "failure_en": row.result_en})
            r.step(f"Magic failure table, d100 {roll2} ({row.low}–{row.high}): {row.result}", row.ref, row.decision)
        else:
            r.cite(failure.head.ref)
    return r.to_json()
