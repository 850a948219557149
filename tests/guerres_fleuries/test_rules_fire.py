"""``fire``: the procedure (GF seed 003 l.1461-1470), the PBT, GF-E1…E9, properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from guerres_fleuries.rules_seed import band_max, cells
from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries.names import RefereeError
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

GF = GuerresFleuries()


def shoot(**kw):
    s = {"kind": "fire", "shooter_race": "Homme", "weapon": "Arc", "distance_cm": 5, "target_armour": "sans armure",
         "firing_figures": 10, "target": "unit", "modifiers": []}
    s.update(kw)
    return GF.adjudicate(s)


@pytest.mark.parametrize("n,race", [(1476, "Homme"), (1477, "Homme"), (1478, "Homme"), (1488, "Saurien"),
                                    (1490, "Saurien")])
def test_band_edges_and_base_percentages_are_the_printed_ones(n, race):
    label, short, medium, long_, sans, coton, *_ = cells(n)
    weapon = label.split("<")[0].strip()
    for d, band in ((band_max(short), "courte"), (band_max(short) + 1, "moyenne"), (band_max(medium), "moyenne"),
                    (band_max(medium) + 1, "longue"), (band_max(long_), "longue")):
        r = shoot(shooter_race=race, weapon=weapon, distance_cm=d, target_armour="coton")
        assert (r["in_range"], r["band"], r["base_pct"]) == (True, band, int(coton)), d
    far = shoot(shooter_race=race, weapon=weapon, distance_cm=band_max(long_) + 0.5)
    assert (far["in_range"], far["eliminated"], far["final_pct"]) == (False, 0, 0)
    assert shoot(shooter_race=race, weapon=weapon, target_armour="sans armure", distance_cm=0)["base_pct"] == int(sans)


def test_the_procedure_multiplies_then_divides_by_the_band():
    """l.1467-1469: modified % × figures; ÷ 2 at medium, ÷ 3 at long; l.1470 slices of 100 %."""
    assert "on divise le résultat par 2 et par 3 à longue portée" in line(1469)
    r = shoot(weapon="Arc", distance_cm=30, target_armour="sans armure", firing_figures=20,
              modifiers=[{"modifier": "Si le tireur est de classe A.", "count": 1}])
    assert (r["band"], r["base_pct"], r["modifier_total"], r["modified_pct"]) == ("longue", 13, 2, 15)
    assert (r["multiplied_pct"], r["final_pct"], r["eliminated"], r["residual_pct"]) == (300, 100, 1, 0)
    assert r["extra_if_d100_at_most"] == 0


def test_gf_e1_saurian_sling_short_range_is_0_to_5():
    assert cells(1489)[1] == "0-1" and cells(1489)[2] == "6-10"
    r = shoot(shooter_race="Saurien", weapon="Fronde", distance_cm=4)
    assert r["band"] == "courte" and "GF-E2" not in r["citations"]
    assert "GF-E1" in r["citations"]


def test_gf_e2_saurian_shooters_against_saurian_armour():
    r = shoot(shooter_race="Saurien", weapon="Javeline", distance_cm=2, target_armour="saurien")
    assert r["base_pct"] == 5 and "GF-E2" in r["citations"]
    assert "GF-E2" not in shoot(shooter_race="Saurien", weapon="Javeline", distance_cm=2)["citations"]


def test_gf_e3_the_propulseur_extends_the_long_range_only():
    assert "propulseur +10cm" in line(1480)
    assert shoot(weapon="javeline", distance_cm=25)["in_range"] is False
    r = shoot(weapon="javeline", distance_cm=30, propulseur=True)
    assert (r["in_range"], r["band"]) == (True, "longue") and "GF-E3" in r["citations"]
    assert shoot(weapon="javeline", distance_cm=6, propulseur=True)["band"] == "moyenne"
    with pytest.raises(RefereeError, match="field propulseur"):
        shoot(weapon="arc", propulseur=True)


def test_gf_e4_every_target_rank_counts_the_first_included():
    r = shoot(target_ranks=3)
    assert r["modifier_total"] == 6 and "GF-E4" in r["citations"]
    with pytest.raises(RefereeError, match="comes from the field target_ranks"):
        shoot(target_ranks=3, modifiers=[{"modifier": "Par rang ennemi.", "count": 3}])


def test_gf_e5_a_negative_percentage_is_zero():
    r = shoot(weapon="Fronde", target_armour="saurien", modifiers=["dense_cover", "target_shields"])
    assert r["modified_pct"] == 4 - 8 and r["final_pct"] == 0 and r["eliminated"] == 0
    assert "GF-E5" in r["citations"]


def test_gf_e6_kept_exact():
    r = shoot(weapon="Javeline", distance_cm=15, target_armour="sans armure", firing_figures=1)
    assert r["final_exact"] == "11/3" and r["residual_pct"] == 3.6667 and r["extra_if_d100_at_most"] == 3
    assert shoot(weapon="Javeline", distance_cm=15, firing_figures=1, d100=3)["extra"] is True
    assert shoot(weapon="Javeline", distance_cm=15, firing_figures=1, d100=4)["extra"] is False


def test_gf_e7_flight_altitude_is_50_cm_further():
    assert shoot(weapon="Arc", distance_cm=5, target="creature", target_altitude="combat")["band"] == "courte"
    r = shoot(weapon="Arc", distance_cm=5, target="creature", target_altitude="altitude de vol")
    assert (r["distance_cm"], r["in_range"]) == (55, False) and "GF-E7" in r["citations"]


def test_gf_e8_firing_ranks():
    assert shoot(weapon="javeline")["max_firing_ranks"] == 2
    assert shoot(shooter_race="Saurien", weapon="javeline", distance_cm=2)["max_firing_ranks"] == 1
    with pytest.raises(RefereeError, match="field firing_ranks: 3 ranks cannot fire"):
        shoot(weapon="arc", firing_ranks=3)
    with pytest.raises(RefereeError, match="first rank fires from woods"):
        shoot(weapon="arc", firing_ranks=2, from_woods=True)


def test_gf_e9_against_characters_creatures_and_monsters_each_100_is_a_wound():
    r = shoot(target="monster", firing_figures=20, distance_cm=5)
    assert r["casualties"] == "wounds" and r["modifier_total"] == 3  # "La cible est un monstre. + 3"
    assert r["eliminated"] == 3 and "GF-E9" in r["citations"]
    c = shoot(target="personnage", firing_figures=20)
    assert c["modifier_total"] == -5 and c["casualties"] == "wounds"


def test_bad_input_suggests_the_printed_name():
    with pytest.raises(RefereeError, match=r"field weapon: unknown name 'Arcs?'.*'Arc'"):
        shoot(weapon="Arcs")
    with pytest.raises(RefereeError, match=r"field target_armour: .*'coton'"):
        shoot(target_armour="cotton armor")
    with pytest.raises(RefereeError, match=r"field modifiers\[0\].modifier: unknown name"):
        shoot(modifiers=["la cible est un dragon"])
    with pytest.raises(RefereeError, match=r"field firing_figures"):
        shoot(firing_figures=-1)


SETUP = st.fixed_dictionaries({
    "shooter_race": st.sampled_from(["Homme", "Saurien"]), "weapon": st.sampled_from(["Arc", "Fronde", "Javeline"]),
    "distance_cm": st.integers(0, 50), "target_armour": st.sampled_from(["sans armure", "coton", "saurien"]),
    "firing_figures": st.integers(0, 60), "target": st.sampled_from(["unit", "character", "creature", "monster"]),
    "modifiers": st.lists(st.sampled_from(["light_cover", "dense_cover", "target_shields", "shooter_class_a",
                                           "target_moved_over_10cm"]), max_size=4)})


@given(SETUP)
def test_final_is_eliminated_hundreds_plus_residual(s):
    r = shoot(**s)
    if r["in_range"]:
        final, residual = Fraction(r["final_exact"]), Fraction(r["residual_exact"])
        assert final == r["eliminated"] * 100 + residual and 0 <= residual < 100
        assert r["extra_if_d100_at_most"] == int(residual)


@given(SETUP, st.integers(1, 20))
def test_more_firing_figures_never_fewer_casualties(s, more):
    a = shoot(**s)
    b = shoot(**{**s, "firing_figures": s["firing_figures"] + more})
    assert (b["eliminated"], b["extra_if_d100_at_most"]) >= (a["eliminated"], a["extra_if_d100_at_most"]) \
        or b["eliminated"] > a["eliminated"]


@given(SETUP)
def test_a_positive_modifier_never_lowers_the_fire(s):
    a = shoot(**s)
    b = shoot(**{**s, "modifiers": s["modifiers"] + ["shooter_class_a"]})
    c = shoot(**{**s, "modifiers": s["modifiers"] + ["dense_cover"]})
    key = lambda r: Fraction(r.get("final_exact", "0"))
    assert key(c) <= key(a) <= key(b)
