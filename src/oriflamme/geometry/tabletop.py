"""Tabletop geometry: positions, headings, footprints, arcs, contact and lines of sight in
centimetres, on Shapely (distances, intersections, rotations and containment are the library's;
this module only states the conventions and the rules on top of them).

Conventions (docs/guerres-fleuries/geometry.md):

* Coordinates in **cm**, origin at the table's **top-left** corner, x to the right, y **down**
  (as in SVG).
* A heading is in degrees, **0 = facing up** (towards y = 0), **clockwise** positive: 90 faces
  +x, 180 faces down, 270 faces -x. Headings are normalised to [0, 360).
* A footprint is a rectangle centred on the pose: ``width`` across the front, ``depth`` from the
  front edge to the rear edge, turned by the heading.
* Arcs: the two diagonals of the footprint, extended, cut the plane into four arcs — front,
  right, rear, left (decision OR-GF20). A point on a diagonal belongs to the front or the rear arc;
  the centre is in the front arc. Another geometry lies in the arc of its point nearest to the
  footprint's centre.

>>> fp = footprint(Pose(50, 50, 0), 10, 4)
>>> sorted(round(c) for c in fp.bounds)
[45, 48, 52, 55]
>>> arc_of(Pose(50, 50, 0), 10, 4, Point(50, 20))
'front'
>>> p = moved(Pose(0, 0, 90), 10)
>>> p.x, p.y, p.heading
(10.0, 0.0, 90.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from oriflamme.core.errors import OriflammeError

ARCS = ("front", "right", "rear", "left")


class GeometryError(OriflammeError, ValueError):
    """A pose, footprint or obstacle that cannot exist (a NaN coordinate, an empty footprint, an
    unknown sight rule): the message names the field and the value."""


@dataclass(frozen=True)
class Pose:
    """Where a footprint stands: its centre (x, y) in cm and its heading in degrees (0 = up,
    clockwise)."""

    x: float
    y: float
    heading: float = 0.0

    def __post_init__(self):
        x, y, h = self.x, self.y, self.heading
        if type(x) is float and type(y) is float and type(h) is float and 0.0 <= h < 360.0 \
                and -1e12 < x < 1e12 and -1e12 < y < 1e12:
            return  # already finite floats and a heading in [0, 360): nothing to check or convert
        for name in ("x", "y", "heading"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise GeometryError(f"Pose.{name} must be a finite number, not {value!r}")
        object.__setattr__(self, "x", float(self.x))
        object.__setattr__(self, "y", float(self.y))
        object.__setattr__(self, "heading", float(self.heading) % 360.0)

    @property
    def point(self) -> Point:
        return Point(self.x, self.y)

    def to_list(self) -> list[float]:
        return [self.x, self.y, self.heading]


def direction(heading: float) -> tuple[float, float]:
    """The unit vector a heading faces, in table coordinates (y down): 0 → (0, −1)."""
    rad = math.radians(heading)
    return math.sin(rad), -math.cos(rad)


def _turn(geom: BaseGeometry, heading: float, origin) -> BaseGeometry:
    # Shapely turns counter-clockwise in y-up axes, which is clockwise on a y-down table.
    return affinity.rotate(geom, heading, origin=origin) if heading else geom


def footprint(pose: Pose, width: float, depth: float) -> Polygon:
    """The rectangle a unit (or a figure, a base, a movement base) covers: ``width`` × ``depth`` cm
    centred on the pose, its front edge towards the heading. Shapely geometries are immutable:
    the same rectangle is built once (a battle's checks and its computer players ask for the same
    footprints thousands of times)."""
    if not (width > 0 and depth > 0):
        raise GeometryError(f"a footprint needs a positive width and depth, not {width} × {depth}")
    return _footprint(pose, width, depth)


@lru_cache(maxsize=16384)
def _footprint(pose: Pose, width: float, depth: float) -> Polygon:
    rect = box(pose.x - width / 2, pose.y - depth / 2, pose.x + width / 2, pose.y + depth / 2)
    return _turn(rect, pose.heading, (pose.x, pose.y))


def corners(pose: Pose, width: float, depth: float) -> list[tuple[float, float]]:
    """The footprint's corners: front-left, front-right, rear-right, rear-left."""
    local = LineString([(pose.x - width / 2, pose.y - depth / 2), (pose.x + width / 2, pose.y - depth / 2),
                        (pose.x + width / 2, pose.y + depth / 2), (pose.x - width / 2, pose.y + depth / 2)])
    return [tuple(c) for c in _turn(local, pose.heading, (pose.x, pose.y)).coords]


