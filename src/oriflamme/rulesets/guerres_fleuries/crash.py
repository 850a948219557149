"""A flying creature wounded or killed in the air (``data/crash.toml``; seed 003 l.891–914): where it
lands, who survives the crash, the damage to a structure it falls on, the risk to its rider.
Data for part 2's table game (issue 13), read here and checked against the seed."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from .rows import Row, load, one

FILE = "crash.toml"


class Wounded(Row):
    land_within_cm: int
    crash_from: str
    extra_wound: str


class Killed(Row):
    survives_below_pct: int


class StructureDamage(Row):
    id: str
    printed: str
    name_en: str
    dice: int
    sides: int

    @property
    def printed_dice(self) -> str:
        return f"{self.dice}d{self.sides}"


class RiderRisk(Row):
    id: str
    printed: str
    name_en: str
    wounded_at_most_pct: int


class Carcass(Row):
    width_cm: float
    depth_cm: float
    kinds: list[str]


class Crash(BaseModel):
    wounded: Wounded
    killed: Killed
    structure_damage: dict[str, StructureDamage]
    rider_risk: dict[str, RiderRisk]
    carcass: Carcass


@lru_cache(maxsize=1)
def crash() -> Crash:
    return Crash(wounded=one(Wounded, FILE, "wounded"), killed=one(Killed, FILE, "killed"),
                 structure_damage={r.id: r for r in load(StructureDamage, FILE, "structure_damage")},
                 rider_risk={r.id: r for r in load(RiderRisk, FILE, "rider_risk")},
                 carcass=one(Carcass, FILE, "carcass"))
