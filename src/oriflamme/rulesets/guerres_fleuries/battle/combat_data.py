"""The battle's combat data (``data/combat.toml``): the fire arc, the capture die, the recoil per
figure lost, the morale causes the battle detects and the distances of the
morale modifiers it reads off the table. Every number is cited; see the file's comments."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

from ..rows import Row, load, one

FILE = "combat.toml"


class FireArc(Row):
    half_angle_deg: float
    partial_ok: bool


class FireTargets(Row):
    max_printed: int
    max_played: int


class FireRange(Row):
    measure: Literal["firing_figures", "farthest_points"]


class Within(Row):
    within_cm: float


class Over(Row):
    over_cm: float


class Capture(Row):
    die: int
    faces: list[int]


class Recoil(Row):
    cm_per_figure: float


class Cause(Row):
    id: str
    printed: str
    en: str  # the English display (display.py)
    within_cm: float | None = None
    pct: int | None = None


class Near(Row):
    modifier: str
    within_cm: float


class Combat(BaseModel):
    fire_arc: FireArc
    fire_targets: FireTargets
    fire_range: FireRange
    fire_priority_near: Within
    target_moved: Over
    capture: Capture
    recoil: Recoil
    causes: dict[str, Cause]
    near: dict[str, Near]


@lru_cache(maxsize=1)
def data() -> Combat:
    return Combat(fire_arc=one(FireArc, FILE, "fire_arc"), fire_targets=one(FireTargets, FILE, "fire_targets"),
                  fire_range=one(FireRange, FILE, "fire_range"),
                  fire_priority_near=one(Within, FILE, "fire_priority_near"),
                  target_moved=one(Over, FILE, "target_moved"), capture=one(Capture, FILE, "capture"),
                  recoil=one(Recoil, FILE, "recoil"),
                  causes={c.id: c for c in load(Cause, FILE, "cause")},
                  near={n.modifier: n for n in load(Near, FILE, "near")})
