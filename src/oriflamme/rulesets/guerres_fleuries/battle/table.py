"""The battlefield's model: a 180 × 120 cm table (l.481) and its terrain elements, what they give
(cover, obstacles to sight) and the deployment zones (l.495). Reading and writing battlefields is
:mod:`.battlefield`; random tables are :mod:`.generator`."""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from oriflamme.core.errors import OriflammeError
from oriflamme.geometry.tabletop import HILL, Obstacle

from .. import prebattle
from . import terrain


class BattlefieldError(OriflammeError):
    """A battlefield document is malformed: the message names the file, the field and the reason."""


@dataclass(frozen=True)
class TerrainElement:
    """One piece of terrain: its id, kind (data/terrain.toml), name and geometry (Polygon for an
    area kind, LineString for a line kind)."""

    id: str
    kind: str
    name: str
    geometry: BaseGeometry
    name_fr: str = ""
    material: str = ""   # a building's structure (data/buildings.toml), "" for other kinds
    floors: int = 0      # a building's floors (l.790), 0 for other kinds

    @property
    def kind_row(self) -> terrain.TerrainKind:
        return terrain.kind(self.kind)

    @property
    def points(self) -> list[list[float]]:
        coords = self.geometry.exterior.coords[:-1] if isinstance(self.geometry, Polygon) else self.geometry.coords
        return [[round(x, 6), round(y, 6)] for x, y in coords]

    def to_json(self) -> dict:
        out = {"id": self.id, "kind": self.kind, "name": self.name, "points": self.points}
        if self.name_fr:
            out["name_fr"] = self.name_fr
        if self.material:
            out.update(material=self.material, floors=self.floors)
        return out

    def view(self) -> dict:
        """The element as the browser draws it (GF2.md's view shape)."""
        k = self.kind_row
        return {"id": self.id, "kind": self.kind, "kind_name": k.name_en, "kind_name_fr": k.name_fr,
                "name": self.name or k.name_en, "name_fr": self.name_fr or self.name or k.name_fr,
                "shape": k.shape, "points": self.points, "cover": k.cover, "sight": k.sight, "ref": k.ref,
                **({"material": self.material, "floors": self.floors} if self.material else {})}


@dataclass(frozen=True)
class Battlefield:
    """The table: ``width`` × ``height`` cm and its terrain ``elements``."""

    width: float = 180
    height: float = 120
    elements: tuple[TerrainElement, ...] = ()
    name: str = ""
    name_fr: str = ""
    _index: dict = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "elements", tuple(self.elements))
        object.__setattr__(self, "_index", {e.id: e for e in self.elements})

    @property
    def outline(self) -> Polygon:
        return box(0, 0, self.width, self.height)

    def element(self, element_id: str) -> TerrainElement:
        try:
            return self._index[element_id]
        except KeyError:
            raise BattlefieldError(f"no terrain element {element_id!r} on this battlefield") from None

    def at(self, geom: BaseGeometry) -> list[TerrainElement]:
        """The elements ``geom`` touches or stands in."""
        return [e for e in self.elements if e.geometry.intersects(geom)]

    def cover_of(self, geom: BaseGeometry) -> tuple[str, list[str]]:
        """The best cover an area element gives ``geom`` by lying mostly inside it (l.1367: a base in
        two terrains counts as in the one it mostly occupies). Linear cover needs the unit against
        the obstacle and the attack coming across it: :meth:`linear_cover_of`. Returns (cover,
        element ids)."""
        def inside(e):
            if geom.area > 0:
                return geom.intersection(e.geometry).area >= geom.area / 2
            return e.geometry.covers(geom)
        return _best_cover(e for e in self.elements if e.kind_row.shape == terrain.AREA and inside(e))

    def linear_cover_of(self, target: BaseGeometry, attacker: BaseGeometry,
                        tolerance_cm: float | None = None) -> tuple[str, list[str]]:
        """The cover a wall, hedge or fence gives ``target`` against ``attacker`` (l.760: "il faut être
        contre l'objet"): the obstacle is within the contact tolerance of the target (OR-GF21) and the
        line from the attacker's centre to the target's centre crosses it. Returns (cover, ids)."""
        tol = terrain.table().contact_tolerance_cm if tolerance_cm is None else tolerance_cm
        line = LineString([attacker.centroid, target.centroid])
        return _best_cover(e for e in self.elements if e.kind_row.shape == terrain.LINE
                           and e.geometry.distance(target) <= tol and e.geometry.intersects(line))

    def obstacles(self) -> list[Obstacle]:
        """The elements that stop sight, as tabletop obstacles (data/terrain.toml's sight rules)."""
        return _obstacles(self)

    def to_json(self) -> dict:
        out = {"width": self.width, "height": self.height, "elements": [e.to_json() for e in self.elements]}
        if self.name:
            out = {"name": self.name, **({"name_fr": self.name_fr} if self.name_fr else {}), **out}
        return out

    def view(self) -> dict:
        """The table as the browser draws it: size, terrain, and the deployment zones."""
        zones = deployment_zones(self)
        return {"width": self.width, "height": self.height, "name": self.name, "name_fr": self.name_fr,
                "terrain": [e.view() for e in self.elements],
                "zones": {side: [[round(x, 6), round(y, 6)] for x, y in z.exterior.coords[:-1]]
                          for side, z in zones.items()}}


COVERS = ("none", "light", "medium", "dense")


def _best_cover(elements) -> tuple[str, list[str]]:
    best, ids = "none", []
    for e in elements:
        cover = e.kind_row.cover
        if cover == "none" or COVERS.index(cover) < COVERS.index(best):
            continue
        if COVERS.index(cover) > COVERS.index(best):
            ids = []
        best = cover
        ids.append(e.id)
    return best, ids


def _obstacles(bf: Battlefield) -> list[Obstacle]:
    cached = getattr(bf, "_obstacles", None)
    if cached is not None:
        return cached
    out = []
    for e in bf.elements:
        k = e.kind_row
        rule = terrain.sight_rules()[k.sight]
        if rule.rule == "none":
            continue
        out.append(Obstacle(e.id, e.geometry, rule.rule, rule.height, rule.see_through_cm, e.kind, e.name))
    object.__setattr__(bf, "_obstacles", out)
    return out


def unit_obstacle(unit_id: str, geometry: BaseGeometry, name: str = "") -> Obstacle:
    """A unit on the table as an obstacle to sight (OR-GF23: units hide what is behind them from the
    plain; a unit on a hill sees over them, l.501)."""
    rule = terrain.sight_rules()["unit"]
    return Obstacle(unit_id, geometry, rule.rule, rule.height, rule.see_through_cm, "unit", name)


def is_hill(obstacle: Obstacle) -> bool:
    return obstacle.rule == HILL


# --- deployment zones ----------------------------------------------------------------------------

def deployment_zones(battlefield: Battlefield) -> dict[str, Polygon]:
    """Each side's deployment zone (l.495): from its own edge (A: y = height, B: y = 0) to 30 cm from
    the centre line, leaving 30 cm at each side."""
    dep = prebattle.data().deployment
    mid = battlefield.height / 2
    x0, x1 = dep.zone_side_margin_cm, battlefield.width - dep.zone_side_margin_cm
    depth = dep.zone_depth_from_centre_line_cm
    return {"A": box(x0, mid + depth, x1, battlefield.height), "B": box(x0, 0, x1, mid - depth)}
