"""Scales, bases and regimental stands (``data/scale.toml``; seed 003 "ECHELLES", l.7–22): the
footprints part 2's tabletop geometry builds units from."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from .rows import Row, load, one

FILE = "scale.toml"


class Scale(Row):
    cm_to_m: int
    figure_is: str
    phase_is: str


class Base(Row):
    id: str
    printed: str
    name_en: str
    base_diameter_mm: int | None = None  # None: the figure's own base
    bases_per_stand: int | None = None


class Scales(BaseModel):
    scale: Scale
    bases: dict[str, Base]


@lru_cache(maxsize=1)
def scales() -> Scales:
    return Scales(scale=one(Scale, FILE, "scale"), bases={b.id: b for b in load(Base, FILE, "base")})
