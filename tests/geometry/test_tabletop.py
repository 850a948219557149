"""The tabletop geometry (oriflamme.geometry.tabletop): conventions, footprints, distances, arcs,
contact, moves, and the sight rules of seed 003 (hills l.499/l.722, woods l.732)."""

import doctest
import math

import pytest
from shapely.geometry import LineString, Point, box

from oriflamme.geometry import tabletop
from oriflamme.geometry.tabletop import (
    Obstacle, Pose, arc_of, arc_regions, corners, farthest_distance, footprint, in_contact,
    line_of_sight, moved, nearest_distance, sector, swept, toward,
)


def test_doctests():
    assert doctest.testmod(tabletop).failed == 0


def test_heading_zero_faces_up_and_clockwise_turns_right():
    assert moved(Pose(50, 50, 0), 10).to_list() == [50, 40, 0]
    assert moved(Pose(50, 50, 90), 10).to_list() == [60, 50, 90]
    assert moved(Pose(50, 50, 180), 10).to_list() == [50, 60, 180]
    assert moved(Pose(50, 50, 0), 10, turn_deg=-90).to_list() == [40, 50, 270]
    assert moved(Pose(50, 50, 0), -5).to_list() == [50, 55, 0]


def test_footprint_front_edge_faces_the_heading():
    fl, fr, rr, rl = corners(Pose(100, 60, 0), 20, 6)
    assert (fl, fr, rr, rl) == ((90, 57), (110, 57), (110, 63), (90, 63))
    fl, fr, rr, rl = [tuple(round(v, 9) for v in c) for c in corners(Pose(100, 60, 90), 20, 6)]
    assert fl == (103, 50) and fr == (103, 70) and rl == (97, 50)
    assert footprint(Pose(100, 60, 37), 20, 6).area == pytest.approx(120)


def test_footprint_refuses_empty_sizes():
    with pytest.raises(tabletop.GeometryError, match="positive width"):
        footprint(Pose(0, 0), 0, 5)
    with pytest.raises(tabletop.GeometryError, match="Pose.x"):
        Pose(float("nan"), 0)


def test_nearest_and_farthest_distances():
    a = footprint(Pose(0, 0, 0), 10, 2)    # x -5..5, y -1..1
    b = footprint(Pose(0, 20, 0), 10, 2)   # x -5..5, y 19..21
    assert nearest_distance(a, b) == pytest.approx(18)
    assert farthest_distance(a, b) == pytest.approx(math.hypot(10, 22))
    assert nearest_distance(a, Point(0, 0)) == 0


def test_contact_with_a_tolerance():
    a = footprint(Pose(0, 0, 0), 10, 2)
    b = footprint(Pose(0, 2.3, 0), 10, 2)   # 0.3 cm gap
    assert not in_contact(a, b)
    assert in_contact(a, b, 0.5)
    assert in_contact(a, footprint(Pose(0, 2, 0), 10, 2))


def test_arcs_of_a_unit_facing_up_and_turned():
    pose = Pose(50, 50, 0)
    assert arc_of(pose, 20, 4, Point(50, 10)) == "front"
    assert arc_of(pose, 20, 4, Point(50, 90)) == "rear"
    assert arc_of(pose, 20, 4, Point(90, 50)) == "right"
    assert arc_of(pose, 20, 4, Point(10, 50)) == "left"
    # the diagonals bound the arcs: a point just outside the front-right corner's diagonal
    assert arc_of(pose, 20, 4, Point(61, 48)) == "right"
    assert arc_of(pose, 20, 4, Point(59, 47.5)) == "front"
    turned = Pose(50, 50, 90)
    assert arc_of(turned, 20, 4, Point(90, 50)) == "front"
    assert arc_of(turned, 20, 4, Point(50, 90)) == "right"
    # a unit touching the right flank is in the right arc
    enemy = footprint(Pose(62, 50, 270), 4, 2)
    assert arc_of(pose, 20, 4, enemy) == "right"


def test_arc_regions_agree_with_arc_of():
    pose = Pose(80, 60, 30)
    regions = arc_regions(pose, 20, 6)
    for name, region in regions.items():
        inner = region.representative_point()
        assert arc_of(pose, 20, 6, inner) == name


