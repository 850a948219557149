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
from functools import lru_cache
from importlib import resources

import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.validation import explain_validity

from . import terrain
from .generator import Generated, generate
from .table import (  # noqa: F401  (the battlefield API in one place)
    Battlefield, BattlefieldError, TerrainElement, deployment_zones, is_hill, unit_obstacle,
)

PACKAGE = "oriflamme.rulesets.guerres_fleuries"
FOLDER = "battlefields"

__all__ = ["Battlefield", "BattlefieldError", "Generated", "TerrainElement", "battlefield_from_json",
           "battlefield_from_text", "bundled", "deployment_zones", "generate", "load_battlefield", "unit_obstacle"]


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
        extra = sorted(set(item) - {"id", "kind", "name", "name_fr", "points", "material", "floors"})
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
        material, floors = _building_fields(item, kid, here)
        elements.append(TerrainElement(eid, kid, item.get("name", ""), geom, item.get("name_fr", ""), material, floors))
    return Battlefield(width, height, tuple(elements), doc.get("name", ""), doc.get("name_fr", ""))


def _building_fields(item: dict, kid: str, here: str) -> tuple[str, int]:
    """A building's material (a structure of data/buildings.toml) and floors as the document gives
    them (checked); ("", 0) when it gives neither: the kind's defaults (``[[building_kind]]``,
    OR-GF80) apply. Other kinds take neither."""
    from .. import buildings
    data = buildings.data()
    row = data.kinds.get(kid)
    if row is None:
        for key in ("material", "floors"):
            if key in item:
                raise BattlefieldError(f"{here}.{key}: only a building ({', '.join(sorted(data.kinds))}) has a {key}")
        return "", 0
    if "material" not in item and "floors" not in item:
        return "", 0  # the kind's defaults, read where the building is played (buildings_play.material)
    material = item.get("material", row.material)
    if material not in data.structures or material.startswith(("mur", "haie", "cloture", "toit")):
        known = [s for s in data.structures if s.startswith("batiment")]
        raise BattlefieldError(f"{here}.material: {material!r} is not a building's material; known: {', '.join(known)} "
                               f"(GF seed 003 l.808-809)")
    floors = item.get("floors", row.floors)
    if isinstance(floors, bool) or not isinstance(floors, int) or not 1 <= floors <= 10:
        raise BattlefieldError(f"{here}.floors: a whole number of floors from 1 to 10, not {floors!r}")
    return material, floors


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
