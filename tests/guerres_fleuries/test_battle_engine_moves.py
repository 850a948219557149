"""Moves on the table (gf-engine): each move type's allowance from the cited rates (GF-D1, D4, D6),
the checks of a destination (distance, wheel, direction, table edge, enemy stand-off, terrain
penalty), refusals leaving the state unchanged, and the samples legal_actions offers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from guerres_fleuries.battle_engine_kit import act, game, ruleset, to_phase
from guerres_fleuries.seed import line
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from oriflamme.rulesets.guerres_fleuries.battle import moves, turn
from oriflamme.rulesets.guerres_fleuries.battle.rules import rules


def rates_printed(n: int) -> list[int]:
    """The rates printed on seed line ``n`` (Homme l.1407, Saurien l.1408)."""
    return [int(x) for x in line(n).split("\t")[1:7]]


@pytest.fixture(scope="module")
def moving():
    g = game("moves")
    to_phase(g, 6, orders="avancer")
    return g


def test_allowances_are_the_printed_rates(moving):
    st_ = moving.state
    homme = st_.units["A2"]
    saurien = st_.units["B2"]
    h = rates_printed(1407)
    s = rates_printed(1408)
    for col, i in (("normal", 0), ("double", 1), ("charge", 2), ("retraite", 3), ("deroute", 4)):
        assert moves.allowance(homme, col)[0] == h[i]
        assert moves.allowance(saurien, col)[0] == s[i]


def test_open_order_adds_a_quarter_and_firing_takes_a_quarter(moving):
    u = ruleset().clone(moving.state).units["A4"]  # slingers
    base = moves.allowance(u, "normal")[0]
    assert moves.allowance(u, "normal", fires=True)[0] == pytest.approx(base * 3 / 4)  # GF-D6
    u.set_formation("open")
    assert moves.allowance(u, "normal")[0] == pytest.approx(base * 5 / 4)  # GF-D1


def mover(g):
    return next(u for u in turn.movers(g.state, g.to_act()))


def test_a_move_within_the_allowance_applies_and_one_beyond_is_refused(moving):
    rs = ruleset()
    g = moving
    u = mover(g)
    budget = turn.move_budget(u)[0]
    trial = rs.clone(g.state)
    before = rs.digest(trial)
    far = tt.moved(u.pose, budget + 3)
    with pytest.raises(IllegalAction, match="may move") as e:
        rs.apply(trial, {"type": "move", "side": u.side, "unit": u.id, "x": far.x, "y": far.y, "heading": u.heading})
    assert "l.588" in e.value.ref
    assert rs.digest(trial) == before
    near = tt.moved(u.pose, budget / 2)
    rs.apply(trial, {"type": "move", "side": u.side, "unit": u.id, "x": near.x, "y": near.y, "heading": u.heading})
    moved = trial.units[u.id]
    assert (moved.x, moved.y) == pytest.approx((near.x, near.y))
    ev = [e for e in trial.log if e["type"] == "move"][-1]
    assert ev["unit"] == u.id and ev["ruling"]["explanation"]


def test_a_wheel_costs_the_outer_end_arc_and_is_at_most_45_degrees(moving):
    rs = ruleset()
    u = mover(moving)
    trial = rs.clone(moving.state)
    with pytest.raises(IllegalAction, match="at most 45"):
        rs.apply(trial, {"type": "move", "side": u.side, "unit": u.id, "x": u.x, "y": u.y, "heading": u.heading + 60})
    path, wheel = moves.cost(u, u.x, u.y, u.heading + 45)
    assert path == 0 and wheel == pytest.approx(u.width / 2 * math.pi / 4)


def test_a_forward_move_cannot_go_sideways_or_back(moving):
    rs = ruleset()
    u = mover(moving)
    trial = rs.clone(moving.state)
    side = tt.moved(tt.Pose(u.x, u.y, u.heading + 90), 5)
    with pytest.raises(IllegalAction, match="within 45"):
        rs.apply(trial, {"type": "move", "side": u.side, "unit": u.id, "x": side.x, "y": side.y, "heading": u.heading})


def test_a_normal_move_stops_5_cm_from_the_enemy():
    rs = ruleset()
    g = game("standoff")
    to_phase(g, 6)
    st_ = rs.clone(g.state)
    u = mover(g)
    u = st_.units[u.id]
    enemy = next(e for e in st_.enemies(u.side) if e.kind == "troop")
    # put the enemy 8 cm in front of the mover's front edge, facing it
    ahead = tt.moved(u.pose, u.depth / 2 + 8 + enemy.depth / 2)
    enemy.x, enemy.y, enemy.heading = ahead.x, ahead.y, (u.heading + 180) % 360
    with pytest.raises(IllegalAction, match="within 5 cm") as e:
        moves.check_destination(st_, u, *tt.moved(u.pose, 4).to_list()[:2], u.heading, budget=20,
                                direction="forward")
    assert "l.590" in e.value.ref
    moves.check_destination(st_, u, *tt.moved(u.pose, 2.5).to_list()[:2], u.heading, budget=20, direction="forward")


def test_leaving_the_table_is_refused():
    rs = ruleset()
    g = game("edge")
    to_phase(g, 6)
    st_ = rs.clone(g.state)
    u = st_.units[mover(g).id]
    u.x = u.width / 2 + 1
    with pytest.raises(IllegalAction, match="leave the table"):
        moves.check_destination(st_, u, u.width / 2 - 3, u.y, u.heading, budget=20, direction="")


def test_a_wood_takes_its_printed_share_of_the_move():
    """A move through woods costs more than its length (GF-D2, gf-geom's move_cost), and the
    explanation lists the penalty."""
    rs = ruleset()
    g = game("wood")
    to_phase(g, 6)
    st_ = rs.clone(g.state)
    u = st_.units[mover(g).id]
    woods = [e for e in st_.battlefield.elements if e.kind_row.movement and e.kind_row.shape == "area"]
    assert woods, "the bundled battlefield has area terrain"
    w = woods[0]
    c = w.geometry.centroid
    u.x, u.y, u.heading = c.x, c.y + 6, 0.0
    for o in st_.units.values():
        if o.id != u.id:
            o.x, o.y = 5000, 5000  # off the way (never drawn: a test position)
            o.status = "lost"
    out = moves.check_destination(st_, u, c.x, c.y, 0.0, budget=40, direction="forward")
    assert out["terrain_cm"] > 0 and out["terrain"], out
    assert out["cost_cm"] > out["path_cm"]


def test_legal_moves_are_samples_that_apply(moving):
    rs = ruleset()
    legal = [a for a in rs.legal_actions(moving.state) if a.type == "move"]
    assert legal
    for a in legal[:10]:
        rs.apply(rs.clone(moving.state), a)


@settings(max_examples=40, deadline=None)
@given(fraction=st.floats(0.0, 1.0), turn_deg=st.floats(-45, 45))
def test_any_point_within_the_rules_is_accepted_and_the_cost_never_exceeds_the_allowance(fraction, turn_deg):
    """Property: a destination the check accepts costs at most the allowance; one it refuses is
    refused by apply too, with the state unchanged."""
    rs = ruleset()
    g = _MOVING
    u = mover(g)
    budget = turn.move_budget(u)[0]
    end = tt.moved(tt.moved(u.pose, 0, turn_deg), fraction * budget)
    data = {"type": "move", "side": u.side, "unit": u.id, "x": end.x, "y": end.y, "heading": end.heading}
    trial = rs.clone(g.state)
    before = rs.digest(trial)
    try:
        out = moves.check_destination(trial, u, end.x, end.y, end.heading, budget=budget, direction="forward")
    except IllegalAction:
        with pytest.raises(IllegalAction):
            rs.apply(trial, data)
        assert rs.digest(trial) == before
        return
    assert out["cost_cm"] <= budget + 1e-6
    rs.apply(trial, data)


_MOVING = game("moves-property")
to_phase(_MOVING, 6, orders="avancer")


def test_a_column_on_a_road_takes_no_command_test():
    """GF-C5 (l.263, l.545): a unit in column on a road is exempt."""
    rs = ruleset()
    g = game("road")
    act(g, type="end_phase", side="A")
    act(g, type="end_phase", side="B")
    st = rs.clone(g.state)
    road = next(e for e in st.battlefield.elements if e.kind == "route")
    u = st.units["A3"]
    for o in st.units.values():
        if o.id != u.id:
            o.x, o.y, o.status = 5000, 5000, "lost"  # out of the way (a test position)
    u.led_by = None
    p = road.geometry.interpolate(road.geometry.length / 2)
    u.set_formation("column")
    assert turn.needs_command_test(st, u) or not u.alive
    u.x, u.y = p.x, p.y
    assert not turn.needs_command_test(st, u)
    u.set_formation("line")
    assert turn.needs_command_test(st, u)


def test_passing_through_friends_in_close_order_disorders_both():
    """l.638-642: through open order or characters freely; through a close-order friend, both disordered."""
    rs = ruleset()
    g = game("interpenetration")
    to_phase(g, 6)
    st = rs.clone(g.state)
    u = st.units[mover(g).id]
    if u.kind != "troop":
        pytest.skip("the first mover is not a troop")
    friend = next(f for f in st.side_units(u.side) if f.kind == "troop" and f.id != u.id)
    for o in st.units.values():
        if o.id not in (u.id, friend.id):
            o.x, o.y, o.status = 5000, 5000, "lost"  # out of the way (a test position)
    u.x, u.y, u.heading = 90.0, 80.0, 0.0
    friend.x, friend.y, friend.heading = 90.0, 80.0 - u.depth / 2 - 1 - friend.depth / 2, 0.0
    budget = turn.move_budget(u)[0]
    end = tt.moved(u.pose, budget)
    moves.check_destination(st, u, end.x, end.y, 0.0, budget=budget, direction="forward")  # it may end past it
    turn.move(st, u, end.x, end.y, 0.0)
    assert u.disorder and friend.disorder
    assert any(e["type"] == "disorder" and e.get("other") == friend.id for e in st.log)
