"""``"kind": "command_test"``: a command or reaction test (GF Test de commandement / réaction).

``{"race"|"creature"|"monster", "class" (troops), "d100", "modifiers", "character"?,
"test"?: "command"|"reaction", "charging"?, "commander_distance_cm"?}`` -> ``threshold``,
``success``. threshold = class value + modifiers; success if d100 <= threshold (GF-C1)."""

from __future__ import annotations

from .. import beings, modifiers
from ..names import RefereeError, match
from . import Ruling, kind
from ._checks import boolean, integer, known, number, one_of

FIELDS = {"race", "creature", "monster", "class", "d100", "modifiers", "character", "test", "charging",
          "commander_distance_cm", "exemption"}
TESTS = {"command": ["command", "commandement", "test de commandement"],
         "reaction": ["reaction", "réaction", "test de réaction"]}


@kind("command_test")
def command_test(situation: dict) -> dict:
    known(situation, FIELDS)
    r = Ruling("command_test")
    who = one_of(situation, ("race", "creature", "monster"))
    test = match("test", situation.get("test", "command"), TESTS)
    r.fields["test"] = test
    if situation.get("exemption") is not None:
        if test != "command":
            raise RefereeError("field exemption: the exemptions are from the phase-2 command test (GF-C5)")
        ex = beings.exemptions()[match("exemption", situation["exemption"],
                                       {e.id: [e.printed, e.id.replace("_", " ")] for e in beings.exemptions().values()})]
        r.step(f"no command test: the phase-2 test is not taken by {ex.printed}", ex.ref, ex.decision)
        r.fields.update({"exempt": True, "exemption": ex.id, "threshold": None, "success": None})
        return r.to_json()
    if who == "race":
        race = beings.race("race", situation["race"])
        if situation.get("class") is None:
            raise RefereeError("field class: missing (A, B, C, M or fanatique)")
        cls = beings.classes()[beings.troop_class("class", situation["class"])]
        base = cls.homme if race == "homme" else cls.saurien
        if base is None:
            raise RefereeError(f"field class: {cls.printed!r} has no Saurien value (printed '/', "
                               f"GF seed 003 l.1377)")
        r.step(f"{beings.printed_name(race)}, class {cls.id} ({cls.printed}): {base} %", cls.ref, cls.decision)
        table, subject = "command", beings.printed_name(race)
        if cls.auto_when_charging and boolean(situation, "charging"):
            d100 = integer(situation, "d100", 1, 100, required=False)
            r.fields.update({"subject": subject, "class": cls.id, "base": base, "modifier_total": 0,
                             "threshold": base, "success": True, "automatic": True})
            if d100 is not None:
                r.fields["d100"] = d100
            r.step("a fanatic charging or counter-charging passes the test automatically",
                   "GF seed 003 l.1379", "GF-C4")
            return r.to_json()
    else:
        if situation.get("class") is not None:
            raise RefereeError(f"field class: a {who} has no troop class (its own value is printed)")
        rows = beings.creatures() if who == "creature" else beings.monsters()
        being = rows[(beings.creature if who == "creature" else beings.monster)(who, situation[who])]
        base = being.command
        subject = being.names[0]
        table = "command_creatures" if who == "creature" else "command_monsters"
        r.step(f"{subject}: {base} %", being.ref)
    boolean(situation, "charging")
    d100 = integer(situation, "d100", 1, 100)
    given = situation.get("modifiers") or []
    if not isinstance(given, list):
        raise RefereeError('field modifiers: expected a list of {"modifier": NAME, "count": N}')
    given = list(given)
    table_mods = modifiers.modifiers(table)
    # GF-C2: the distance to the commander, given in cm, is its number of 15 cm slices
    dist = number(situation, "commander_distance_cm", 0, 10000, required=False)
    if dist is not None:
        per_slice = table_mods.get("per_15cm_from_commander")
        if per_slice is None or not per_slice.per_cm:
            raise RefereeError(f"field commander_distance_cm: a {who} has no per-distance modifier")
        slices = int(dist // per_slice.per_cm)
        given.append({"modifier": "per_15cm_from_commander", "count": slices})
        r.step(f"{dist} cm from the commander: {slices} slice(s) of {per_slice.per_cm} cm (floor)",
               per_slice.ref, per_slice.decision)
    total, terms = modifiers.applied(table, given, situation.get("character"))
    ids = [t["modifier"] for t in terms]
    if "character_controls" in ids and test == "command" and who == "race":
        raise RefereeError("field modifiers: a unit under a character's direct control takes no command "
                           "test (GF seed 003 l.266, l.452; GF-C3) — use \"test\": \"reaction\"")
    if "character_controls" in ids and "character_within_15cm" in ids:
        dropped = [t for t in terms if t["modifier"] == "character_within_15cm"]
        terms = [t for t in terms if t["modifier"] != "character_within_15cm"]
        total -= sum(t["total"] for t in dropped)
        r.step("'+FC × 2' (direct control) replaces '+FC' (character within 15 cm)", "GF-C3")
    for t in terms:
        r.step(f"{t['printed']} {t['value']:+d} × {t['count']} = {t['total']:+d}", t["ref"], t["decision"])
    threshold = base + total
    success = d100 <= threshold
    r.step(f"threshold {base} {total:+d} = {threshold}; d100 {d100} "
           f"{'<=' if success else '>'} {threshold}: {'passed' if success else 'failed'}",
           "GF seed 003 l.1371", "GF-C1")
    if not success:
        r.step("a unit failing its command test gets a red marker, no order, and rolls on the automatic "
               "movement table in phase 7", "GF seed 003 l.331")
    r.fields.update({"subject": subject, "base": base, "modifier_total": total, "modifiers_applied": terms,
                     "threshold": threshold, "d100": d100, "success": success})
    if who == "race":
        r.fields["class"] = cls.id
    return r.to_json()
