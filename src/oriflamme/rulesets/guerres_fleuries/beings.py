"""Who acts: the races (Homme, Saurien), the troop classes, the creatures and the monsters of
``data/command.toml``, each with its printed names, and their command/reaction values."""

from __future__ import annotations

from functools import lru_cache

from .names import match
from .rows import Row, load

FILE = "command.toml"


class Race(Row):
    id: str
    names: list[str]
    name_en: str  # the English display (:mod:`.display`)


class TroopClass(Row):
    id: str
    printed: str
    name_en: str  # the English display (:mod:`.display`)
    names: list[str]
    homme: int
    saurien: int | None = None
    auto_when_charging: bool = False


class Being(Row):
    id: str
    names: list[str]
    command: int


class Exemption(Row):
    id: str
    printed: str


@lru_cache(maxsize=None)
def races() -> dict[str, Race]:
    return {r.id: r for r in load(Race, FILE, "race")}


@lru_cache(maxsize=None)
def classes() -> dict[str, TroopClass]:
    return {r.id: r for r in load(TroopClass, FILE, "troop_class")}


@lru_cache(maxsize=None)
def creatures() -> dict[str, Being]:
    return {r.id: r for r in load(Being, FILE, "creature")}


@lru_cache(maxsize=None)
def monsters() -> dict[str, Being]:
    return {r.id: r for r in load(Being, FILE, "monster")}


@lru_cache(maxsize=None)
def exemptions() -> dict[str, Exemption]:
    return {r.id: r for r in load(Exemption, FILE, "exemption")}


def choices(rows: dict) -> dict[str, list[str]]:
    return {rid: list(r.names) for rid, r in rows.items()}


def race(field: str, text) -> str:
    return match(field, text, choices(races()))


def troop_class(field: str, text) -> str:
    return match(field, text, choices(classes()))


def creature(field: str, text) -> str:
    return match(field, text, choices(creatures()))


def monster(field: str, text) -> str:
    return match(field, text, choices(monsters()))


def mover(field: str, text) -> tuple[str, str]:
    """Any mover: ``("race"|"creature"|"monster", id)``."""
    every = {**choices(races()), **choices(creatures()), **choices(monsters())}
    mid = match(field, text, every)
    sort = "race" if mid in races() else "creature" if mid in creatures() else "monster"
    return sort, mid


def printed_name(mid: str) -> str:
    for rows in (races(), creatures(), monsters()):
        if mid in rows:
            return rows[mid].names[0]
    return mid
