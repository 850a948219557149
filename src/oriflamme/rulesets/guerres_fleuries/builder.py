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
