"""Hex geometry (issue: coordinates, neighbours, distance, lines of fire, hexside lines, arcs)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from oriflamme.geometry.hexgrid import DIRECTIONS, Hex, front_arc, in_front_arc, lines_of_fire

coords = st.integers(-40, 40)
hexes = st.builds(Hex, coords, coords)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes)
def test_neighbours_are_at_distance_one_and_distinct(h):
    ns = h.neighbours()
    assert len(set(ns)) == 6 and all(h.distance(n) == 1 for n in ns)
    assert all(h.direction_to(n) == d for d, n in enumerate(ns))


@given(st.integers(0, 98), st.integers(0, 98))
def test_labels_round_trip(col, row):
    h = Hex.from_offset(col, row)
    assert (h.col, h.row) == (col, row)
    assert Hex.from_label(h.label) == h


def test_odd_q_layout_examples():
    """docs/formats.md: odd columns (labels 02, 04…) sit half a hex lower."""
    assert Hex.from_label("0101").neighbour(2).label == "0201"  # SE of 0101
    assert Hex.from_label("0201").neighbour(2).label == "0302"  # SE of 0201
    assert Hex.from_label("0201").neighbour(1).label == "0301"  # NE of 0201


@given(hexes, hexes)
def test_lines_are_contiguous_and_as_long_as_the_range(a, b):
    """§5.5.1: the line joins the centres; each variant is a chain of adjacent hexes."""
    for line in lines_of_fire(a, b):
        assert line[0] == a and line[-1] == b
        assert len(line) == a.distance(b) + 1
        assert all(x.distance(y) == 1 for x, y in zip(line, line[1:]))


def test_line_along_a_hexside_has_two_sides():
    """Oriflamme's hexside rule (docs/decisions.md): a line running exactly along hexsides
    yields both sequences; they differ only in the hexes on either side of the hexsides."""
    a = Hex(0, 0)
    b = Hex(2, -1)  # dir NE + dir SE: the line runs along the hexside between them
    both = lines_of_fire(a, b)
    assert len(both) == 2
    assert {both[0][1], both[1][1]} == {a.neighbour(1), a.neighbour(2)}
    assert len(lines_of_fire(a, Hex(0, 5))) == 1  # straight down a column: no ambiguity


def test_front_arc_is_the_120_degree_cone():
    """§4.4.1 / §7.6.1: the three front hexes, then one more per row."""
    o = Hex(0, 0)
    for facing in range(6):
        arc = front_arc(o, facing, o.within(4))
        ring1 = {h for h in arc if o.distance(h) == 1}
        assert ring1 == {o.neighbour(facing - 1), o.neighbour(facing), o.neighbour((facing + 1) % 6)}
        for k in range(1, 5):
            assert sum(1 for h in arc if o.distance(h) == k) == 2 * k + 1
        behind = o.neighbour(facing + 3)
        assert not in_front_arc(o, facing, behind)
        assert in_front_arc(o, facing, o + Hex(*DIRECTIONS[facing]).scale(4))
