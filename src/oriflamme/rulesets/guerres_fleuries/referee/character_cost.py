"""``"kind": "character_cost"``: a hero's, priest's or warrior-priest's cost (GF-B10) and the
rules his factors, experience, spells, skills and magic break (cited sentences)."""

from __future__ import annotations

from .. import army_rows as data
from ..costs import character_cost
from . import Ruling, kind


@kind("character_cost")
def rule_character_cost(situation: dict) -> dict:
    fields = {k: v for k, v in situation.items() if k not in ("kind", "ruleset")}
    result = character_cost(fields, "character", "the character")
    r = Ruling("character_cost")
    for t in result["terms"]:
        r.step(f"{t['term']}: {t['cost']}", *t["citations"])
    r.step(f"cost = {' + '.join(str(t['cost']) for t in result['terms'])} = {result['cost']}", "GF-B10")
    curse = result["curse"]
    if curse:
        at_most = data.curse_roll().at_most  # the curse chance, as printed (magic_weapons.toml)
        if not curse["cursed"]:
            r.step(f"curse roll {curse['roll']} > {at_most}: the magic weapon is not cursed", *curse["citations"])
        elif curse.get("curse"):
            r.step(f"curse roll {curse['roll']} ≤ {at_most}: cursed — {curse['curse']} ({curse['curse_en']}): "
                   f"{curse['effect_en']}", *curse["citations"])
    for v in result["violations"]:
        r.step(v)
    for d in result["violation_details"]:
        r.cite(*d["citations"])
    r.fields.update({k: result[k] for k in ("cost", "valid", "violations", "type", "level", "experience",
                                            "spells", "skills", "curse", "terms")})
    return r.to_json()
