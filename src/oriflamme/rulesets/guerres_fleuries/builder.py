"""The army builder's glue: the army document (envelope + the ``army`` kind's fields), the
bundled example armies, the printable sheet and the magic weapon curse roll.

The army's costs and constraints are gf-army's pure functions (:mod:`.army`, :mod:`.costs`);
this module only wraps them for the core Ruleset methods (``army_catalog``, ``validate_army``,
``army_sheet``, ``army_examples``, ``army_roll``). The document format is in
``docs/formats.md`` § Army.
"""

from __future__ import annotations

import json
from importlib import resources

from oriflamme.core.errors import OriflammeError

from .rows import Row, one

FORMAT = "oriflamme-army"
VERSION = 1
RULESET = "guerres-fleuries"
#: the army's fields (the ``army`` referee kind's input); the envelope adds format, version,
#: ruleset, name, notes
LISTS = ("units", "characters", "creatures", "monsters", "pochteca")
ENVELOPE = ("format", "version", "ruleset", "name", "notes")


class ArmyError(OriflammeError):
    """A malformed army document (message: the field and the reason)."""


def envelope(doc) -> dict:
    """Check the document's envelope; return the army's own fields (the ``army`` kind's input)."""
    if not isinstance(doc, dict):
        raise ArmyError(f"army: expected a JSON object, got {type(doc).__name__}")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise ArmyError(f"field format: expected {FORMAT!r}, got {fmt!r}")
    version = doc.get("version", VERSION)
    if version != VERSION:
        raise ArmyError(f"field version: this Oriflamme reads army format version {VERSION}, got {version!r}")
    ruleset = doc.get("ruleset", RULESET)
    if ruleset != RULESET:
        raise ArmyError(f"field ruleset: this army is for {ruleset!r}, not {RULESET!r}")
    name = doc.get("name", "")
    if not isinstance(name, str) or len(name) > 200:
        raise ArmyError("field name: expected a text of at most 200 characters")
    for key in LISTS:
        if key in doc and not isinstance(doc[key], list):
            raise ArmyError(f"field {key}: expected a list, got {type(doc[key]).__name__}")
    unknown = sorted(set(doc) - set(LISTS) - set(ENVELOPE))
    if unknown:
        raise ArmyError(f"field {unknown[0]}: unknown field (an army has {', '.join(ENVELOPE + LISTS)})")
    return {k: doc[k] for k in LISTS if k in doc}


#: what the builder records on an entry beside the ``army`` kind's fields (not rules input)
BUILDER_KEYS = ("name", "curse", "note")


def army_input(doc) -> dict:
    """The ``army`` kind's input: the document's lists, without the builder's own keys."""
    army = envelope(doc)
    return {k: [{f: v for f, v in e.items() if f not in BUILDER_KEYS} if isinstance(e, dict) else e for e in items]
            for k, items in army.items()}


def unrolled_curses(doc: dict) -> list[dict]:
    """A violation for each magic weapon whose curse was not rolled (seed 003 l.191)."""
    rule = curse_rule()
    out = []
    for i, char in enumerate(envelope(doc).get("characters", [])):
        if isinstance(char, dict) and char.get("magic_weapon") and not char.get("curse"):
            label = char.get("name") or f"character {i + 1}"
            out.append({"rule": "curse_roll", "where": f"characters.{i}", "ref": rule.ref,
                        "message": f"{label}: the magic weapon's curse is not rolled yet ({rule.printed_en})",
                        "message_fr": f"{label} : la malédiction de l'arme magique n'est pas encore jetée "
                                      f"({rule.printed})"})
    return out


def validate(doc) -> dict:
    """gf-army's verdict (:func:`.army.validate_army`) on the army's fields, plus the builder's
    own check: every magic weapon's curse rolled (seed 003 l.191)."""
    from . import army
    result = dict(army.validate_army(army_input(doc)))
    unrolled = unrolled_curses(doc)
    if unrolled:
        result["violations"] = list(result.get("violations") or []) + unrolled
        result["valid"] = False
    return result


def normalized(doc: dict) -> dict:
    """The document with its envelope filled in (what export writes)."""
    army = envelope(doc)
    out = {"format": FORMAT, "version": VERSION, "ruleset": RULESET, "name": doc.get("name", "")}
    if doc.get("notes"):
        out["notes"] = str(doc["notes"])
    for key in LISTS:
        out[key] = list(army.get(key, []))
    return out


def examples() -> dict[str, dict]:
    """The bundled example armies (``armies/*.json``), by file stem."""
    out = {}
    folder = resources.files(__package__) / "armies"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name.removesuffix(".json")] = json.loads(entry.read_text(encoding="utf-8"))
    return out


# --- the magic weapon curse roll ---------------------------------------------------------------
class CurseRoll(Row):
    printed: str
    printed_en: str
    die: int
    cursed_at_most: int
    table: str


def curse_rule() -> CurseRoll:
    return one(CurseRoll, "curse_roll.toml", "curse_roll")


def roll(doc: dict, request: dict, dice) -> dict:
    """Roll the curse of character ``request["character"]``'s magic weapon (index in
    ``characters``): d100 ≤ 35 → cursed, then a d100 on the curses table. The result is recorded
    in the character as ``curse`` (a weapon is rolled once: a second roll is refused)."""
    army = normalized(doc)
    if request.get("roll") not in (None, "curse"):
        raise ArmyError(f"field roll: unknown roll {request.get('roll')!r} (the army list rolls only 'curse')")
    index = request.get("character")
    chars = army["characters"]
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(chars):
        raise ArmyError(f"field character: expected the index of a character (0 to {len(chars) - 1}), got {index!r}")
    char = chars[index]
    if not isinstance(char, dict) or not char.get("magic_weapon"):
        raise ArmyError(f"field characters.{index}.magic_weapon: this character has no magic weapon to roll a curse for")
    if char.get("curse"):
        raise ArmyError(f"field characters.{index}.curse: the curse of this weapon was already rolled "
                        f"(d100 = {char['curse'].get('d100')}); a weapon is rolled once")
    rule = curse_rule()
    first = dice.roll(rule.die)
    ruling = {"kind": "curse_roll", "d100": first, "cursed": first <= rule.cursed_at_most,
              "explanation": [f"{rule.printed_en} d100 = {first}: "
                              + ("cursed." if first <= rule.cursed_at_most else "not cursed.")],
              "explanation_fr": [f"{rule.printed} 1d100 = {first} : "
                                 + ("l'arme est maudite." if first <= rule.cursed_at_most else "l'arme n'est pas maudite.")],
              "citations": [rule.ref]}
    curse = {"d100": first, "cursed": ruling["cursed"], "ref": rule.ref}
    if ruling["cursed"]:
        from .d100 import table
        second = dice.roll(rule.die)
        row = table(rule.table).read(second, "curse d100")
        curse.update({"curse_d100": second, "curse": row.result, "curse_en": row.result_en or row.result,
                      "curse_ref": row.ref})
        ruling.update({"curse_d100": second, "curse": row.result, "curse_en": row.result_en or row.result})
        ruling["explanation"].append(f"Curses table, d100 = {second}: {row.result_en or row.result}.")
        ruling["explanation_fr"].append(f"Table des malédictions, 1d100 = {second} : {row.result}.")
        ruling["citations"].append(row.ref)
    chars[index] = {**char, "curse": curse}
    return {"army": army, "roll": ruling}
