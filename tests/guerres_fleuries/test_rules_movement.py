"""``movement``: the hedge-crossing worked example (GF seed 003 l.710), the rates, and GF-D1…D8."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from guerres_fleuries.rules_seed import cells
from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

GF = GuerresFleuries()


def mv(**kw):
    return GF.adjudicate({"kind": "movement", **kw})


def test_the_seeds_hedge_crossing_example():
    """l.710: a unit in line crossing a hedge with its 20 cm: 2 cm to the hedge, crossing costs 1/2 of
    the rest (18-9), then 9 cm more: 11 cm covered (GF-D2)."""
    text = line(710)
    allowance = int(re.search(r"potentiel de mouvement \((\d+)cm\)", text).group(1))
    approach = int(re.search(r"contre la haie = (\d+)cm", text).group(1))
    rest, cost = (int(x) for x in re.search(r"\(1/2 du reste = (\d+)-(\d+)\)", text).groups())
    after = int(re.search(r"encore de (\d+)cm", text).group(1))
    assert (rest, cost) == (allowance - approach, (allowance - approach) // 2)
    r = mv(unit="Homme", formation="ligne", move="normal", obstacles=[{"type": "haie", "at_cm": approach}])
    assert r["rate_cm"] == allowance
    assert r["distance_cm"] == approach + after == 11
    assert "GF-D2" in r["citations"] and any("1/2 of the 18 cm remaining" in s for s in r["explanation"])


@pytest.mark.parametrize("unit,n", [("Homme", 1407), ("Saurien", 1408)])
def test_rates_by_move_type(unit, n):
    """GF-D1 rates; GF-D4 retreat/charge/rout columns."""
    printed = [int(x) for x in cells(n)[1:]]
    for move, value in zip(["normal", "double", "charge", "se retirer", "déroute", "poursuite"], printed):
        formation = "colonne" if move == "double" else "ligne"
        assert mv(unit=unit, move=move, formation=formation)["distance_cm"] == value
    assert mv(unit=unit, move="s'évader", formation="ordre ouvert")["rate_cm"] == printed[2]  # GF-D4
    assert mv(unit=unit, move="avance incontrôlée")["distance_cm"] == printed[2]


def test_gf_d1_open_order_adds_a_quarter_to_every_move():
    assert mv(unit="Homme", move="normal", formation="ordre ouvert")["distance_cm"] == 25
    assert mv(unit="Saurien", move="retraite", formation="open order")["distance_cm"] == 13.75


def test_double_needs_a_column():
    assert "en colonne" in line(353)
    with pytest.raises(RefereeError, match="field move: a double move needs a unit in column"):
        mv(unit="Homme", move="double")


def test_creatures_on_the_ground_and_in_the_air():
    assert mv(unit="Ptéradon", move="normal", medium="air")["distance_cm"] == int(cells(1723)[1])
    assert mv(unit="Ptéradon", move="normal", medium="ground")["distance_cm"] == int(cells(1731)[1])
    assert mv(unit="Grand saurien", move="retraite")["distance_cm"] == 7  # printed "07"
    with pytest.raises(RefereeError, match="field medium: Jaguar et puma has no movement in the air"):
        mv(unit="jaguar", move="normal", medium="air")
    with pytest.raises(RefereeError, match="field formation"):
        mv(unit="jaguar", move="normal", formation="colonne")


def test_gf_d2_area_terrain_and_penalties_in_sequence():
    assert mv(unit="Homme", move="normal", terrain="bois")["distance_cm"] == 10
    assert mv(unit="Homme", move="normal", terrain="marais")["distance_cm"] == 15
    # two hedges: 2 cm, half of 18 = 9; then 4 cm to the second, half of the 5 left: 8.5 cm covered
    r = mv(unit="Homme", move="normal", obstacles=[{"type": "haie", "at_cm": 6}, {"type": "haie", "at_cm": 2}])
    assert r["distance_exact"] == "17/2"
    # an obstacle beyond the reach is not crossed
    assert mv(unit="Homme", move="normal", obstacles=[{"type": "mur", "at_cm": 25}])["distance_cm"] == 20
    with pytest.raises(RefereeError, match="linear obstacle"):
        mv(unit="Homme", move="normal", terrain="haie")


def test_gf_d3_low_hills_do_not_affect_movement():
    assert "n'affectent pas le déplacement" in line(722)
    assert mv(unit="Homme", move="normal", terrain="colline")["distance_cm"] == 20
    assert mv(unit="Homme", move="normal", terrain="colline abrupte")["distance_cm"] == 10


def test_gf_d5_formation_change_consumes_a_fraction_of_the_normal_move():
    assert mv(unit="Homme", move="normal", formation_change=True, **{"class": "A"})["distance_cm"] == 15
    assert mv(unit="Homme", move="normal", formation_change=True, **{"class": "B"})["distance_cm"] == 10
    assert mv(unit="Saurien", move="normal", formation_change=True, **{"class": "C"})["distance_cm"] == 0
    assert mv(unit="Araignée", move="normal", formation_change=True)["distance_cm"] == 11
    with pytest.raises(RefereeError, match="field class"):
        mv(unit="Homme", move="normal", formation_change=True)
    with pytest.raises(RefereeError, match="l.598"):
        mv(unit="Homme", move="charge", formation_change=True, **{"class": "A"})


def test_gf_d6_fire_and_movement_loses_a_quarter():
    assert mv(unit="Homme", move="normal", firing="arc")["distance_cm"] == 15
    assert mv(unit="Homme", move="retraite", firing="fronde")["distance_cm"] == 7.5
    with pytest.raises(RefereeError, match="does not allow firing"):
        mv(unit="Homme", move="double", formation="colonne", firing="arc")


def test_gf_d7_an_unprinted_monster_penalty_is_none():
    assert cells(1896)[2] == "/"
    assert mv(unit="Grand saurien", move="normal", obstacles=[{"type": "clôture", "at_cm": 4}])["distance_cm"] == 14
    assert mv(unit="Grand saurien", move="normal", obstacles=[{"type": "haie", "at_cm": 4}])["distance_cm"] == 11.5


def test_buildings_impassable_and_unprinted_terrain():
    assert "consomme la totalité de son mouvement" in line(712)
    assert mv(unit="Homme", move="normal", obstacles=[{"type": "bâtiment", "at_cm": 3}])["distance_cm"] == 3
    assert mv(unit="Homme", move="normal", obstacles=[{"type": "rivière", "at_cm": 7}])["distance_cm"] == 7
    assert mv(unit="Homme", move="normal", terrain="bâtiment")["distance_cm"] == 15  # OR-GF2, l.788
    with pytest.raises(RefereeError, match="without a value"):
        mv(unit="Homme", move="normal", obstacles=[{"type": "gué", "at_cm": 3}])


def test_flight_manoeuvres():
    assert mv(unit="Aigle", move="normal", flight="plonger")["distance_cm"] == 27
    assert mv(unit="Aigle", move="normal", flight="changer d'altitude")["distance_cm"] == 0
    r = mv(unit="Aigle", move="normal", flight="décollage")
    assert (r["distance_cm"], r["ground_cost_cm"]) == (27, 5)
    with pytest.raises(RefereeError, match="field terrain/obstacles"):
        mv(unit="Aigle", move="normal", medium="air", terrain="bois")


def test_bad_input():
    with pytest.raises(RefereeError, match=r"field unit: unknown name 'Hommes'.*'Homme'"):
        mv(unit="Hommes", move="normal")
    with pytest.raises(RefereeError, match=r"field obstacles\[0\].type: unknown name 'hai'.*'Murs/haies'"):
        mv(unit="Homme", move="normal", obstacles=[{"type": "hai", "at_cm": 3}])
    with pytest.raises(RefereeError, match=r"field at_cm"):
        mv(unit="Homme", move="normal", obstacles=[{"type": "haie", "at_cm": -3}])
    with pytest.raises(RefereeError, match=r"field move"):
        mv(unit="Homme", move="galop")


OBSTACLES = st.lists(st.tuples(st.sampled_from(["haie", "clôture", "mur"]), st.integers(0, 40)), max_size=4)


@given(st.sampled_from(["Homme", "Saurien", "jaguar", "Grand saurien"]), st.sampled_from(["normal", "charge",
                                                                                          "retraite"]), OBSTACLES)
def test_obstacles_never_lengthen_a_move(unit, move, obstacles):
    plain = mv(unit=unit, move=move)["distance_cm"]
    r = mv(unit=unit, move=move, obstacles=[{"type": t, "at_cm": a} for t, a in obstacles])
    assert 0 <= Fraction(r["distance_exact"]) <= plain
    more = mv(unit=unit, move=move, obstacles=[{"type": t, "at_cm": a} for t, a in obstacles] +
              [{"type": "haie", "at_cm": 1}])
    assert Fraction(more["distance_exact"]) <= Fraction(r["distance_exact"])
