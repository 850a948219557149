"""``"kind": "army"``: a whole army against the budget and every constraint of CRÉATION
D'ARMÉES (units ≥ 20, class B ≥ 40 %, allies ≤ 45 %, mercenaries ≤ 25 %, one hero per 30
warriors, one priest or warrior-priest, equipment by level, the curse roll)."""

from __future__ import annotations

from .. import army_rows as data
from ..army import validate_army
from . import Ruling, kind

KEYS = ("valid", "violations", "total_points", "troop_figures", "max_heroes", "class_b_share", "allied_share",
        "mercenary_share", "heroes", "priests", "class_b_points", "allied_points", "mercenary_points", "budget",
        "remaining")
BUDGET = "GF Création d'armées, seed 003 l.28"
SHARES = "GF Création d'armées > 1. Les troupes communes, seed 003 l.32"
HEROES = "GF Création d'armées > 2. Les personnages, seed 003 l.101"


@kind("army")
def rule_army(situation: dict) -> dict:
    doc = {k: v for k, v in situation.items() if k not in ("kind", "ruleset")}
    res = validate_army(doc)
    r = Ruling("army")
    for u in res["units"]:
        r.step(f"{u['where']}: {u['figures']} figures, {u['points']} points"
               + (" (allied)" if u["ally"] else "") + (f", {u['mercenary_points']} mercenary" if u["mercenary_points"]
                                                       else ""))
    for c in res["characters"]:
        r.step(f"{c['where']}: {c['type_name']}, {c['points']} points" + (" (allied)" if c["ally"] else ""))
    for b in res["creatures"]:
        r.step(f"{b['where']}: {b['figures']} × {b['cost_per_figure']} = {b['points']} points", *b["citations"])
    if res["pochteca"]["figures"]:
        r.step(f"pochteca: {res['pochteca']['figures']} × {data.pochteca().cost} = {res['pochteca']['points']} points",
               *res["pochteca"]["citations"])
    r.step(f"total {res['total_points']} of {res['budget']} points", BUDGET, "GF-B1")
    r.step(f"class B {res['class_b_points']} points = {res['class_b_share']:.1%}; allies {res['allied_points']} = "
           f"{res['allied_share']:.1%}; mercenaries {res['mercenary_points']} = {res['mercenary_share']:.1%}",
           SHARES, "GF-B3")
    r.step(f"{res['troop_figures']} warriors: at most {res['max_heroes']} heroes ({res['heroes']} taken); "
           f"{res['priests']} priest or warrior-priest", HEROES, "GF-B9")
    for v in res["violations"]:
        r.step(v)
    for d in res["violation_details"]:
        r.cite(*d["citations"])
    r.fields.update({k: res[k] for k in KEYS})
    r.fields["units"] = [{k: u[k] for k in ("where", "figures", "points", "ally", "mercenary_points")}
                         for u in res["units"]]
    r.fields["characters"] = [{k: c[k] for k in ("where", "type", "points", "ally")} for c in res["characters"]]
    return r.to_json()
