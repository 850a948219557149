"""Buildings (``data/buildings.toml``): defence values, damage growing by turn, fire. GF-K2."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, Field

from .rows import DataError, Row, document, load, one

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


class BuildingKind(Row):
    """A terrain kind that is a building, and the material and floors its elements have by default."""
    kind: str
    material: str
    floors: int = Field(ge=1)


class Play(Row):
    """How units enter, hold and leave buildings on the table (battle/buildings_play.py)."""
    enter_within_cm: float
    order: str
    leave_target: str
    units_per_building: int
    inside_orders: list[str]
    inside_cover: str
    ranks_per_floor: int
    who: list[str]
    printed: str


class Split(Row):
    """A unit too large for its building: the rest stays outside (l.673, l.786; OR-GF142, OR-GF143)."""
    min_inside: int = Field(ge=1)
    disordered: bool
    printed: list[str]
    text_en: str


class Behind(Row):
    """Units hidden behind a building (l.786, l.798; OR-GF144, OR-GF145)."""
    behind_cm: float
    who: list[str]
    phase: int
    printed: list[str]
    text_en: str


class Buildings(BaseModel):
    structures: dict[str, Structure]
    damage: dict[str, Damage]
    fire: Fire
    kinds: dict[str, BuildingKind]
    play: Play
    split: Split
    behind: Behind


@lru_cache(maxsize=1)
def data() -> Buildings:
    doc = document(FILE)
    return Buildings(structures={s.id: s for s in load(Structure, FILE, "structure")},
                     damage={d.id: d for d in load(Damage, FILE, "damage")},
                     fire=load(Fire, FILE, "fire", {"fire": [doc.get("fire")]})[0],
                     kinds=_kinds(), play=one(Play, FILE, "play"),
                     split=one(Split, FILE, "split"), behind=one(Behind, FILE, "behind"))


def _kinds() -> dict[str, BuildingKind]:
    rows = load(BuildingKind, FILE, "building_kind")
    ids = {s["id"] for s in document(FILE)["structure"]}
    for r in rows:
        if r.material not in ids:
            raise DataError(f"guerres_fleuries/data/{FILE}: [[building_kind]] {r.kind}: unknown material {r.material!r}")
    return {r.kind: r for r in rows}
