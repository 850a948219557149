"""A 5 000-point army checked against every rule of CRÉATION D'ARMÉES (pure functions).

:func:`validate_army` takes the army document (``docs/guerres-fleuries/referee-army.md``)::

    {"units": [{"name"?, "figures", "class", "points", "ally"?, "mercenary"?}            (given)
               | {"name"?, "groups": [unit_cost groups], "ally"?, "mercenary"?}],        (costed)
     "characters": [{"name"?, "type", "points", "ally"?} | {character_cost fields}],
     "creatures"?: [{"name", "figures"?, "ally"?, "mercenary"?}],   (creatures and monsters)
     "pochteca"?: N}

and returns ``valid``, ``violations`` (cited sentences), ``violation_details``,
``total_points``, ``troop_figures``, ``max_heroes``, ``class_b_share``, ``allied_share``,
``mercenary_share`` (fractions of the points, GF-B3) and every entry's points.
:func:`catalog` is everything a list builder offers, JSON-serialisable.
"""

from __future__ import annotations

from . import army_rows as data
from .costs import character_cost, flag, integer, obj, unit_cost
from .names import RefereeError, match
from .violations import sentence, violation


def _list(doc: dict, key: str) -> list:
    value = doc.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise RefereeError(f"field {key}: expected a list, got {value!r}")
    return value


def _label(entry: dict, kind: str, i: int) -> str:
    name = entry.get("name")
    return f"{kind} {i + 1}" + (f" ({name})" if isinstance(name, str) and name else "")


def _unit(entry, i: int) -> dict:
    field = f"units[{i}]"
    u = obj(field, entry)
    where = _label(u, "unit", i)
    ally = flag(f"{field}.ally", u.get("ally"))
    merc = flag(f"{field}.mercenary", u.get("mercenary"))
    if "groups" in u:
        cost = unit_cost(u["groups"], f"{field}.groups", where, mercenary=merc)
        return {"where": where, "name": u.get("name"), "figures": cost["figures"], "points": cost["cost"],
                "class_points": cost["class_points"], "mercenary_points": cost["mercenary_points"],
                "ally": ally, "cost_per_figure": cost["cost_per_figure"], "groups": cost["groups"],
                "violation_details": cost["violation_details"]}
    if "figures" not in u or "class" not in u or "points" not in u:
        raise RefereeError(f"field {field}: a unit is given by figures, class and points, or by groups")
    figures = integer(f"{field}.figures", u["figures"], 1)
    cls = match(f"{field}.class", u["class"], {c.id: [c.id, c.name, c.name_en] for c in data.classes().values()})
    points = integer(f"{field}.points", u["points"], 0)
    found = []
    if figures < data.constraints()["unit_size"].value:
        found.append(violation("unit_size", where, figures=figures))
    return {"where": where, "name": u.get("name"), "figures": figures, "points": points, "class": cls,
            "class_points": {c: (points if c == cls else 0) for c in data.classes()},
            "mercenary_points": points if merc else 0, "ally": ally, "violation_details": found}


def _character(entry, i: int) -> dict:
    field = f"characters[{i}]"
    c = obj(field, entry)
    where = _label(c, "character", i)
    ally = flag(f"{field}.ally", c.get("ally"))
    ctype = match(f"{field}.type", c.get("type"), data.choices(data.character_types()))
    if "level" not in c and "points" in c:
        return {"where": where, "name": c.get("name"), "type": ctype, "type_name": data.character_types()[ctype].name,
                "points": integer(f"{field}.points",
                c["points"], 0), "ally": ally, "violation_details": []}
    cost = character_cost(c, field, where)
    return {"where": where, "name": c.get("name"), "type": ctype, "type_name": cost["type"], "points": cost["cost"],
            "ally": ally,
            "level": cost["level"], "curse": cost["curse"], "terms": cost["terms"],
            "violation_details": cost["violation_details"]}


BEAST_KEYS = ("creature", "monster", "beast", "type", "name")


def _beast(entry, i: int, key: str = "creatures") -> dict:
    field = f"{key}[{i}]"
    b = obj(field, entry)
    named = next((k for k in BEAST_KEYS if k in b), "creature")
    row = data.beasts()[match(f"{field}.{named}", b.get(named), data.choices(data.beasts()))]
    figures = integer(f"{field}.figures", b.get("figures", 1), 1)
    merc = flag(f"{field}.mercenary", b.get("mercenary"))
    return {"where": f"{key[:-1]} {i + 1} ({row.name})", "section": key, "name": row.name, "kind": row.kind, "figures": figures,
            "points": figures * row.cost, "cost_per_figure": row.cost, "ally": flag(f"{field}.ally", b.get("ally")),
            "mercenary_points": figures * row.cost if merc else 0, "citations": [row.ref, *(row.decision.split(", ") if row.decision else [])],
            "violation_details": []}


