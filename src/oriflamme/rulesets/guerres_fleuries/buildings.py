"""Buildings (``data/buildings.toml``): defence values, damage growing by turn, fire. GF-K2."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from .rows import Row, document, load

FILE = "buildings.toml"


class Structure(Row):
    id: str
    printed: str
    name_en: str
    dice: int
    sides: int
    flammable: bool = False

    @property
    def printed_dice(self) -> str:
        return f"{self.dice}d{self.sides}"


class Damage(Row):
    id: str
    printed: str
    first: int
    step: int

    def on_turn(self, turn: int) -> int:
        """The damage dealt on the ``turn``-th turn (1-based): first, first + step, ..."""
        return self.first + (turn - 1) * self.step


class Fire(Row):
    only_flammable: bool
    evacuate_at_pct: int
    figure_dies_on_d100_at_least: int
    character: str
    extinguish_on_d100_at_most: int
    extinguish_phase: int
    extinguish_reduces_by: int
    printed: str
    text_en: str


class Buildings(BaseModel):
    structures: dict[str, Structure]
    damage: dict[str, Damage]
    fire: Fire


@lru_cache(maxsize=1)
def data() -> Buildings:
    doc = document(FILE)
    return Buildings(structures={s.id: s for s in load(Structure, FILE, "structure")},
                     damage={d.id: d for d in load(Damage, FILE, "damage")},
                     fire=load(Fire, FILE, "fire", {"fire": [doc.get("fire")]})[0])
