"""The units of a battle from two army documents (the army builder's format, docs/formats.md):
troops, characters, creatures and monsters, each with its side, profile, figures and points.
The army is validated by the builder first; a malformed one is refused naming the field."""

from __future__ import annotations

from collections import Counter

from oriflamme.core.errors import ScenarioError

from .. import army_rows, beings, builder, fire as fire_data, melee as melee_data, movement
from ..names import RefereeError, match
from .rules import rules
from .state import Unit


def _race(text, field: str) -> str:
    try:
        return beings.race(field, text or "Homme")
    except RefereeError as exc:
        raise ScenarioError(str(exc)) from None


def _pick(items: list[str], rows: dict) -> str | None:
    """The first of ``items`` that names a row of ``rows`` (by its printed names)."""
    for item in items:
        for rid, row in rows.items():
            names = [rid] + list(getattr(row, "names", []) or [])
            if any(item.strip().lower() == n.lower() for n in names):
                return rid
    return None


def equip(u: Unit) -> Unit:
    """The fire, melee and armour rows the army's items name (data/fire.toml, data/melee.toml)."""
    u.missile = _pick(u.weapons, fire_data.weapons())
    u.propulseur = any("propulseur" in w.lower() for w in u.weapons)
    u.melee_weapon = _pick([w for w in u.weapons if _pick([w], fire_data.weapons()) is None],
                           melee_data.weapons()) or _pick(u.weapons, melee_data.weapons())
    u.armour = _pick(u.armour_items, fire_data.armours()) or "sans_armure"
    u.shields = any("bouclier" in a.lower() or "shield" in a.lower() for a in u.armour_items)
    return u


def _troop(side: str, uid: str, entry: dict, summary: dict, points: int) -> Unit:
    groups = summary.get("groups") or []
    figures = summary["figures"]
    if groups:
        race = _race(groups[0].get("race"), f"units[].groups[0].race")
        by_class = Counter()
        for g in groups:
            by_class[g["class"]] += g["figures"]
        cls = by_class.most_common(1)[0][0]  # OR-GF35: the class of most figures
        weapons, armour = [], []
        for g in entry.get("groups", []):
            weapons += [w for w in g.get("weapons", []) if w not in weapons]
            armour += [a for a in g.get("armour", []) if a not in armour]
    else:  # a unit given by figures, class and points
        race, cls, weapons, armour = "homme", summary.get("class", "B"), [], []
    mercenary = bool(entry.get("mercenary"))
    fanatic = bool(groups) and all(g.get("fanatic") for g in groups)
    label = f"{beings.printed_name(race)} {cls}" + (" (M)" if mercenary else "")
    u = Unit(id=uid, side=side, kind="troop", name=entry.get("name") or label, type=label, mover=race,
             klass=cls, mercenary=mercenary, fanatic=fanatic, race=race, weapons=weapons, armour_items=armour,
             figures=figures, figures_max=figures, points=points)
    u.set_formation("line")
    return equip(u)


def _character(side: str, uid: str, entry: dict, summary: dict, points: int) -> Unit:
    race = _race(entry.get("race"), "characters[].race")
    level = entry.get("level", "")
    label = f"{summary.get('type_name') or entry.get('type', '')} {level}".strip()
    u = Unit(id=uid, side=side, kind="character", name=entry.get("name") or label, type=label, mover=race,
             race=race, weapons=list(entry.get("weapons", [])), armour_items=list(entry.get("armour", [])),
             figures=1, figures_max=1, points=points, frontage=1,
             FC=int(entry.get("FC", 0) or 0), FM=int(entry.get("FM", 0) or 0), CM=int(entry.get("CM", 0) or 0),
             skills=[str(s) for s in entry.get("skills") or [] if isinstance(s, str)],
             spells=_spells(entry.get("spells")))
    curse = summary.get("curse") if isinstance(summary.get("curse"), dict) else {}
    u.curse = curse.get("curse") if curse.get("cursed") else None
    u.magic_item = entry.get("magic_item") or None
    u.magic_weapon = entry.get("magic_weapon") or None
    u.set_formation("open")
    return equip(u)


def _spells(listed) -> list[str]:
    """The spells a priest chose before the battle (l.1136), as ids of data/magic.toml; a count (the
    army gives only how many) names none."""
    if not isinstance(listed, list):
        return []
    from ..magic import data as magic_data
    names = {s.id: [s.id, s.printed, s.name_en] for s in magic_data().spells.values()}
    return [match("characters[].spells", str(x), names) for x in listed]


def _beast(side: str, uid: str, entry: dict, summary: dict, points: int, kind: str) -> Unit:
    row = army_rows.beasts()[match(f"{kind}s[].name", summary["name"], army_rows.choices(army_rows.beasts()))]
    alias = rules().mover_alias.get(row.id)
    mover = alias.mover if alias else row.id
    rates = movement.rates()
    if (mover, "ground") not in rates and (mover, "air") not in rates:
        raise ScenarioError(f"{kind}s: {row.name} has no movement row in data/movement.toml")
    flyer = (mover, "air") in rates
    figures = summary["figures"]
    u = Unit(id=uid, side=side, kind=kind, name=entry.get("name") or row.name, type=row.name, mover=mover,
             race=row.id, being=row.id, klass=None, figures=figures, figures_max=figures, points=points,
             frontage=min(figures, 5), flyer=flyer, altitude="combat" if flyer else None)
    u.set_formation("open")
    return u


def units_of(doc: dict, side: str, source: str) -> list[Unit]:
    """The units of one army document, ids ``<side>1``, ``<side>2``… (troops, then characters,
    creatures, monsters). Refuses an invalid army, naming the field or the broken rule."""
    try:
        verdict = builder.validate(doc)
    except RefereeError as exc:
        raise ScenarioError(f"{source}: {exc}") from None
    except Exception as exc:  # the builder's own errors (ArmyError) name the field
        raise ScenarioError(f"{source}: {exc}") from None
    if not verdict.get("valid"):
        first = (verdict.get("violations") or ["invalid army"])[0]
        raise ScenarioError(f"{source}: the army is not valid: {first}")
    army = builder.envelope(doc)
    out: list[Unit] = []
    n = 0

    def next_id() -> str:
        nonlocal n
        n += 1
        return f"{side}{n}"

    lines = verdict["lines"]
    for i, entry in enumerate(army.get("units", [])):
        out.append(_troop(side, next_id(), entry, verdict["units"][i], lines["units"][i]))
    chars = verdict.get("characters") or [{} for _ in army.get("characters", [])]
    for i, entry in enumerate(army.get("characters", [])):
        summary = chars[i] if i < len(chars) else {}
        out.append(_character(side, next_id(), entry, summary, lines["characters"][i]))
    for key, kind in (("creatures", "creature"), ("monsters", "monster")):
        found = [e for e in verdict.get("creatures", []) if e.get("section") == key] or None
        for i, entry in enumerate(army.get(key, [])):
            summary = found[i] if found else {"name": entry.get("name") or entry.get(kind) or entry.get("type"),
                                               "figures": int(entry.get("figures", 1))}
            out.append(_beast(side, next_id(), entry, summary, lines[key][i], kind))
    return out
