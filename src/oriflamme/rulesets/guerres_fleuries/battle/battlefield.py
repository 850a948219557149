"""The battlefield: a 180 × 120 cm table (l.481) and its terrain elements, with a JSON codec whose
errors name the file, the field and the position, the bundled tables (``battlefields/*.json``) and
the deployment zones (l.495).

JSON format (docs/guerres-fleuries/geometry.md)::

    {"name": "…", "name_fr": "…", "width": 180, "height": 120,
     "elements": [{"id": "w1", "kind": "bois", "name": "…", "points": [[x, y], …]}, …]}

An area kind takes a closed polygon (≥ 3 points, not repeated at the end), a line kind a polyline
(≥ 2 points). Coordinates in cm, origin top-left, y down."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.validation import explain_validity

from oriflamme.core.errors import OriflammeError
from oriflamme.geometry.tabletop import HILL, Obstacle

from .. import prebattle
from . import terrain

PACKAGE = "oriflamme.rulesets.guerres_fleuries"
FOLDER = "battlefields"


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
        return out

    def view(self) -> dict:
        """The element as the browser draws it (GF2.md's view shape)."""
        k = self.kind_row
        return {"id": self.id, "kind": self.kind, "kind_name": k.name_en, "kind_name_fr": k.name_fr,
                "name": self.name or k.name_en, "name_fr": self.name_fr or self.name or k.name_fr,
                "shape": k.shape, "points": self.points, "cover": k.cover, "sight": k.sight, "ref": k.ref}


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
        two terrains counts as in the one it mostly occupies) — linear cover, which needs the unit
        against the obstacle, is the combat modules' call. Returns (cover, element ids)."""
        order = ["none", "light", "medium", "dense"]
        best, ids = "none", []
        for e in self.elements:
            k = e.kind_row
            if k.shape != terrain.AREA or k.cover == "none":
                continue
            if geom.area > 0:
                inside = geom.intersection(e.geometry).area >= geom.area / 2
            else:
                inside = e.geometry.covers(geom)
            if inside and order.index(k.cover) >= order.index(best):
                if order.index(k.cover) > order.index(best):
                    ids = []
                best = k.cover
                ids.append(e.id)
        return best, ids

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


# --- JSON codec ----------------------------------------------------------------------------------

