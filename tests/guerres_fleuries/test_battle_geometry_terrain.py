"""battle.terrain: the terrain kinds of data/terrain.toml against the seed, and move_cost (GF-D2)
against the seed's hedge example and part 1's movement referee."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries import movement
from oriflamme.rulesets.guerres_fleuries.battle import terrain
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import battlefield_from_json
from oriflamme.rulesets.guerres_fleuries.battle.terrain import MoverProfile, move_cost
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

GF = GuerresFleuries()


def lines_of(ref: str) -> list[int]:
    """The seed lines a ``ref`` cites ("GF seed 003 l.464, l.712-714")."""
    out = []
    for a, b in re.findall(r"l\.(\d+)(?:-(\d+))?", ref):
        out.extend(range(int(a), int(b or a) + 1))
    return out


def test_every_kind_quotes_its_cited_lines():
    for k in terrain.kinds().values():
        assert any(k.printed in line(n) for n in lines_of(k.ref)), (k.id, k.ref)
    for r in terrain.sight_rules().values():
        assert any(r.printed in line(n) for n in lines_of(r.ref)), (r.id, r.ref)
    assert terrain.ford().printed in line(756)


def test_the_table_is_180_by_120():
    t = terrain.table()
    m = re.search(r"mesure (\d),(\d+)m sur (\d),(\d+)m", line(481))
    assert (t.width_cm, t.height_cm) == (int(m[1] + m[2]) * (10 if len(m[2]) == 1 else 1),
                                         int(m[3] + m[4]) * (10 if len(m[4]) == 1 else 1)) == (180, 120)


def test_the_pre_battle_list_is_covered():
    """Every element of the seed's terrain list (l.464-475) has at least one kind."""
    from oriflamme.rulesets.guerres_fleuries import prebattle
    covered = {k.element for k in terrain.kinds().values()}
    assert set(prebattle.data().terrain_elements) <= covered


def test_kinds_read_the_printed_columns():
    k = terrain.kinds()
    assert k["bois"].movement == ["colline_bois"] and k["bois"].cover == "medium"
    assert k["colline_basse"].movement == [] and k["colline_basse"].sight == "hill_low"   # l.467
    assert k["colline_abrupte"].movement == ["colline_bois"]                               # GF-D3
    assert k["haie"].shape == "line" and k["haie"].movement == ["murs_haies"]
    assert k["marais"].movement == ["maquis_marais", "colline_bois"]                         # l.750 cumulates
    assert k["riviere"].movement == ["infranchissable"]
    assert "couvert dense" in line(764) and k["mur_bas"].cover == "dense"


def field_with(*elements):
    return battlefield_from_json({"elements": [
        {"id": f"e{i}", "kind": kind, "points": pts} for i, (kind, pts) in enumerate(elements)]})


def homme(cm=20):
    return MoverProfile("homme", cm)


def test_the_seeds_hedge_example_on_the_table():
    """l.710: 20 cm, 2 cm to the hedge, half of the 18 left, 9 more: 11 cm (GF-D2)."""
    text = line(710)
    allowance = int(re.search(r"potentiel de mouvement \((\d+)cm\)", text).group(1))
    approach = int(re.search(r"contre la haie = (\d+)cm", text).group(1))
    after = int(re.search(r"encore de (\d+)cm", text).group(1))
    bf = field_with(("haie", [[0, 50], [100, 50]]))
    cost = move_cost(LineString([(40, 50 + approach), (40, 50 + approach - 30)]), homme(allowance), bf)
    assert cost.allowed_cm == pytest.approx(approach + after) == 11
    assert cost.spent_cm == allowance and not cost.complete
    (pen,) = cost.penalties
    assert pen["fraction"] == "1/2" and pen["cost_cm"] == pytest.approx(9) and "l.768" in pen["ref"]
    assert any("1/2 of the 18 cm remaining" in s for s in cost.steps)
    assert any("coûte 1/2 des 18 cm restants" in s for s in cost.steps_fr)
    assert len(cost.steps_fr) == len(cost.steps)
    assert (pen["kind_name"], pen["kind_name_fr"]) == ("Hedge", "Haie")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 29), min_size=0, max_size=3, unique=True),
       st.sampled_from(["homme", "saurien", "jaguar", "grand_saurien"]),
       st.sampled_from(["haie", "cloture", "mur_bas"]))
def test_linear_obstacles_agree_with_part_one(at, mover, kind):
    """move_cost over hedges/fences/walls = part 1's movement.through on the same distances."""
    rate = movement.rates()[(mover, "ground")].normal
    bf = field_with(*[(kind, [[0, 100 - a], [180, 100 - a]]) for a in at])
    cost = move_cost(LineString([(50, 100), (50, 100 - 60)]), MoverProfile(mover, rate), bf)
    column = terrain.kind(kind).movement[0]
    f = movement.terrain_mods()[mover].fraction(column)
    expected, _ = movement.through(Fraction(rate), [(Fraction(a), f, kind) for a in at])
    assert cost.allowed_cm == pytest.approx(float(expected), abs=1e-6)