def _pochteca(value) -> int:
    """The pochteca figures: a number, or a list of entries ``{"figures"?: n}`` (1 each by default)."""
    if isinstance(value, list):
        total = 0
        for i, e in enumerate(value):
            e = obj(f"pochteca[{i}]", e)
            total += integer(f"pochteca[{i}].figures", e.get("figures", e.get("count", 1)), 1)
        return total
    return integer("pochteca", value, 0)


def validate_army(doc) -> dict:
    """Check an army against the budget and every constraint; cost what is given by fields."""
    d = obj("army", doc)
    units = [_unit(u, i) for i, u in enumerate(_list(d, "units"))]
    chars = [_character(c, i) for i, c in enumerate(_list(d, "characters"))]
    beasts = [_beast(b, i, key) for key in ("creatures", "monsters") for i, b in enumerate(_list(d, key))]
    n_poch = _pochteca(d.get("pochteca", 0))
    poch = {"figures": n_poch, "points": n_poch * data.pochteca().cost,
            "citations": [data.pochteca().ref]}
    found = [v for part in (*units, *chars, *beasts) for v in part["violation_details"]]
    total = (sum(x["points"] for x in (*units, *chars, *beasts)) + poch["points"])
    K = data.constraints()
    if total > K["budget"].value:
        found.append(violation("budget", total=total))
    share = (lambda pts: pts / total) if total else (lambda pts: 0.0)
    class_b = sum(u["class_points"].get("B", 0) for u in units)
    allied = sum(x["points"] for x in (*units, *chars, *beasts) if x["ally"])
    merc = sum(x["mercenary_points"] for x in (*units, *beasts))
    if units and share(class_b) < K["class_b_share"].value:
        found.append(violation("class_b_share", share=_pct(share(class_b)), points=class_b, total=total))
    if share(allied) > K["allied_share"].value:
        found.append(violation("allied_share", share=_pct(share(allied)), points=allied, total=total))
    if share(merc) > K["mercenary_share"].value:
        found.append(violation("mercenary_share", share=_pct(share(merc)), points=merc, total=total))
    troop_figures = sum(u["figures"] for u in units)
    max_heroes = troop_figures // int(K["heroes"].value)
    heroes = sum(1 for c in chars if c["type"] == "heros")
    priests = sum(1 for c in chars if c["type"] in ("pretre", "pretre_guerrier"))
    if heroes > max_heroes:
        found.append(violation("heroes", count=heroes, figures=troop_figures, allowed=max_heroes))
    if priests > K["priests_max"].value:
        found.append(violation("priests_max", count=priests))
    if priests < K["priests_min"].value:
        found.append(violation("priests_min", count=priests))
    lines = {"units": [u["points"] for u in units], "characters": [c["points"] for c in chars],
             "creatures": [b["points"] for b in beasts if b["section"] == "creatures"],
             "monsters": [b["points"] for b in beasts if b["section"] == "monsters"],
             "pochteca": [poch["points"]] if n_poch else []}
    return {"valid": not found, "lines": lines, "entries": _entries(units, chars, beasts, poch), "violations": [sentence(v) for v in found], "violation_details": found,
            "total_points": total, "budget": int(K["budget"].value), "remaining": int(K["budget"].value) - total,
            "troop_figures": troop_figures, "max_heroes": max_heroes, "heroes": heroes, "priests": priests,
            "class_b_points": class_b, "allied_points": allied, "mercenary_points": merc,
            "class_b_share": share(class_b), "allied_share": share(allied), "mercenary_share": share(merc),
            "units": units, "characters": chars, "creatures": beasts, "pochteca": poch}


def _group_text(g: dict) -> str:
    kit = ", ".join(t["term"] for t in g["terms"][1:] if t["term"] not in ("mercenaire", "fanatique"))
    tags = "".join(f" {k}" for k in ("mercenary", "fanatic") if g[k])
    return f"{g['figures']} {g['race']} {g['class']}{tags}{' (' + kit + ')' if kit else ''} × {g['per_figure']}"


def _entries(units, chars, beasts, poch) -> list[dict]:
    """The army as readable lines (section, label, detail, points) for text lists
    (``oriflamme army show``)."""
    out = []
    for u in units:
        tags = "".join(f", {w}" for w, on in (("allied", u["ally"]),
                                               ("mercenary", u["mercenary_points"] and "groups" not in u)) if on)
        detail = ("; ".join(_group_text(g) for g in u["groups"]) if "groups" in u
                  else f"{u['figures']} figures, class {u['class']} (points given)") + tags
        out.append({"section": "units", "label": u["where"], "detail": detail, "points": u["points"]})
    for c in chars:
        detail = data.character_types()[c["type"]].name + (f" {c['level']}" if c.get("level") else " (points given)")
        if c.get("curse") and c["curse"].get("curse"):
            detail += f", cursed weapon: {c['curse']['curse']}"
        out.append({"section": "characters", "label": c["where"], "detail": detail + (", allied" if c["ally"] else ""),
                    "points": c["points"]})
    for b in beasts:
        out.append({"section": b["section"], "label": b["where"], "detail": f"{b['figures']} × {b['cost_per_figure']}",
                    "points": b["points"]})
    if poch["figures"]:
        out.append({"section": "pochteca", "label": "pochteca", "detail": f"{poch['figures']} × {data.pochteca().cost}",
                    "points": poch["points"]})
    return out


