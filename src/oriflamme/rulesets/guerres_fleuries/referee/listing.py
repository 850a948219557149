"""``"kind": "modifiers"``: every modifier of every kind (``oriflamme adjudicate --modifiers``)."""

from __future__ import annotations

from .. import modifiers
from . import kind


@kind("modifiers")
def list_modifiers(situation: dict) -> dict:
    only = situation.get("of")
    rows = [m for m in modifiers.listing() if only in (None, m["kind"])]
    return {"ruleset": "guerres-fleuries", "kind": "modifiers", "modifiers": rows,
            "explanation": [f"{len(rows)} modifiers, each with its printed sentence and its value"],
            "citations": sorted({m["ref"] for m in rows})}
