"""What troops and characters cost (pure functions over the cited data of :mod:`.army_rows`).

* :func:`unit_cost` — a unit given as one or several groups (a mixed unit, GF-B5): each
  figure costs its race's class price + its weapons + its armour, −15 if mercenary, +10 if
  fanatic (GF-B4); ``cost_per_figure`` when every figure costs the same.
* :func:`character_cost` — a hero, priest or warrior-priest (GF-B10) and the rules on his
  factors, experience, spells, skills, equipment by level and the magic weapon's curse roll.

Both return plain dicts: numbers, ``terms`` (each price with its citation), ``violations``
(sentences citing the rule) and ``violation_details`` (the same, structured, with French).
Malformed input raises :class:`~.names.RefereeError` naming the field.
"""

from __future__ import annotations

from . import army_rows as data
from .names import RefereeError, match
from .violations import sentence, violation

FLAGS = ("mercenary", "fanatic")


# --- field readers: every error names the field ---------------------------------------------------
def integer(field: str, value, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RefereeError(f"field {field}: expected an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise RefereeError(f"field {field}: expected an integer {bounds}, got {value}")
    return value


def flag(field: str, value) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RefereeError(f"field {field}: expected true or false, got {value!r}")
    return value


def name_list(field: str, value) -> list[str]:
    """A list of names (a single name is accepted as a list of one)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RefereeError(f"field {field}: expected a list of names, got {value!r}")
    return value


def obj(field: str, value) -> dict:
    if not isinstance(value, dict):
        raise RefereeError(f"field {field}: expected a JSON object, got {value!r}")
    return value


def _term(label: str, cost: int, ref: str, decision: str | None = None) -> dict:
    return {"term": label, "cost": cost, "citations": [ref, *(decision.split(", ") if decision else [])]}


def _equipment(field: str, given: dict, *, race: str | None, character: bool, where: str,
               terms: list, found: list) -> int:
    """Ordinary weapons and armour: their price per figure (or for the character)."""
    total = 0
    seen: set[str] = set()
    for key, rows in (("weapons", data.weapons()), ("armour", data.armours())):
        for i, text in enumerate(name_list(f"{field}.{key}", given.get(key))):
            wid = match(f"{field}.{key}[{i}]", text, data.choices(rows))
            row = rows[wid]
            if wid in seen:
                found.append(violation("listed_twice", where, name=row.name))
                continue
            seen.add(wid)
            if getattr(row, "characters_only", False) and not character:
                found.append(violation("characters_only", where, weapon=row.name))
            if getattr(row, "races", ()) and race not in row.races:
                found.append(violation("race_weapon", where, weapon=row.name))
            total += row.cost
            terms.append(_term(row.name, row.cost, row.ref, row.decision))
    return total


# --- troops ---------------------------------------------------------------------------------------
def group_cost(group, field: str = "groups[0]", where: str = "group 1", *, mercenary: bool = False) -> dict:
    """One group of identical figures: its price per figure, itemised."""
    g = obj(field, group)
    figures = integer(f"{field}.figures", g.get("figures"), 1)
    race = data.races()[match(f"{field}.race", g.get("race"), data.choices(data.races()))]
    cls = match(f"{field}.class", g.get("class"), {c.id: [c.id, c.name, c.name_en]
                                                   for c in data.classes().values()})
    terms = [_term(f"{race.name} classe {cls}", race.price(cls), race.ref)]
    found: list[dict] = []
    per = race.price(cls) + _equipment(field, g, race=race.id, character=False, where=where,
                                       terms=terms, found=found)
    merc = flag(f"{field}.mercenary", g.get("mercenary")) or mercenary
    fan = flag(f"{field}.fanatic", g.get("fanatic"))
    for fid, on in (("mercenary", merc), ("fanatic", fan)):
        if on:
            adj = data.adjustments()[fid]
            per += adj.per_figure
            terms.append(_term(adj.name, adj.per_figure, adj.ref, adj.decision))
    return {"figures": figures, "race": race.name, "class": cls, "mercenary": merc, "fanatic": fan,
            "per_figure": per, "cost": per * figures, "terms": terms, "violation_details": found}


def unit_cost(groups, field: str = "groups", where: str = "the unit", *, mercenary: bool = False) -> dict:
    """The cost of a unit of one or several groups (GF-B5: each figure at its own class)."""
    if not isinstance(groups, list) or not groups:
        raise RefereeError(f"field {field}: expected a non-empty list of groups "
                           '({"figures", "race", "class", "weapons", "armour"})')
    parts = [group_cost(g, f"{field}[{i}]", where if len(groups) == 1 else f"{where}, group {i + 1}",
                        mercenary=mercenary) for i, g in enumerate(groups)]
    figures = sum(p["figures"] for p in parts)
    cost = sum(p["cost"] for p in parts)
    per = {p["per_figure"] for p in parts}
    size = data.constraints()["unit_size"]
    found = [v for p in parts for v in p["violation_details"]]
    if figures < size.value:
        found.append(violation("unit_size", where, figures=figures))
    class_points = {c: sum(p["cost"] for p in parts if p["class"] == c) for c in data.classes()}
    return {"cost": cost, "cost_per_figure": per.pop() if len(per) == 1 else None, "figures": figures,
            "valid_size": figures >= size.value, "groups": parts, "class_points": class_points,
            "mercenary_points": sum(p["cost"] for p in parts if p["mercenary"]),
            "violations": [sentence(v) for v in found], "violation_details": found}


# --- characters -----------------------------------------------------------------------------------
def _level_allowance(level: data.Level) -> tuple[str, str]:
    if level.magic_total == 0:
        return "no magic weapon nor magic item", "ni arme magique ni objet magique"
    if level.magic_total == 1:
        return "one magic weapon or one magic item", "une arme magique ou un objet magique"
    return "one magic weapon and one magic item at most", "au plus une arme magique et un objet magique"


def character_cost(given, field: str = "character", where: str = "the character") -> dict:
    """The cost of a character (GF-B10) and the rules he breaks (cited sentences)."""
    c = obj(field, given)
    ctype = data.character_types()[match(f"{field}.type", c.get("type"), data.choices(data.character_types()))]
    level = data.levels()[match(f"{field}.level", c.get("level"), data.choices(data.levels()))]
    lv = list(data.levels()).index(level.id)
    race = data.races()[match(f"{field}.race", c.get("race", "Homme"), data.choices(data.races()))]
    found: list[dict] = []
    terms = [_term(f"personnage ({race.name})", race.character, race.ref)]
    base = race.character
    tname = ctype.name_en
    for factor in ("FC", "FM", "CM"):
        value = integer(f"{field}.{factor}", c.get(factor), 0)
        low, high = getattr(ctype, factor)
        if not low <= value <= high:
            found.append(violation("character_range", where, factor=factor, given=value, type=tname,
                                   low=low, high=high))
        price = data.prices()[factor]
        terms.append(_term(f"{factor} {value} × {price.per_point}", value * price.per_point, price.ref,
                           price.decision))
    fixed_xp = ctype.experience[lv]
    xp = integer(f"{field}.experience", c.get("experience", fixed_xp), 0)
    if xp != fixed_xp:
        found.append(violation("experience_by_level", where, given=xp, level=level.name_en, type=tname,
                               value=fixed_xp))
    price = data.prices()["experience"]
    terms.append(_term(f"expérience {xp} × {price.per_point}", xp * price.per_point, price.ref, price.decision))
    # skills: names from the character's own table, at most his experience
    table = {f"{s.type}:{i}": s.spellings() for i, s in enumerate(data.skills()) if s.type == ctype.id}
    every = {f"{s.type}:{i}": s.spellings() for i, s in enumerate(data.skills())}
    skills = []
    for i, text in enumerate(name_list(f"{field}.skills", c.get("skills"))):
        try:
            sid = match(f"{field}.skills[{i}]", text, table)
        except RefereeError:
            sid = match(f"{field}.skills[{i}]", text, every)  # another type's skill: a violation
            found.append(violation("skill_of_type", where, skill=every[sid][0], type=tname))
            continue
        if sid in skills:
            found.append(violation("listed_twice", where, name=table[sid][0]))
        skills.append(sid)
    if len(c.get("skills") or []) > xp:
        found.append(violation("skills_by_experience", where, given=len(c["skills"]), value=xp))
    # miracles and divine spells: fixed by level, priced by level
    spells_field = c.get("spells")
    if isinstance(spells_field, list):
        printed = data.spells_printed()
        for i, s in enumerate(name_list(f"{field}.spells", spells_field)):
            if printed is not None:
                match(f"{field}.spells[{i}]", s, printed)
        n_spells = len(spells_field)
    elif spells_field is None:
        n_spells = ctype.spells[lv] if ctype.spells else 0
    else:
        n_spells = integer(f"{field}.spells", spells_field, 0)
    spell_cost = 0
    if ctype.spells is None:
        if n_spells:
            found.append(violation("hero_spells", where))
    else:
        if n_spells != ctype.spells[lv]:
            found.append(violation("spells_by_level", where, given=n_spells, level=level.name_en, type=tname,
                                   value=ctype.spells[lv]))
        spell_cost = n_spells * level.spell_price
        terms.append(_term(f"sorts {n_spells} × {level.spell_price}", spell_cost, level.ref, level.decision))
    equipment = _equipment(field, c, race=race.id, character=True, where=where, terms=terms, found=found)
    # magic: by level, each magic weapon rolled for its curse
    magic = 0
    curse = None
    mw = c.get("magic_weapon")
    mi = c.get("magic_item")
    n_mw = n_mi = 0
    if mw is not None:
        row = data.magic_weapons()[match(f"{field}.magic_weapon", mw, data.choices(data.magic_weapons()))]
        n_mw = 1
        magic += row.cost
        terms.append(_term(f"arme magique {row.name}", row.cost, row.ref))
        roll, c = _curse_fields(field, c)
        limit = data.curse_roll().at_most
        if roll is None:
            found.append(violation("curse_roll", where, weapon=row.name))
        else:
            roll = integer(f"{field}.curse_roll", roll, 1, 100)
            if roll <= limit:
                curse = _curse(field, c, where, row.name, roll, found)
            else:
                curse = {"cursed": False, "roll": roll, "citations": [data.curse_roll().ref]}
    if mi is not None:
        row = data.magic_items()[match(f"{field}.magic_item", mi, data.choices(data.magic_items()))]
        n_mi = 1
        magic += row.cost
        terms.append(_term(f"objet magique {row.name}", row.cost, row.ref))
    if n_mw > level.magic_weapons or n_mi > level.magic_items or n_mw + n_mi > level.magic_total:
        en, fr = _level_allowance(level)
        found.append(violation("magic_by_level", where, level=level.name_en, allowed=en, allowed_fr=fr))
    cost = (base + sum(t["cost"] for t in terms[1:]))
    return {"cost": cost, "valid": not found, "type": ctype.name, "level": level.name, "experience": xp,
            "spells": n_spells, "skills": [table[s][0] for s in skills], "terms": terms, "curse": curse,
            "equipment_points": equipment, "magic_points": magic,
            "violations": [sentence(v) for v in found], "violation_details": found}


def _curse_fields(field: str, c: dict) -> tuple[int | None, dict]:
    """The curse roll as ``curse_roll`` (+ ``curse_d100`` or ``curse``), or as the army builder
    records it: ``"curse": {"d100": n, "curse_d100"?: m}``."""
    rec = c.get("curse")
    if isinstance(rec, dict):
        roll = rec.get("d100")
        c = {**c, "curse": rec.get("curse") if rec.get("curse_d100") is None else None,
             "curse_d100": rec.get("curse_d100")}
        return integer(f"{field}.curse.d100", roll, 1, 100), c
    return c.get("curse_roll"), c


def _curse(field: str, c: dict, where: str, weapon: str, roll: int, found: list) -> dict | None:
    table = data.curses()
    if c.get("curse_d100") is not None:
        row = table.read(integer(f"{field}.curse_d100", c["curse_d100"], 1, 100), f"{field}.curse_d100")
    elif c.get("curse") is not None:
        rows = {r.result: [r.result, r.result_en] for r in table.rows}
        name = match(f"{field}.curse", c["curse"], rows)
        row = next(r for r in table.rows if r.result == name)
    else:
        found.append(violation("curse_table_roll", where, weapon=weapon, roll=roll))
        return {"cursed": True, "roll": roll, "curse": None,
                "citations": [data.curse_roll().ref, table.head.ref]}
    return {"cursed": True, "roll": roll, "curse": row.result, "curse_en": row.result_en,
            "effect": row.effect, "effect_en": row.effect_en, "from": row.low, "to": row.high,
            "citations": [data.curse_roll().ref, row.ref, *(row.decision.split(", ") if row.decision else [])]}
