"""``"kind": "unit_cost"``: a unit's cost from its groups (GF-B5), each figure at its race's
class price + weapons + armour, −15 mercenary, +10 fanatic (GF-B4)."""

from __future__ import annotations

from .. import army_rows as data
from ..costs import unit_cost
from . import Ruling, kind


@kind("unit_cost")
def rule_unit_cost(situation: dict) -> dict:
    result = unit_cost(situation.get("groups"))
    r = Ruling("unit_cost")
    for i, g in enumerate(result["groups"]):
        terms = " + ".join(f"{t['term']} {t['cost']:+d}" if t["cost"] < 0 else f"{t['term']} {t['cost']}"
                           for t in g["terms"])
        r.step(f"group {i + 1}: {g['figures']} × ({terms}) = {g['figures']} × {g['per_figure']} = {g['cost']}",
               *[c for t in g["terms"] for c in t["citations"]])
    if len(result["groups"]) > 1:
        r.step(f"mixed unit: each figure at its own class, total {result['cost']}", "GF-B5")
    size = "at least" if result["valid_size"] else "fewer than"
    least = data.constraints()["unit_size"]
    r.step(f"{result['figures']} figures: {size} {least.value} (units of at least {least.value} figures)",
           least.ref, least.decision or "GF-B2")
    for v in result["violations"]:
        r.step(v)
    r.fields.update({k: result[k] for k in ("cost", "cost_per_figure", "figures", "valid_size", "groups",
                                            "class_points", "mercenary_points", "violations")})
    return r.to_json()
