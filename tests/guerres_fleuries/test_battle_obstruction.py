"""A building across a unit's path (battle/obstruction.py, the computer players' reading): a unit
may not go through a building (l.788, OR-GF88), so the evaluation counts the units standing behind
one, the deployment offers them places clear of it, and a unit may wheel on the spot (l.590:
it may not come within 5 cm of an enemy without charging, and charges only what is in its front)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis.strategies import floats

from oriflamme.rulesets.guerres_fleuries.battle import evaluation, obstruction
from oriflamme.rulesets.guerres_fleuries.battle.odds import load_weights

from .battle_engine_kit import game, to_phase


def b_deploys():
    """The bundled battle with side A deployed, side B to place its units (Xochitl hamlet, x 78-116,
    y 34-44, stands a few cm in front of B's line at y 24.5)."""
    g = game("obstruction")
    end = next(a for a in g.ruleset.legal_actions(g.state, "A") if a.type == "end_phase")
    g.apply(end)
    assert g.ruleset.to_act(g.state) == "B"
    return g


def test_a_building_across_the_front_blocks_and_one_beside_does_not():
    st = b_deploys().state
    share = {u.id: obstruction.blocked_share(st, u) for u in st.side_units("B")}
    assert share["B3"] > 0.5 and share["B2"] > 0.5  # behind the long house and the stone house
    assert share["B1"] == 0.0                         # the javelins at x 45: nothing ahead
    assert share["B5"] == 0.0 and share["B6"] == 0.0  # characters are not read
    u = st.units["B3"]
    u.x = 140.0  # beside the hamlet, its corridor clear
    assert obstruction.blocked_share(st, u) == 0.0
    u.x, u.heading = 99.0, 0.0  # facing its own edge: the hamlet is behind it
    assert obstruction.blocked_share(st, u) == 0.0


@settings(max_examples=40, deadline=None)
@given(floats(3.0, 30.0), floats(3.0, 30.0))
def test_the_nearer_the_building_the_more_blocked(y1, y2):
    st = b_deploys().state
    u = st.units["B3"]
    shares = []
    for y in sorted((y1, y2)):  # B faces y+ (heading 180): a larger y is nearer the hamlet
        u.y = y
        shares.append(obstruction.blocked_share(st, u))
    assert 0.0 <= shares[0] <= shares[1] <= 1.0


def test_the_deployment_offers_a_blocked_unit_places_clear_of_the_building():
    g = b_deploys()
    rs = g.ruleset
    assert obstruction.blocked_share(g.state, g.state.units["B3"]) > 0
    moved = [a for a in rs.legal_actions(g.state, "B") if a.type == "place" and a.unit == "B3"]
    assert len(moved) >= 2 and any(a.x < 99.0 for a in moved) and any(a.x > 99.0 for a in moved)
    for a in moved:
        copy_ = rs.clone(g.state)
        rs.apply(copy_, a)  # checked: a legal place in B's zone
        assert obstruction.blocked_share(copy_, copy_.units["B3"]) == 0.0


def test_the_evaluation_counts_the_units_behind_a_building():
    g = b_deploys()
    st = g.state
    before = evaluation.terms(st, "B")["blocked"]
    assert before < 0.0 and evaluation.terms(st, "A")["blocked"] == -before
    clear = next(a for a in g.ruleset.legal_actions(st, "B") if a.type == "place" and a.unit == "B3"
                 and a.x > 120.0)
    after = copy.deepcopy(st)
    g.ruleset.apply(after, clear)
    assert evaluation.terms(after, "B")["blocked"] > before
    assert load_weights().weights.blocked > 0


def test_a_unit_may_wheel_on_the_spot():
    g = game("obstruction-wheel")
    to_phase(g, 6)
    rs = g.ruleset
    side = rs.to_act(g.state)
    moves_ = [a for a in rs.legal_actions(g.state, side) if a.type == "move"]
    spots = [a for a in moves_ if (a.x, a.y) == (round(g.state.units[a.unit].x, 2), round(g.state.units[a.unit].y, 2))]
    assert spots, "no wheel on the spot offered"
    for a in spots:
        u = g.state.units[a.unit]
        assert abs(((a.heading - u.heading + 180) % 360) - 180) == 45.0
        copy_ = rs.clone(g.state)
        rs.apply(copy_, a)
        moved = copy_.units[a.unit]
        assert (moved.x, moved.y) == (u.x, u.y) and moved.heading == a.heading % 360
