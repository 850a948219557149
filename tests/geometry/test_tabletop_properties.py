"""Invariants of the tabletop geometry (hypothesis): distance symmetry, the hit test agreeing with
the distance, contact ⇔ distance ≤ tolerance, sight symmetry, arcs partitioning the plane."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box

from oriflamme.geometry.tabletop import (
    ARCS, Obstacle, Pose, arc_of, arc_regions, farthest_distance, footprint, in_contact,
    line_of_sight, local_coordinates, moved, nearest_distance,
)

coord_x = st.floats(0, 180, allow_nan=False)
coord_y = st.floats(0, 120, allow_nan=False)
heading = st.floats(0, 359.999, allow_nan=False)
size = st.floats(0.5, 40, allow_nan=False)
poses = st.builds(Pose, coord_x, coord_y, heading)
points = st.builds(Point, coord_x, coord_y)


@st.composite
def footprints(draw):
    return footprint(draw(poses), draw(size), draw(size))


@settings(max_examples=150, deadline=None)
@given(footprints(), footprints())
def test_distances_are_symmetric_and_ordered(a, b):
    assert nearest_distance(a, b) == pytest.approx(nearest_distance(b, a), abs=1e-9)
    assert farthest_distance(a, b) == pytest.approx(farthest_distance(b, a), abs=1e-9)
    assert nearest_distance(a, b) <= farthest_distance(a, b) + 1e-9


@settings(max_examples=200, deadline=None)
@given(poses, size, size, points)
def test_hit_test_agrees_with_distance(pose, width, depth, p):
    fp = footprint(pose, width, depth)
    right, ahead = local_coordinates(pose, p)
    inside = abs(right) <= width / 2 + 1e-9 and abs(ahead) <= depth / 2 + 1e-9
    far_inside = abs(right) < width / 2 - 1e-6 and abs(ahead) < depth / 2 - 1e-6
    d = nearest_distance(fp, p)
    if far_inside:
        assert fp.covers(p) and d == 0
    if not inside:
        assert d > 0
    assert (d == 0) == fp.covers(p)


@settings(max_examples=150, deadline=None)
@given(footprints(), footprints(), st.floats(0, 10, allow_nan=False))
def test_contact_is_distance_within_tolerance(a, b, tol):
    d = nearest_distance(a, b)
    assume(abs(d - tol) > 1e-7)
    assert in_contact(a, b, tol) == (d <= tol)
    assert in_contact(a, b, tol) == in_contact(b, a, tol)


@settings(max_examples=200, deadline=None)
@given(poses, size, size, points)
def test_arcs_partition_the_plane(pose, width, depth, p):
    arc = arc_of(pose, width, depth, p)
    assert arc in ARCS
    regions = arc_regions(pose, width, depth, reach=500)
    strictly_in = [name for name, r in regions.items() if r.buffer(-1e-6).contains(p)]
    assert len(strictly_in) <= 1
    if strictly_in:
        assert strictly_in == [arc]


@settings(max_examples=100, deadline=None)
@given(poses, size, size, points, st.floats(-180, 180, allow_nan=False))
def test_arcs_turn_with_the_unit(pose, width, depth, p, turn):
    """Turning the unit and the point together about the unit's centre keeps the arc."""
    from shapely import affinity
    turned = Pose(pose.x, pose.y, pose.heading + turn)
    q = affinity.rotate(p, turn, origin=(pose.x, pose.y))
    r0, a0 = local_coordinates(pose, p)
    u, v = r0 / (width / 2), a0 / (depth / 2)
    assume(abs(abs(u) - abs(v)) > 1e-6)
    assert arc_of(turned, width, depth, q) == arc_of(pose, width, depth, p)


@settings(max_examples=100, deadline=None)
@given(poses, st.floats(-50, 50, allow_nan=False), st.floats(-180, 180, allow_nan=False))
def test_moving_covers_the_distance(pose, distance, turn):
    after = moved(pose, distance, turn)
    assert nearest_distance(pose.point, after.point) == pytest.approx(abs(distance), abs=1e-6)
    assert after.heading == pytest.approx((pose.heading + turn) % 360, abs=1e-9) or \
        abs(after.heading - (pose.heading + turn) % 360) == pytest.approx(360, abs=1e-9)


obstacle = st.one_of(
    st.builds(lambda x, y, w, h, k: Obstacle("w", box(x, y, x + w, y + h), "screen", 1.5, 5, "bois"),
              coord_x, coord_y, size, size, st.just(0)),
    st.builds(lambda x, y, w, h, lvl: Obstacle("h", box(x, y, x + w, y + h), "hill", lvl, 0, "colline"),
              coord_x, coord_y, size, size, st.sampled_from([1, 2])),
    st.builds(lambda x, y, w, h: Obstacle("u", box(x, y, x + w, y + h), "screen", 0.5, 0, "unit"),
              coord_x, coord_y, size, size),
)


@settings(max_examples=150, deadline=None)
@given(points, points, st.lists(obstacle, max_size=4, unique_by=lambda o: o.id))
def test_who_sees_can_be_seen(a, b, obstacles):
    ab, ba = line_of_sight(a, b, obstacles), line_of_sight(b, a, obstacles)
    assert ab.visible == ba.visible
    assert ab.blocked_by == ba.blocked_by


@settings(max_examples=60, deadline=None)
@given(footprints(), footprints(), st.lists(obstacle, max_size=3, unique_by=lambda o: o.id))
def test_sight_between_footprints_is_symmetric(a, b, obstacles):
    assert line_of_sight(a, b, obstacles).visible == line_of_sight(b, a, obstacles).visible
