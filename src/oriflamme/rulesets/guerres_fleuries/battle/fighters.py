"""What fire, melee, morale and rallying read and write on the battle state: one place that knows
the state's shape, so the rule modules (fire_play, melee_play, morale_play, rally, casualties) only
ask questions ("who is in contact with whom", "what cover is this unit in").

:class:`Fighter` lists the attributes a unit must have (the engine's unit provides them);
:class:`Battle` is the smallest state the combat functions need (the engine's state provides the
same attributes). Both are also usable on their own, for the tests and for the referee's checks.
Geometry is :mod:`oriflamme.geometry.tabletop` (Shapely): nothing is measured here by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from shapely.geometry.base import BaseGeometry

from oriflamme.geometry import tabletop

from . import terrain
from .battlefield import Battlefield, unit_obstacle

ALIVE = ("ok", "retreat", "rout")
KINDS = ("troop", "character", "creature", "monster")


@dataclass
class Fighter:
    """A unit, character, creature or monster as combat sees it. ``race`` is the troop race
    (``homme``/``saurien``) or the being's id in data/command.toml (``pterodactyle``…);
    ``klass`` the troop class (A, B, C; a mercenary unit keeps its class and has ``mercenary``);
    ``armour`` an id of data/fire.toml ``[[armour]]``; ``missile`` one of ``[[weapon]]`` there,
    ``melee_weapon`` one of data/melee.toml's. ``base_w``/``base_d``: one figure's base in cm."""

    id: str
    side: str
    name: str = ""
    kind: str = "troop"
    race: str = "homme"
    klass: str | None = "B"
    mercenary: bool = False
    fanatic: bool = False
    bestial: bool = False
    figures: int = 20
    figures_max: int = 20
    figures_turn_start: int | None = None
    frontage: int = 10
    ranks: int = 2
    base_w: float = 2.0
    base_d: float = 2.0
    x: float = 90.0
    y: float = 60.0
    heading: float = 0.0
    formation: str = "line"
    disorder: bool = False
    status: str = "ok"
    order: str | None = None
    target: str | None = None
    charging: bool = False
    moved_cm: float = 0.0
    missile: str | None = None
    propulseur: bool = False
    melee_weapon: str | None = None
    armour: str = "sans_armure"
    shields: bool = False
    FC: int = 0
    FM: int = 0
    CM: int = 0
    wounds: list[str] = field(default_factory=list)
    led_by: str | None = None
    altitude: str | None = None
    markers: list[str] = field(default_factory=list)
    pending: dict | None = None  # a move owed in phase 1 of the next turn (retreat, rout, pursuit)


@dataclass
class Battle:
    """The smallest battle state combat needs: the units by id, the turn and phase, the
    battlefield (gf-geom's :class:`Battlefield`: terrain, cover, sight) and the omen points per side."""

    units: dict[str, Fighter]
    turn: int = 1
    phase: int = 8
    battlefield: Battlefield = field(default_factory=Battlefield)
    omens: dict = field(default_factory=lambda: {"A": 0, "B": 0})


# --- reading the state ----------------------------------------------------------------------------

def units(state) -> list:
    u = state.units
    return list(u.values()) if isinstance(u, dict) else list(u)


def unit(state, uid: str):
    for u in units(state):
        if u.id == uid:
            return u
    raise KeyError(uid)


def alive(u) -> bool:
    return u.status in ALIVE and u.figures > 0


def enemies(state, u) -> list:
    return [v for v in units(state) if v.side != u.side and alive(v)]


def friends(state, u) -> list:
    return [v for v in units(state) if v.side == u.side and v.id != u.id and alive(v)]


def pose(u) -> tabletop.Pose:
    return tabletop.Pose(u.x, u.y, u.heading)


def width(u) -> float:
    return max(min(u.frontage, u.figures), 1) * u.base_w


def depth(u) -> float:
    return max(u.ranks, 1) * u.base_d


def shape(u) -> BaseGeometry:
    """The unit's footprint on the table (tabletop.footprint)."""
    return tabletop.footprint(pose(u), width(u), depth(u))


def set_pose(u, p: tabletop.Pose) -> None:
    u.x, u.y, u.heading = p.x, p.y, p.heading


def tolerance() -> float:
    """Base-to-base contact slack (data/terrain.toml [table], OR-GF21)."""
    return terrain.table().contact_tolerance_cm


def touching(a, b) -> bool:
    return tabletop.in_contact(shape(a), shape(b), tolerance())


def in_combat(state, u) -> bool:
    return any(touching(u, v) for v in enemies(state, u))


def arc(of, other) -> str:
    """The arc of ``of``'s footprint that ``other`` lies in (tabletop.arc_of, OR-GF20)."""
    return tabletop.arc_of(pose(of), width(of), depth(of), shape(other))


def battlefield(state) -> Battlefield:
    return getattr(state, "battlefield", None) or Battlefield()


COVER_ORDER = ("none", "light", "medium", "dense")


def cover_of(state, u) -> tuple[str, str] | None:
    """The cover the unit has: the area terrain it mostly stands in (Battlefield.cover_of, l.1367),
    or a linear obstacle with cover it stands against (OR-GF57: its footprint within the contact
    slack of the line, l.760). ``(light|medium|dense, element ids)`` or None."""
    bf = battlefield(state)
    best, ids = bf.cover_of(shape(u))
    for e in bf.elements:
        k = e.kind_row
        if k.shape == terrain.LINE and k.cover != "none" and tabletop.in_contact(shape(u), e.geometry, tolerance()):
            if COVER_ORDER.index(k.cover) > COVER_ORDER.index(best):
                best, ids = k.cover, [e.id]
    return (best, ", ".join(ids)) if best != "none" else None


def in_woods(state, u) -> bool:
    """Whether the unit stands in woods (a terrain whose sight rule is the wood's, data/terrain.toml):
    only its first rank fires (l.726)."""
    return any(e.kind_row.sight == "wood" and e.kind_row.shape == terrain.AREA for e in battlefield(state).at(shape(u)))


def sight_obstacles(state, *ends) -> list:
    """The obstacles between units: the terrain's and every other unit's footprint (OR-GF23)."""
    skip = {e.id for e in ends}
    out = list(battlefield(state).obstacles())
    for v in units(state):
        if v.id not in skip and alive(v) and v.altitude is None:
            out.append(unit_obstacle(f"unit:{v.id}", shape(v), v.name or v.id))
    return out


def off_table(state, u) -> bool:
    minx, miny, maxx, maxy = shape(u).bounds
    bf = battlefield(state)
    return minx < 0 or miny < 0 or maxx > bf.width or maxy > bf.height


def mark(u, marker: str) -> None:
    if marker not in u.markers:
        u.markers.append(marker)


def unmark(u, marker: str) -> None:
    if marker in u.markers:
        u.markers.remove(marker)


def target_kind(u) -> str:
    """The fire/melee target sort of data/fire.toml [[target]] (troops are a 'unit')."""
    return "unit" if u.kind == "troop" else u.kind


def ranks_for(figures: int, frontage: int) -> int:
    return math.ceil(figures / frontage) if figures > 0 and frontage > 0 else 0
