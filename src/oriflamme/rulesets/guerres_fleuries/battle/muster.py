"""The units of a battle from two army documents (the army builder's format, docs/formats.md):
troops, characters, creatures and monsters, each with its side, profile, figures and points.
The army is validated by the builder first; a malformed one is refused naming the field."""

from __future__ import annotations

from collections import Counter

from oriflamme.core.errors import ScenarioError

from .. import army_rows, beings, builder, movement
from ..names import RefereeError, match
from .rules import rules
from .state import Unit


def _race(text, field: str) -> str:
    try:
        return beings.race(field, text or "Homme")
    except RefereeError as exc:
        raise ScenarioError(str(exc)) from None


def _troop(side: str, uid: str, entry: dict, summary: dict, points: int) -> Unit:
    groups = summary.get("groups") or []
    figures = summary["figures"]
    if groups:
        race = _race(groups[0].get("race"), f"units[].groups[0].race")
        by_class = Counter()
        for g in groups:
            by_class[g["class"]] += g["figures"]
        cls = by_class.most_common(1)[0][0]  # OR-GF35: the class of most figures
        if entry.get("mercenary"):
            cls = "M"  # GF-B4
        if all(g.get("fanatic") for g in groups):
            cls = "fanatique"
        weapons, armour = [], []
        for g in entry.get("groups", []):
            weapons += [w for w in g.get("weapons", []) if w not in weapons]
            armour += [a for a in g.get("armour", []) if a not in armour]
    else:  # a unit given by figures, class and points
        race, cls, weapons, armour = "homme", summary.get("class", "B"), [], []
    label = f"{beings.printed_name(race)} {cls}"
    return Unit(id=uid, side=side, kind="troop", name=entry.get("name") or label, type=label, mover=race,
                cls=cls, race=race, weapons=weapons, armour=armour, figures=figures, figures_max=figures,
                points=points, formation="line", frontage=rules().formations["line"].frontage)


def _character(side: str, uid: str, entry: dict, summary: dict, points: int) -> Unit:
    race = _race(entry.get("race"), "characters[].race")
    level = entry.get("level", "")
    label = f"{summary.get('type_name') or entry.get('type', '')} {level}".strip()
    return Unit(id=uid, side=side, kind="character", name=entry.get("name") or label, type=label, mover=race,
                race=race, weapons=list(entry.get("weapons", [])), armour=list(entry.get("armour", [])),
                figures=1, figures_max=1, points=points, formation="open", frontage=1,
                fc=int(entry.get("FC", 0) or 0), fm=int(entry.get("FM", 0) or 0), cm=int(entry.get("CM", 0) or 0))


def _beast(side: str, uid: str, entry: dict, summary: dict, points: int, kind: str) -> Unit:
    row = army_rows.beasts()[match(f"{kind}s[].name", summary["name"], army_rows.choices(army_rows.beasts()))]
    alias = rules().mover_alias.get(row.id)
    mover = alias.mover if alias else row.id
    rates = movement.rates()
    if (mover, "ground") not in rates and (mover, "air") not in rates:
        raise ScenarioError(f"{kind}s: {row.name} has no movement row in data/movement.toml")
    flyer = (mover, "air") in rates
    figures = summary["figures"]
    return Unit(id=uid, side=side, kind=kind, name=entry.get("name") or row.name, type=row.name, mover=mover,
                being=row.id, figures=figures, figures_max=figures, points=points,
                formation="open", frontage=min(figures, 5), flyer=flyer, altitude="combat" if flyer else None)


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