def front_edge(pose: Pose, width: float, depth: float) -> LineString:
    """The footprint's front edge, from its left end to its right end."""
    c = corners(pose, width, depth)
    return LineString([c[0], c[1]])


def nearest_distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """The distance between the nearest points of ``a`` and ``b`` (0 if they touch or overlap)."""
    return float(a.distance(b))


def _hull_points(g: BaseGeometry) -> np.ndarray:
    hull = g.convex_hull
    return shapely.points(shapely.get_coordinates(hull))


def farthest_distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """The distance between the farthest points of ``a`` and ``b`` (reached at vertices of their
    convex hulls)."""
    pa, pb = _hull_points(a), _hull_points(b)
    return float(shapely.distance(pa[:, None], pb[None, :]).max())


def in_contact(a: BaseGeometry, b: BaseGeometry, tolerance_cm: float = 0.0) -> bool:
    """``a`` and ``b`` touch: their nearest points are at most ``tolerance_cm`` apart."""
    return shapely.dwithin(a, b, tolerance_cm) if tolerance_cm > 0 else a.distance(b) <= 0.0


def local_coordinates(pose: Pose, point: Point) -> tuple[float, float]:
    """``point`` in the pose's frame: (right of the centre, ahead of the centre), in cm."""
    p = _turn(point, -pose.heading, (pose.x, pose.y))
    return p.x - pose.x, pose.y - p.y


def arc_of(pose: Pose, width: float, depth: float, other: BaseGeometry) -> str:
    """The arc of the footprint (``pose``, ``width``, ``depth``) ``other`` lies in: "front",
    "right", "rear" or "left" (OR-GF20: arcs bounded by the extended diagonals; a geometry is in
    the arc of its point nearest to the centre)."""
    target = other if isinstance(other, Point) else nearest_points(other, pose.point)[0]
    right, ahead = local_coordinates(pose, target)
    u, v = right / (width / 2), ahead / (depth / 2)
    if v >= abs(u):
        return "front"
    if -v >= abs(u):
        return "rear"
    return "right" if u > 0 else "left"


def arc_regions(pose: Pose, width: float, depth: float, reach: float = 400.0) -> dict[str, Polygon]:
    """The four arcs as polygons reaching ``reach`` cm past the footprint's corners (for drawing and
    area queries)."""
    c = corners(pose, width, depth)
    far = []
    for x, y in c:
        dx, dy = x - pose.x, y - pose.y
        n = math.hypot(dx, dy)
        far.append((x + dx / n * reach, y + dy / n * reach))
    centre = (pose.x, pose.y)
    return {"front": Polygon([centre, far[0], far[1]]), "right": Polygon([centre, far[1], far[2]]),
            "rear": Polygon([centre, far[2], far[3]]), "left": Polygon([centre, far[3], far[0]])}


def sector(pose: Pose, width: float, depth: float, reach: float, spread_deg: float) -> Polygon:
    """The zone ahead of the front edge, reaching ``reach`` cm, opening ``spread_deg`` degrees
    outwards at each end of the front edge (a fire arc; 0 = straight ahead only)."""
    c = corners(pose, width, depth)
    left_dir = direction(pose.heading - spread_deg)
    right_dir = direction(pose.heading + spread_deg)
    ahead = direction(pose.heading)
    tip_l = (c[0][0] + left_dir[0] * reach, c[0][1] + left_dir[1] * reach)
    tip_r = (c[1][0] + right_dir[0] * reach, c[1][1] + right_dir[1] * reach)
    mid_l = (c[0][0] + ahead[0] * reach, c[0][1] + ahead[1] * reach)
    mid_r = (c[1][0] + ahead[0] * reach, c[1][1] + ahead[1] * reach)
    fan = Polygon([c[0], tip_l, mid_l, mid_r, tip_r, c[1]])
    return fan if fan.is_valid else shapely.make_valid(fan)


