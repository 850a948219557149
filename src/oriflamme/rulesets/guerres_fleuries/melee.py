"""Melee data (``data/melee.toml``): the rank bonus, the weapons, the PBC of every attacker
(troop races by weapon, creatures and monsters without) and the armour of each being."""

from __future__ import annotations

from functools import lru_cache

from .rows import Row, load, one

FILE = "melee.toml"


class RankBonus(Row):
    per_rank: int
    max: int
    none_when_disordered: bool


class Weapon(Row):
    id: str
    names: list[str]
    name_en: str  # the English display (display.py)


class Pbc(Row):
    attacker: str
    weapon: str | None = None
    sans_armure: int
    coton: int
    saurien: int
    modifiers: str = "melee"


class BeingArmour(Row):
    being: str
    armour: str
    printed: str


class Step(Row):
    step: int
    printed: str


@lru_cache(maxsize=None)
def procedure() -> list[Step]:
    return load(Step, FILE, "procedure")


@lru_cache(maxsize=None)
def rank_bonus() -> RankBonus:
    return one(RankBonus, FILE, "rank_bonus")


@lru_cache(maxsize=None)
def weapons() -> dict[str, Weapon]:
    return {r.id: r for r in load(Weapon, FILE, "weapon")}


@lru_cache(maxsize=None)
def pbc() -> dict[tuple[str, str | None], Pbc]:
    return {(r.attacker, r.weapon): r for r in load(Pbc, FILE, "pbc")}


@lru_cache(maxsize=None)
def being_armour() -> dict[str, BeingArmour]:
    return {r.being: r for r in load(BeingArmour, FILE, "being_armour")}


def bonus_for_ranks(ranks: int, disordered: bool) -> int:
    """+1 per rank beyond the first, at most 5, none when disordered (GF-H1)."""
    rb = rank_bonus()
    if disordered and rb.none_when_disordered:
        return 0
    return min(max(ranks - 1, 0) * rb.per_rank, rb.max)
