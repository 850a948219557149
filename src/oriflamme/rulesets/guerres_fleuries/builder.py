"""The army builder's glue: the army document (an envelope around the ``army`` kind's fields),
the bundled example armies and the magic weapon curse roll.

The army's costs and constraints are gf-army's pure functions (:mod:`.army`, :mod:`.costs`);
this module only wraps them for the core Ruleset methods (``army_catalog``, ``validate_army``,
``army_sheet``, ``army_examples``, ``army_roll``). The document format is in
``docs/formats.md`` § Army documents.
"""

from __future__ import annotations

import json
from importlib import resources

from oriflamme.core.errors import OriflammeError

FORMAT = "oriflamme-army"
VERSION = 1
RULESET = "guerres-fleuries"
#: the army's fields (the ``army`` referee kind's input): lists, and the pochteca's count
LISTS = ("units", "characters", "creatures", "monsters")
COUNTS = ("pochteca",)
ENVELOPE = ("format", "version", "ruleset", "name", "notes")


class ArmyError(OriflammeError):
    """A malformed army document (message: the field and the reason)."""


def envelope(doc) -> dict:
    """Check the document's envelope; return the army's own fields (the ``army`` kind's input)."""
    if not isinstance(doc, dict):
        raise ArmyError(f"field army: expected a JSON object, got {type(doc).__name__}")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise ArmyError(f"field format: expected {FORMAT!r}, got {fmt!r}")
    version = doc.get("version", VERSION)
    if version != VERSION:
        raise ArmyError(f"field version: this Oriflamme reads army format version {VERSION}, got {version!r}")
    ruleset = doc.get("ruleset", RULESET)
    if ruleset != RULESET:
        raise ArmyError(f"field ruleset: this army is for {ruleset!r}, not {RULESET!r}")
    for key in ("name", "notes"):
        value = doc.get(key, "")
        if not isinstance(value, str) or len(value) > (200 if key == "name" else 4000):
            raise ArmyError(f"field {key}: expected a text of at most {200 if key == 'name' else 4000} characters")
    for key in LISTS:
        if key in doc and not isinstance(doc[key], list):
            raise ArmyError(f"field {key}: expected a list, got {type(doc[key]).__name__}")
    for key in COUNTS:
        if key in doc and (not isinstance(doc[key], int) or isinstance(doc[key], bool) or doc[key] < 0):
            raise ArmyError(f"field {key}: expected a number of figures (an integer ≥ 0), got {doc[key]!r}")
    unknown = sorted(set(doc) - set(LISTS) - set(COUNTS) - set(ENVELOPE))
    if unknown:
        raise ArmyError(f"field {unknown[0]}: unknown field (an army has {', '.join(ENVELOPE + LISTS + COUNTS)})")
    return {k: doc[k] for k in LISTS + COUNTS if k in doc}


def validate(doc) -> dict:
    """gf-army's verdict (:func:`.army.validate_army`) on the army's fields."""
    from . import army
    return army.validate_army(envelope(doc))


def normalized(doc: dict) -> dict:
    """The document with its envelope filled in (what export writes)."""
    army = envelope(doc)
    out = {"format": FORMAT, "version": VERSION, "ruleset": RULESET, "name": doc.get("name", "")}
    if doc.get("notes"):
        out["notes"] = doc["notes"]
    for key in LISTS:
        out[key] = list(army.get(key, []))
    out["pochteca"] = army.get("pochteca", 0)
    return out


def blank() -> dict:
    return normalized({})


def examples() -> dict[str, dict]:
    """The bundled example armies (``armies/*.json``), by file stem."""
    out = {}
    folder = resources.files(__package__) / "armies"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name.removesuffix(".json")] = json.loads(entry.read_text(encoding="utf-8"))
    return out


# --- the magic weapon curse roll ---------------------------------------------------------------
def roll(doc: dict, request: dict, dice) -> dict:
    """Roll the curse of character ``request["character"]``'s magic weapon (its index in
    ``characters``) with ``dice``: a d100, cursed at 35 or less (seed 003 l.191), then, when
    cursed, a d100 on the curses table. The rolls are recorded in the character as
    ``curse_roll`` and ``curse_d100`` (the fields :func:`.costs.character_cost` reads); a weapon
    is rolled once: a second roll is refused."""
    from . import army_rows
    army = normalized(doc)
    if request.get("roll", "curse") != "curse":
        raise ArmyError(f"field roll: unknown roll {request.get('roll')!r} (the army list rolls only 'curse')")
    index = request.get("character")
    chars = army["characters"]
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(chars):
        raise ArmyError(f"field character: expected the index of a character (0 to {len(chars) - 1}), got {index!r}")
    char = chars[index]
    if not isinstance(char, dict) or not char.get("magic_weapon"):
        raise ArmyError(f"field characters[{index}].magic_weapon: this character has no magic weapon "
                        "to roll a curse for")
    if char.get("curse_roll") is not None:
        raise ArmyError(f"field characters[{index}].curse_roll: the curse of this weapon was already rolled "
                        f"(d100 = {char['curse_roll']}); a weapon is rolled once")
    rule = army_rows.curse_roll()
    first = dice.roll(100)
    cursed = first <= rule.at_most
    cites = [rule.ref, *([rule.decision] if rule.decision else [])]
    ruling = {"kind": "curse_roll", "character": index, "d100": first, "cursed": cursed,
              "explanation": [f"{rule.printed_en} d100 = {first}: " + ("cursed." if cursed else "not cursed.")],
              "explanation_fr": [f"Jet de malédiction : 1d100 = {first} (maudite à {rule.at_most} ou moins) : "
                                 + ("l'arme est maudite." if cursed else "l'arme n'est pas maudite.")],
              "citations": cites}
    updated = {**char, "curse_roll": first}
    if cursed:
        table = army_rows.curses()
        second = dice.roll(100)
        row = table.read(second, "curse_d100")
        updated["curse_d100"] = second
        ruling.update({"curse_d100": second, "curse": row.result, "curse_en": row.result_en or row.result})
        ruling["explanation"].append(f"Curses table, d100 = {second}: {row.result_en or row.result}.")
        ruling["explanation_fr"].append(f"Table des malédictions, 1d100 = {second} : {row.result}.")
        ruling["citations"] += [row.ref, *([row.decision] if row.decision else [])]
    chars[index] = updated
    return {"army": army, "roll": ruling}