def _pct(x: float) -> str:
    return f"{round(x * 100, 1):g} %"


def _row(r, **extra) -> dict:
    out = {"name": r.name, "name_en": r.name_en}
    out.update(extra)
    out["citations"] = [r.ref, *(r.decision.split(", ") if r.decision else [])]
    if r.note:
        out["note"] = r.note
    return out


def catalog() -> dict:
    """Everything an army list builder offers, with costs and citations (JSON-serialisable)."""
    types = data.character_types()
    lvls = data.levels()
    magic_w = [_row(w, cost=w.cost, effect=w.effect, effect_en=w.effect_en) for w in data.magic_weapons().values()]
    magic_i = [_row(m, cost=m.cost, effect=m.effect, effect_en=m.effect_en) for m in data.magic_items().values()]
    characters = []
    for t in types.values():
        by_level = []
        for i, lv in enumerate(lvls.values()):
            by_level.append({
                "level": lv.id, "name": lv.name, "name_en": lv.name_en, "experience": t.experience[i],
                "spells": t.spells[i] if t.spells else 0,
                "spell_price": lv.spell_price if t.spells else None,
                "magic_weapons": lv.magic_weapons, "magic_items": lv.magic_items, "magic_total": lv.magic_total,
                "magic_weapons_offered": [w["name"] for w in magic_w] if lv.magic_weapons else [],
                "magic_items_offered": [m["name"] for m in magic_i] if lv.magic_items else [],
                "citations": [lv.ref, *(lv.decision.split(", ") if lv.decision else [])]})
        characters.append(_row(t, id=t.id, FC=list(t.FC), FM=list(t.FM), CM=list(t.CM), levels=by_level,
                               skills=[_row(s, effect=s.effect, effect_en=s.effect_en)
                                       for s in data.skills() if s.type == t.id],
                               spells_offered=bool(t.spells)))
    spells = data.spells_printed()
    K = data.constraints()
    cr = data.curse_roll()
    return {
        "ruleset": "guerres-fleuries",
        "budget": int(K["budget"].value),
        "races": [_row(r, id=r.id, prices={"A": r.A, "B": r.B, "C": r.C}, character=r.character)
                  for r in data.races().values()],
        "classes": [_row(c, id=c.id, printed=c.printed, printed_en=c.printed_en) for c in data.classes().values()],
        "adjustments": [_row(a, id=a.id, per_figure=a.per_figure, printed=a.printed)
                        for a in data.adjustments().values()],
        "weapons": [_row(w, id=w.id, cost=w.cost, characters_only=w.characters_only, missile=w.missile,
                         races=list(w.races)) for w in data.weapons().values()],
        "armours": [_row(a, id=a.id, cost=a.cost) for a in data.armours().values()],
        "pochteca": _row(data.pochteca(), cost=data.pochteca().cost, printed=data.pochteca().printed,
                         printed_en=data.pochteca().printed_en),
        "creatures": [_row(b, id=b.id, cost=b.cost) for b in data.beasts().values() if b.kind == "creature"],
        "monsters": [_row(b, id=b.id, cost=b.cost) for b in data.beasts().values() if b.kind == "monster"],
        "character_base": {"cost": data.character_base().cost, "citations": [data.character_base().ref]},
        "character_prices": [_row(p, id=p.id, per_point=p.per_point) for p in data.prices().values()],
        "character_levels": [_row(lv, id=lv.id, magic_weapons=lv.magic_weapons, magic_items=lv.magic_items,
                                  magic_total=lv.magic_total, spell_price=lv.spell_price) for lv in lvls.values()],
        "characters": characters,
        "spells": ([{"id": k, "name": v[0], "name_en": v[-1]} for k, v in spells.items()] if spells else None),
        "magic_weapons": magic_w,
        "magic_items": magic_i,
        "curse_roll": {"at_most": cr.at_most, "printed": cr.printed, "printed_en": cr.printed_en,
                       "citations": [cr.ref, *(cr.decision.split(", ") if cr.decision else [])]},
        "curses": [{"from": r.low, "to": r.high, "name": r.result, "name_en": r.result_en, "effect": r.effect,
                    "effect_en": r.effect_en, "citations": [r.ref, *(r.decision.split(", ") if r.decision else [])]}
                   for r in data.curses().rows],
        "constraints": [{"id": c.id, "value": c.value, "citations": [c.ref, *(c.decision.split(", ") if c.decision else [])],
                         **({"note": c.note} if c.note else {})} for c in K.values()],
    }