def _num(v, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
        raise BattlefieldError(f"{where}: must be a number, not {json.dumps(v) if _jsonable(v) else repr(v)}")
    return float(v)


def _jsonable(v) -> bool:
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def battlefield_from_json(doc, where: str = "battlefield") -> Battlefield:
    """A :class:`Battlefield` from its JSON document; any fault raises :class:`BattlefieldError`
    naming ``where`` (the file), the field (``elements[2].points[3]``) and the reason."""
    if not isinstance(doc, dict):
        raise BattlefieldError(f"{where}: a battlefield is a JSON object, not {type(doc).__name__}")
    unknown = sorted(set(doc) - {"name", "name_fr", "width", "height", "elements", "ref", "note"})
    if unknown:
        raise BattlefieldError(f"{where}: unknown field {unknown[0]!r} (known: name, name_fr, width, height, elements)")
    t = terrain.table()
    width = _num(doc.get("width", t.width_cm), f"{where}: width")
    height = _num(doc.get("height", t.height_cm), f"{where}: height")
    if (width, height) != (t.width_cm, t.height_cm):
        raise BattlefieldError(f"{where}: width × height must be {t.width_cm} × {t.height_cm} cm "
                               f"(GF seed 003 l.481: {t.printed!r}), not {width:g} × {height:g}")
    for key in ("name", "name_fr"):
        if key in doc and not isinstance(doc[key], str):
            raise BattlefieldError(f"{where}: {key} must be a string")
    items = doc.get("elements", [])
    if not isinstance(items, list):
        raise BattlefieldError(f"{where}: elements must be a list")
    outline = box(0, 0, width, height)
    elements, seen = [], set()
    for i, item in enumerate(items):
        here = f"{where}: elements[{i}]"
        if not isinstance(item, dict):
            raise BattlefieldError(f"{here}: must be an object with id, kind, name and points")
        extra = sorted(set(item) - {"id", "kind", "name", "name_fr", "points"})
        if extra:
            raise BattlefieldError(f"{here}: unknown field {extra[0]!r}")
        eid = item.get("id")
        if not isinstance(eid, str) or not eid:
            raise BattlefieldError(f"{here}.id: a non-empty string is required")
        if eid in seen:
            raise BattlefieldError(f"{here}.id: {eid!r} is already used by another element")
        seen.add(eid)
        kid = item.get("kind")
        if kid not in terrain.kinds():
            raise BattlefieldError(f"{here}.kind: unknown terrain kind {kid!r}; known: {', '.join(sorted(terrain.kinds()))}")
        for key in ("name", "name_fr"):
            if key in item and not isinstance(item[key], str):
                raise BattlefieldError(f"{here}.{key}: must be a string")
        pts = item.get("points")
        if not isinstance(pts, list):
            raise BattlefieldError(f"{here}.points: a list of [x, y] pairs is required")
        coords = []
        for j, p in enumerate(pts):
            if not isinstance(p, list) or len(p) != 2:
                raise BattlefieldError(f"{here}.points[{j}]: must be an [x, y] pair")
            x, y = _num(p[0], f"{here}.points[{j}][0]"), _num(p[1], f"{here}.points[{j}][1]")
            if not (0 <= x <= width and 0 <= y <= height):
                raise BattlefieldError(f"{here}.points[{j}]: ({x:g}, {y:g}) lies off the {width:g} × {height:g} cm table")
            coords.append((x, y))
        shape = terrain.kind(kid).shape
        if shape == terrain.AREA:
            if len(coords) < 3:
                raise BattlefieldError(f"{here}.points: an area ({kid}) needs at least 3 points, not {len(coords)}")
            geom = Polygon(coords)
            if not geom.is_valid or geom.area <= 0:
                raise BattlefieldError(f"{here}.points: not a simple polygon ({explain_validity(geom)})")
        else:
            if len(coords) < 2:
                raise BattlefieldError(f"{here}.points: a line ({kid}) needs at least 2 points, not {len(coords)}")
            geom = LineString(coords)
            if geom.length <= 0:
                raise BattlefieldError(f"{here}.points: the line has no length")
        if not outline.covers(geom):
            raise BattlefieldError(f"{here}.points: the element leaves the table")
        shapely.prepare(geom)
        elements.append(TerrainElement(eid, kid, item.get("name", ""), geom, item.get("name_fr", "")))
    return Battlefield(width, height, tuple(elements), doc.get("name", ""), doc.get("name_fr", ""))


def battlefield_from_text(text: str, where: str = "battlefield") -> Battlefield:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BattlefieldError(f"{where}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return battlefield_from_json(doc, where)


def bundled() -> list[str]:
    """The names of the bundled battlefields (``battlefields/<name>.json``)."""
    base = resources.files(PACKAGE).joinpath(FOLDER)
    return sorted(p.name[:-5] for p in base.iterdir() if p.name.endswith(".json"))


@lru_cache(maxsize=None)
def load_battlefield(name: str) -> Battlefield:
    """A bundled battlefield by name (e.g. ``"valley-of-flowers"``)."""
    if name not in bundled():
        raise BattlefieldError(f"no bundled battlefield {name!r}; known: {', '.join(bundled())}")
    path = resources.files(PACKAGE).joinpath(FOLDER).joinpath(f"{name}.json")
    return battlefield_from_text(path.read_text(encoding="utf-8"), f"guerres_fleuries/{FOLDER}/{name}.json")


# --- deployment zones ----------------------------------------------------------------------------

def deployment_zones(battlefield: Battlefield) -> dict[str, Polygon]:
    """Each side's deployment zone (l.495): from its own edge (A: y = height, B: y = 0) to 30 cm from
    the centre line, leaving 30 cm at each side."""
    dep = prebattle.data().deployment
    mid = battlefield.height / 2
    x0, x1 = dep.zone_side_margin_cm, battlefield.width - dep.zone_side_margin_cm
    depth = dep.zone_depth_from_centre_line_cm
    return {"A": box(x0, mid + depth, x1, battlefield.height), "B": box(x0, 0, x1, mid - depth)}