def test_area_terrain_allows_a_fraction_inside_and_matches_the_referee():
    """A wood (Colline/bois 1/2 for men): the whole move inside covers half (the referee's 10 cm)."""
    bf = field_with(("bois", [[0, 0], [180, 0], [180, 120], [0, 120]]))
    cost = move_cost(LineString([(90, 100), (90, 40)]), homme(), bf)
    ref = GF.adjudicate({"kind": "movement", "unit": "Homme", "move": "normal", "terrain": "bois"})
    assert cost.allowed_cm == pytest.approx(ref["distance_cm"]) == 10
    # entering half-way: 10 cm in the open, then 10 cm of allowance buys 5 cm in the wood
    bf = field_with(("bois", [[0, 0], [180, 0], [180, 90], [0, 90]]))
    cost = move_cost(LineString([(90, 100), (90, 40)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(15)
    (pen,) = cost.penalties
    assert pen["element"] == "e0" and pen["fraction"] == "1/2" and pen["cost_cm"] == pytest.approx(5)


def test_penalties_are_cumulative_in_sequence():
    """A hedge at 4 cm then scrub: 4 cm, half of 16 = 8, then 8 cm of allowance at 3/4 = 6 cm."""
    bf = field_with(("haie", [[0, 96], [180, 96]]), ("broussailles", [[0, 0], [180, 0], [180, 96], [0, 96]]))
    cost = move_cost(LineString([(90, 100), (90, 40)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(4 + 6)
    assert [p["kind"] for p in cost.penalties] == ["haie", "broussailles"]


def test_wooded_marsh_cumulates_wood_and_swamp():
    bf = field_with(("marais", [[0, 0], [180, 0], [180, 120], [0, 120]]))
    cost = move_cost(LineString([(90, 100), (90, 40)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(20 * (1 - 0.25) * (1 - 0.5))


def test_river_stops_and_ford_or_bridge_lets_through():
    river = ("riviere", [[0, 80], [180, 80]])
    path = LineString([(90, 100), (90, 60)])
    cost = move_cost(path, homme(), field_with(river))
    assert cost.allowed_cm == pytest.approx(20) and cost.blocked_by == "e0"
    cost = move_cost(path, homme(30), field_with(river))
    assert cost.allowed_cm == pytest.approx(20) and cost.blocked_by == "e0"
    ford = ("gue", [[85, 78], [95, 78], [95, 82], [85, 82]])
    cost = move_cost(path, homme(30), field_with(river, ford))
    assert cost.blocked_by is None and cost.allowed_cm == pytest.approx(20 + 5)   # 1/2 of the 10 left (OR-GF25)
    bridge = ("pont", [[85, 78], [95, 78], [95, 82], [85, 82]])
    cost = move_cost(path, homme(30), field_with(river, bridge))
    assert cost.allowed_cm == pytest.approx(30) and cost.penalties == []


def test_entering_a_building_takes_the_whole_move():
    """l.712: 'Une unité qui rentre dans un bâtiment consomme la totalité de son mouvement.'"""
    bf = field_with(("hameau", [[80, 80], [100, 80], [100, 90], [80, 90]]))
    cost = move_cost(LineString([(90, 100), (90, 60)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(10) and cost.spent_cm == 20 and cost.left_cm == 0


def test_flyers_ignore_terrain_and_short_paths_complete():
    bf = field_with(("bois", [[0, 0], [180, 0], [180, 120], [0, 120]]))
    cost = move_cost(LineString([(90, 100), (90, 40)]), MoverProfile("aigle", 54, "air"), bf)
    assert cost.allowed_cm == 54 and cost.penalties == []
    cost = move_cost(LineString([(90, 100), (90, 95)]), {"mover": "homme", "allowance_cm": 20}, bf)
    assert cost.complete and cost.spent_cm == pytest.approx(10)


def test_unknown_mover_is_refused_clearly():
    bf = field_with(("bois", [[0, 0], [180, 0], [180, 120], [0, 120]]))
    with pytest.raises(terrain.DataError, match="no terrain row for mover 'dragon'"):
        move_cost(LineString([(90, 100), (90, 40)]), MoverProfile("dragon", 20), bf)
    with pytest.raises(terrain.DataError, match="'mover' and 'allowance_cm'"):
        move_cost(LineString([(90, 100), (90, 40)]), {"allowance_cm": 3}, bf)


def test_double_hedge_is_two_hedges_in_a_row():
    """OR-GF24: 20 cm, 2 cm to the double hedge, half of 18 (9), then half of 9 (4.5): 6.5 cm."""
    bf = field_with(("haie_double", [[0, 98], [180, 98]]))
    cost = move_cost(LineString([(90, 100), (90, 60)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(2 + 4.5)
    assert [p["cost_cm"] for p in cost.penalties] == [pytest.approx(9), pytest.approx(4.5)]


def test_overlapping_areas_multiply():
    """OR-GF26: a wood on a steep hill: (1 − 1/2) × (1 − 1/2) of the movement."""
    whole = [[0, 0], [180, 0], [180, 120], [0, 120]]
    bf = field_with(("bois", whole), ("colline_abrupte", whole))
    cost = move_cost(LineString([(90, 100), (90, 40)]), homme(), bf)
    assert cost.allowed_cm == pytest.approx(20 / 4)
    assert {p["element"] for p in cost.penalties} == {"e0", "e1"}


def test_a_line_at_the_end_of_the_path_is_not_crossed():
    """OR-GF26: a move ending against a hedge stands against it and pays nothing."""
    bf = field_with(("haie", [[0, 90], [180, 90]]))
    cost = move_cost(LineString([(90, 100), (90, 90)]), homme(), bf)
    assert cost.complete and cost.penalties == [] and cost.spent_cm == pytest.approx(10)


def test_contact_tolerance_is_data():
    """OR-GF21: base to base = a gap of at most 0.5 cm."""
    from oriflamme.geometry.tabletop import Pose, footprint, in_contact
    tol = terrain.table().contact_tolerance_cm
    assert tol == 0.5 and "OR-GF21" in terrain.table().decision
    a = footprint(Pose(50, 50), 10, 2)
    assert in_contact(a, footprint(Pose(50, 52.4), 10, 2), tol)
    assert not in_contact(a, footprint(Pose(50, 52.6), 10, 2), tol)
