"""The army-building data, validated (``data/troops.toml``, ``beasts.toml``, ``characters.toml``,
``magic_weapons.toml``, ``magic_items.toml``, ``army.toml``, ``tables/curses.toml``).

Every row carries its seed line (``ref``) and, when a reading fixes it, its ``decision``;
:mod:`.costs` and :mod:`.army` apply them. Names are matched as printed (:func:`names.match`):
each row offers its printed ``name`` first, then other printed spellings and English words.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field

from . import d100
from .rows import DataError, Row, document, load, one


class Named(Row):
    name: str
    name_en: str
    names: tuple[str, ...] = ()

    def spellings(self) -> list[str]:
        return [self.name, *self.names, self.name_en]


class Race(Named):
    id: str
    A: int
    B: int
    C: int
    character: int

    def price(self, cls: str) -> int:
        return getattr(self, cls)


class TroopClass(Named):
    id: str
    printed: str
    printed_en: str


class Adjustment(Named):
    id: str
    printed: str
    per_figure: int


class Weapon(Named):
    id: str
    cost: int = Field(ge=0)
    characters_only: bool = False
    missile: bool = False
    races: tuple[str, ...] = ()


class Armour(Named):
    id: str
    cost: int = Field(ge=0)


class Pochteca(Named):
    cost: int
    printed: str
    printed_en: str


class Beast(Named):
    id: str
    kind: str = Field(pattern="^(creature|monster)$")
    cost: int = Field(gt=0)


class Base(Row):
    cost: int
    printed: str


class Price(Named):
    id: str
    per_point: int


class Level(Named):
    id: str
    ordinary: bool
    magic_weapons: int
    magic_items: int
    magic_total: int
    spell_price: int


class CharacterType(Named):
    id: str
    FC: tuple[int, int]
    FM: tuple[int, int]
    CM: tuple[int, int]
    experience: tuple[int, int, int]
    spells: tuple[int, int, int] | None = None


class Skill(Row):
    type: str
    name: str
    name_en: str
    effect: str
    effect_en: str

    def spellings(self) -> list[str]:
        return [self.name, self.name_en]


class MagicThing(Row):
    name: str
    name_en: str
    cost: int = Field(gt=0)
    effect: str
    effect_en: str

    def spellings(self) -> list[str]:
        return [self.name, self.name_en]


class CurseRoll(Row):
    at_most: int
    printed: str
    printed_en: str


class Constraint(Row):
    id: str
    value: float | int | None = None
    message_en: str
    message_fr: str


def _by_id(rows) -> dict:
    out = {}
    for r in rows:
        if r.id in out:
            raise DataError(f"guerres_fleuries/data: duplicate id {r.id!r}")
        out[r.id] = r
    return out


@lru_cache(maxsize=None)
def races() -> dict[str, Race]:
    return _by_id(load(Race, "troops.toml", "race"))


@lru_cache(maxsize=None)
def classes() -> dict[str, TroopClass]:
    return _by_id(load(TroopClass, "troops.toml", "class"))


@lru_cache(maxsize=None)
def adjustments() -> dict[str, Adjustment]:
    return _by_id(load(Adjustment, "troops.toml", "adjustment"))


@lru_cache(maxsize=None)
def weapons() -> dict[str, Weapon]:
    return _by_id(load(Weapon, "troops.toml", "weapon"))


@lru_cache(maxsize=None)
def armours() -> dict[str, Armour]:
    return _by_id(load(Armour, "troops.toml", "armour"))


@lru_cache(maxsize=None)
def pochteca() -> Pochteca:
    return one(Pochteca, "troops.toml", "pochteca")


@lru_cache(maxsize=None)
def beasts() -> dict[str, Beast]:
    return _by_id(load(Beast, "beasts.toml", "beast"))


@lru_cache(maxsize=None)
def character_base() -> Base:
    return one(Base, "characters.toml", "base")


@lru_cache(maxsize=None)
def prices() -> dict[str, Price]:
    return _by_id(load(Price, "characters.toml", "price"))


@lru_cache(maxsize=None)
def levels() -> dict[str, Level]:
    return _by_id(load(Level, "characters.toml", "level"))


@lru_cache(maxsize=None)
def character_types() -> dict[str, CharacterType]:
    return _by_id(load(CharacterType, "characters.toml", "type"))


@lru_cache(maxsize=None)
def skills() -> tuple[Skill, ...]:
    rows = tuple(load(Skill, "characters.toml", "skill"))
    for r in rows:
        if r.type not in character_types():
            raise DataError(f"guerres_fleuries/data/characters.toml: skill {r.name!r} of unknown type {r.type!r}")
    return rows


@lru_cache(maxsize=None)
def magic_weapons() -> dict[str, MagicThing]:
    return {r.name: r for r in load(MagicThing, "magic_weapons.toml", "weapon")}


@lru_cache(maxsize=None)
def curse_roll() -> CurseRoll:
    return one(CurseRoll, "magic_weapons.toml", "curse_roll")


@lru_cache(maxsize=None)
def magic_items() -> dict[str, MagicThing]:
    return {r.name: r for r in load(MagicThing, "magic_items.toml", "item")}


@lru_cache(maxsize=None)
def constraints() -> dict[str, Constraint]:
    return _by_id(load(Constraint, "army.toml", "constraint"))


def curses() -> d100.Table:
    return d100.table("curses")


def choices(rows) -> dict[str, list[str]]:
    """``{id: spellings}`` for :func:`names.match` (rows a dict id -> row)."""
    return {rid: r.spellings() for rid, r in rows.items()}


def spells_printed() -> dict[str, list[str]] | None:
    """The divine spells' printed names when the magic data (``data/magic.toml``, gf-morale's)
    lists them (``[[spell]]`` with ``printed`` or ``name``, and ``name_en``); None while it does not (spells are then counted, not named)."""
    try:
        doc = document("magic.toml")
    except DataError:
        return None
    rows = doc.get("spell")
    if not isinstance(rows, list):
        return None
    out = {}
    for r in rows:
        printed = r.get("printed", r.get("name")) if isinstance(r, dict) else None
        if isinstance(printed, str):
            out[r.get("id", printed)] = [printed, *([r["name_en"]] if isinstance(r.get("name_en"), str) else [])]
    return out or None