def moved(pose: Pose, distance: float, turn_deg: float = 0.0) -> Pose:
    """The pose after turning ``turn_deg`` (clockwise) on the spot, then moving ``distance`` cm
    along the new heading (negative: backwards)."""
    heading = pose.heading + turn_deg
    dx, dy = direction(heading)
    # rounded to a nanometre so that right angles give clean coordinates (no 6e-16 drift)
    return Pose(round(pose.x + dx * distance, 9) + 0.0, round(pose.y + dy * distance, 9) + 0.0, heading)


def toward(pose: Pose, x: float, y: float) -> float:
    """The heading from the pose's centre to (x, y)."""
    return math.degrees(math.atan2(x - pose.x, pose.y - y)) % 360.0


def swept(start: Pose, end: Pose, width: float, depth: float) -> Polygon:
    """The area a footprint sweeps going straight from ``start`` to ``end`` (hull of both)."""
    return shapely.union(footprint(start, width, depth), footprint(end, width, depth)).convex_hull


# --- lines of sight -----------------------------------------------------------------------------

HILL = "hill"
SCREEN = "screen"


@dataclass(frozen=True)
class Obstacle:
    """Something on the table that may block a line of sight.

    * ``rule="hill"``: whoever stands on it has elevation ``height``; it blocks any line crossing
      its interior unless one end stands on it (no one sees over another hill).
    * ``rule="screen"``: it blocks a line running more than ``see_through_cm`` inside it, unless
      neither end is inside it and one end stands higher than ``height`` (woods, buildings, units).
    """

    id: str
    geometry: BaseGeometry
    rule: str = SCREEN
    height: float = 1.0
    see_through_cm: float = 0.0
    kind: str = ""
    name: str = ""

    def __post_init__(self):
        if self.rule not in (HILL, SCREEN):
            raise GeometryError(f"obstacle {self.id}: rule must be 'hill' or 'screen', not {self.rule!r}")
        shapely.prepare(self.geometry)


@dataclass(frozen=True)
class Sight:
    """A line of sight's verdict: ``visible``, the obstacle ids that block it, and the reasons."""

    visible: bool
    blocked_by: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    line: tuple[tuple[float, float], tuple[float, float]] | None = None

    def to_dict(self) -> dict:
        return {"visible": self.visible, "blocked_by": list(self.blocked_by), "reasons": list(self.reasons),
                "line": [list(p) for p in self.line] if self.line else None}


def _samples(g: BaseGeometry) -> np.ndarray:
    """The points sight lines start from: a point itself, else the centroid and the hull's corners
    (an (n, 2) array)."""
    if isinstance(g, Point):
        return np.array([[g.x, g.y]])
    hull = g.convex_hull
    corners = shapely.get_coordinates(hull)
    if hull.geom_type == "Polygon":
        corners = corners[:-1]   # the ring repeats its first corner
    return np.vstack([shapely.get_coordinates(g.centroid), corners])


def elevation(point: Point, obstacles) -> float:
    """The height a point stands at: the highest hill covering it (0 on the plain)."""
    return max((o.height for o in obstacles if o.rule == HILL and o.geometry.covers(point)), default=0.0)