def test_sector_spreads_from_the_front_edge():
    fan = sector(Pose(50, 100, 0), 20, 4, 50, 45)
    assert fan.contains(Point(50, 60))
    assert fan.contains(Point(75, 80))        # 45° out from the front-right corner
    assert not fan.contains(Point(90, 95))
    assert not fan.contains(Point(50, 110))


def test_toward_and_swept():
    assert toward(Pose(0, 0), 10, 0) == pytest.approx(90)
    assert toward(Pose(0, 0), 0, 10) == pytest.approx(180)
    area = swept(Pose(0, 0), Pose(0, -20), 10, 2)
    assert area.area == pytest.approx(10 * 22)


# --- lines of sight -----------------------------------------------------------------------------

def wood(x0, y0, x1, y1, oid="wood"):
    return Obstacle(oid, box(x0, y0, x1, y1), rule="screen", height=1.5, see_through_cm=5, kind="bois")


def hill(x0, y0, x1, y1, height, oid="hill"):
    return Obstacle(oid, box(x0, y0, x1, y1), rule="hill", height=height, kind="colline")


def test_a_wood_hides_what_is_behind_it():
    sight = line_of_sight(Point(0, 50), Point(100, 50), [wood(40, 0, 60, 100)])
    assert not sight.visible and sight.blocked_by == ["wood"]


def test_inside_a_wood_within_5cm_of_the_edge_sees_and_is_seen():
    """Seed 003 l.732: 'Elle doit être dans les 5cm pour pouvoir voir (et être vue)'."""
    w = [wood(40, 0, 60, 100)]
    assert line_of_sight(Point(44, 50), Point(0, 50), w).visible
    assert not line_of_sight(Point(46, 50), Point(0, 50), w).visible
    # inside the wood, two units see each other within 5 cm
    assert line_of_sight(Point(48, 50), Point(52, 50), w).visible
    assert not line_of_sight(Point(48, 50), Point(54, 50), w).visible


def test_hills_block_and_steep_hills_see_over_woods():
    """Seed 003 l.499: a low hill sees over units on the plain, not over hills, buildings or woods;
    a steep hill sees over buildings and woods but not over other hills."""
    low, steep = hill(0, 40, 20, 60, 1, "low"), hill(0, 40, 20, 60, 2, "steep")
    w = wood(40, 0, 60, 100)
    unit = Obstacle("unit", box(30, 45, 35, 55), rule="screen", height=0.5, kind="unit")
    target = Point(100, 50)
    assert not line_of_sight(Point(10, 50), target, [low, w]).visible
    assert line_of_sight(Point(10, 50), target, [steep, w]).visible
    assert line_of_sight(Point(10, 50), target, [low, unit]).visible
    assert not line_of_sight(Point(-10, 50), target, [unit]).visible
    other_hill = hill(70, 40, 80, 60, 1, "other")
    assert not line_of_sight(Point(10, 50), target, [steep, other_hill]).visible
    # beyond a hill: hidden; on it: seen
    assert not line_of_sight(Point(0, 50), Point(100, 50), [hill(40, 40, 60, 60, 1)]).visible
    assert line_of_sight(Point(50, 50), Point(100, 50), [hill(40, 40, 60, 60, 1)]).visible


def test_footprints_see_through_a_gap():
    w = wood(40, 0, 60, 48)
    a = footprint(Pose(20, 50, 90), 10, 4)
    b = footprint(Pose(80, 50, 270), 10, 4)
    sight = line_of_sight(a, b, [w])
    assert sight.visible and sight.line is not None


def test_obstacle_rule_is_checked():
    with pytest.raises(tabletop.GeometryError, match="rule"):
        Obstacle("x", box(0, 0, 1, 1), rule="fog")


def test_a_line_end_sees_from_both_of_its_ends():
    """A polyline end (a wall top, a measuring tape) keeps both of its end points as sight points."""
    screen = Obstacle("s", box(40, 40, 60, 60), rule="screen", height=1.5, kind="building")
    seg = LineString([(50, 30), (70, 30)])   # its right end sees past the building's corner
    assert line_of_sight(seg, Point(70, 100), [screen]).visible
    assert not line_of_sight(LineString([(50, 30), (55, 30)]), Point(50, 100), [screen]).visible
