"""Fire data (``data/fire.toml``): armours, range bands, weapons, the PBT of each shooter race,
the firing ranks and the target sorts."""

from __future__ import annotations

from functools import lru_cache

from .rows import Row, load

FILE = "fire.toml"


class Named(Row):
    id: str
    names: list[str]
    name_en: str  # the English display (display.py)


class Band(Named):
    divisor: int


class Weapon(Named):
    propulseur_cm: int = 0


class Pbt(Row):
    shooter: str
    weapon: str
    courte: int
    moyenne: int
    longue: int
    sans_armure: int
    coton: int
    saurien: int


class Ranks(Row):
    weapon: str
    homme: int
    saurien: int


class Target(Named):
    name_en: str = ""  # its first name is English already
    casualties: str
    auto_modifier: str | None = None


class Printed(Row):
    printed: str
    rank: int | None = None
    step: int | None = None
    name_en: str = ""


def _by(model, table, key="id"):
    return {getattr(r, key): r for r in load(model, FILE, table)}


@lru_cache(maxsize=None)
def armours() -> dict[str, Named]:
    return _by(Named, "armour")


@lru_cache(maxsize=None)
def bands() -> dict[str, Band]:
    return _by(Band, "band")


@lru_cache(maxsize=None)
def weapons() -> dict[str, Weapon]:
    return _by(Weapon, "weapon")


@lru_cache(maxsize=None)
def pbt() -> dict[tuple[str, str], Pbt]:
    return {(r.shooter, r.weapon): r for r in load(Pbt, FILE, "pbt")}


@lru_cache(maxsize=None)
def ranks() -> dict[str, Ranks]:
    return _by(Ranks, "ranks", "weapon")


@lru_cache(maxsize=None)
def targets() -> dict[str, Target]:
    return _by(Target, "target")


def choices(rows: dict) -> dict[str, list[str]]:
    return {rid: list(r.names) for rid, r in rows.items()}


@lru_cache(maxsize=None)
def priorities() -> list[Printed]:
    return load(Printed, FILE, "priority")


@lru_cache(maxsize=None)
def procedure() -> list[Printed]:
    return load(Printed, FILE, "procedure")
