"""Deployment (GF Avant la bataille > Déploiement, seed 003 l.489-495): each side's zone, the
default deployment a scenario starts from (OR-GF32: the troops in front, characters, creatures and
monsters behind, left to right), and the placement a side may make before turn 1."""

from __future__ import annotations

from shapely.geometry import Polygon, box

from .rules import rules
from .state import Battle, Unit

GAP_CM = 2.0  # between units placed side by side (the 2 cm a unit keeps from friends, l.660)


def zones(state_or_battlefield=None) -> dict[str, Polygon]:
    """The deployment zones: from the table's edge to 30 cm from the midline, leaving 30 cm on
    each side (l.495). gf-geom's :func:`battlefield.deployment_zones` when it is there."""
    from . import battlefield as bf
    if getattr(state_or_battlefield, "scenario", None) is not None:
        return bf.deployment_zones(state_or_battlefield.battlefield)
    t, d = rules().table, rules().deployment
    mid = t.height_cm / 2
    return {"A": box(d.side_margin_cm, mid + d.depth_from_midline_cm, t.width_cm - d.side_margin_cm, t.height_cm),
            "B": box(d.side_margin_cm, 0, t.width_cm - d.side_margin_cm, mid - d.depth_from_midline_cm)}


def default_positions(units: list[Unit], side: str, zone: Polygon) -> None:
    """Place ``units`` (one side's) in rows across ``zone``: troops first, nearest the enemy."""
    minx, miny, maxx, maxy = zone.bounds
    heading = 0.0 if side == "A" else 180.0
    order = [u for u in units if u.kind == "troop"] + [u for u in units if u.kind != "troop"]
    rows: list[list[Unit]] = [[]]
    used = 0.0
    for u in order:
        w = u.width
        if rows[-1] and used + GAP_CM + w > maxx - minx:
            rows.append([])
            used = 0.0
        used += (GAP_CM if rows[-1] else 0.0) + w
        rows[-1].append(u)
    front = miny if side == "A" else maxy  # the zone's edge nearest the midline
    step = 1 if side == "A" else -1
    offset = 0.5
    for row in rows:
        depth = max(u.depth for u in row)
        total = sum(u.width for u in row) + GAP_CM * (len(row) - 1)
        x = minx + (maxx - minx - total) / 2
        for u in row:
            u.x = round(x + u.width / 2, 2)
            u.y = round(front + step * (offset + depth / 2), 2)
            u.heading = heading
            x += u.width + GAP_CM
        offset += depth + GAP_CM


def deploy_all(state: Battle) -> None:
    z = zones(state)
    for side in ("A", "B"):
        default_positions(state.side_units(side), side, z[side])