def _blocker(o: Obstacle, crosses_inside: bool, inside_cm: float, p_in: bool, q_in: bool, high: float) -> str | None:
    """Why ``o`` stops a line (``crosses_inside``: the line's interior meets the obstacle's interior;
    ``inside_cm``: how long it runs inside; whether its ends are inside; its higher end's height),
    or None."""
    if not crosses_inside:
        return None
    if o.rule == HILL:
        if p_in or q_in:
            return None
        return f"{o.name or o.id} ({o.kind or 'hill'}) lies between: no one sees over another hill"
    if o.see_through_cm > 0 and inside_cm <= o.see_through_cm:
        return None
    end_inside = p_in or q_in
    if not end_inside and high > o.height:
        return None
    if end_inside and o.see_through_cm > 0:
        return f"the line runs {inside_cm:.1f} cm inside {o.name or o.id} ({o.kind}), more than {o.see_through_cm:g} cm"
    return f"{o.name or o.id} ({o.kind or 'screen'}) stands between, and neither end is high enough to see over it"


def line_of_sight(a: BaseGeometry, b: BaseGeometry, obstacles=()) -> Sight:
    """Whether ``a`` and ``b`` see each other past ``obstacles`` (:class:`Obstacle`; leave out the
    two ends' own footprints). Symmetric: who sees can be seen. For areas, lines join the centroid
    and hull vertices of each; one clear line is enough. The library tests every line against every
    obstacle at once (vectorised predicates; lengths only inside woods); the rules are then read only
    where a line meets an obstacle."""
    obstacles = list(obstacles)
    pa, pb = _samples(a), _samples(b)
    na, nb = len(pa), len(pb)
    coords = np.stack([np.repeat(pa, nb, axis=0), np.tile(pb, (na, 1))], axis=1)   # (na·nb, 2, 2)
    lines = shapely.linestrings(coords)
    n_obs = len(obstacles)
    if n_obs:
        geoms = np.array([o.geometry for o in obstacles], dtype=object)
        hills = np.array([o.rule == HILL for o in obstacles], dtype=bool)
        heights = np.array([o.height for o in obstacles], dtype=float)
        through = np.array([o.see_through_cm for o in obstacles], dtype=float)
        cov_a = shapely.covers(geoms[None, :], shapely.points(pa)[:, None])   # (na, n)
        cov_b = shapely.covers(geoms[None, :], shapely.points(pb)[:, None])
        ha = np.where(cov_a & hills[None, :], heights[None, :], 0.0).max(axis=1)
        hb = np.where(cov_b & hills[None, :], heights[None, :], 0.0).max(axis=1)
        ks, ns = np.nonzero(shapely.intersects(lines[:, None], geoms[None, :]))
        inner = shapely.relate_pattern(lines[ks], geoms[ns], "T********") if len(ks) else np.zeros(0, bool)
        inside = np.zeros(len(ks))
        w = np.flatnonzero(inner & (through[ns] > 0))
        if len(w):
            inside[w] = shapely.length(shapely.intersection(lines[ks[w]], geoms[ns[w]]))
    else:
        ha, hb = np.zeros(na), np.zeros(nb)
        ks = ns = np.zeros(0, int)
    per_line: dict[int, list[int]] = {}
    for m, k in enumerate(ks):
        per_line.setdefault(int(k), []).append(m)
    blocked: dict[str, str] = {}
    k = 0
    for i, (px, py) in enumerate(pa):
        for j, (qx, qy) in enumerate(pb):
            found = []
            for m in per_line.get(k, ()):
                n = int(ns[m])
                why = _blocker(obstacles[n], bool(inner[m]), float(inside[m]), bool(cov_a[i, n]), bool(cov_b[j, n]),
                               max(ha[i], hb[j]))
                if why:
                    found.append((obstacles[n].id, why))
            k += 1
            if not found:
                reasons = [f"a clear line joins ({px:.1f}, {py:.1f}) and ({qx:.1f}, {qy:.1f})"]
                if ha[i] or hb[j]:
                    reasons.append(f"the ends stand at heights {ha[i]:g} and {hb[j]:g}")
                return Sight(True, [], reasons, ((float(px), float(py)), (float(qx), float(qy))))
            for oid, why in found:
                blocked.setdefault(oid, why)
    ids = sorted(blocked)
    return Sight(False, ids, [blocked[i] for i in ids], None)
