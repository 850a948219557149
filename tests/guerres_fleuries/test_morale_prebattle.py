"""Pre-battle data (GF Avant la bataille) and buildings against the printed sentences, the readings
GF-K3, GF-K4, GF-K5, GF-K2; the modifier listing carries gf-morale's lists."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.rulesets.guerres_fleuries import buildings, prebattle
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries


def test_terrain_choice_is_the_printed_one():
    p = prebattle.data()
    assert "de 0 à 6 éléments" in line(460)
    assert (p.terrain_choice.elements_min, p.terrain_choice.elements_max) == (0, 6)
    assert [e.printed for e in p.terrain_elements.values()] == [line(n)[2:] for n in range(464, 476)]
    for e in p.terrain_elements.values():
        if m := re.match(r"Jusqu'à ([\d,]+)cm", e.printed):
            assert e.max_length_cm == float(m.group(1).replace(",", "."))
    limited = {e.id for e in p.terrain_elements.values() if e.max_per_player == 1}
    assert limited == {"colline_abrupte", "marais", "haies", "haies_doubles"}  # l.479
    assert "1,80m sur 1,20m" in line(481) and p.terrain_choice.table_cm == [180, 120]
    assert "25cm de côté compte comme deux" in line(479)


@given(own=st.integers(0, 40), other=st.integers(0, 40))
def test_gf_k3_discovered_below_half_the_other(own, other):
    assert "(-50%) est découvert" in line(485)
    assert prebattle.discovered(own, other) == (2 * own < other)


@given(brigades=st.integers(0, 8), d6=st.integers(1, 6))
def test_gf_k5_movement_bases(brigades, d6):
    assert "une base par brigade plus 1d6-2 bases" in line(493)
    assert prebattle.movement_bases(brigades, d6) == brigades + max(0, d6 - 2)


@given(d6=st.integers(1, 6), character=st.booleans(), all_b=st.booleans())
def test_gf_k4_flank_march(d6, character, all_b):
    assert "un score de 5 ou 6" in line(509) and "au 4<sup>ème</sup> tour" in line(507)
    assert "moitié de leurs effectifs (en budget)" in line(505)
    assert prebattle.flank_march_enters(d6, with_character=character, all_class_b=all_b) == \
        (d6 + character + all_b >= 5)
    assert prebattle.flank_march_turns(2) == [4, 5, 6]  # "chacun des deux tours suivants" (l.511)
    assert prebattle.flank_march_turns(7) == [7, 8, 9]
    assert prebattle.data().flank_march.max_share_of_points == 0.5


def test_battle_orders_are_the_printed_four():
    orders = prebattle.data().battle_orders
    assert [o.printed.split(" :")[0] for o in orders.values()] == ["Attaquer", "Harceler",
                                                                  "Soutenir ou protéger une unité amie",
                                                                  "Tenir une position"]
    assert len(prebattle.data().battle_order_ends) == 6
    assert "Soutenir" in orders["soutenir"].printed and "20cm" in orders["soutenir"].printed


def test_deployment_zone():
    d = prebattle.data().deployment
    assert "jusqu'à 30cm de la ligne médiane" in line(495) and "laissant 30cm de chaque côté" in line(495)
    assert (d.zone_depth_from_centre_line_cm, d.zone_side_margin_cm) == (30, 30)


def test_gf_k2_fire_and_magic_damage_accumulate():
    b = buildings.data()
    assert sum(b.damage["fire"].on_turn(t) for t in (1, 2, 3)) == 6
    assert sum(b.damage["magic"].on_turn(t) for t in (1, 2)) == 7
    assert [s.id for s in b.structures.values() if s.flammable] == ["batiment_en_bois"]


def test_the_listing_names_every_morale_list_with_caps():
    rows = GuerresFleuries().adjudicate({"kind": "modifiers"})["modifiers"]
    kinds = {r["kind"] for r in rows}
    assert {"morale", "morale_creatures", "morale_monsters", "magic", "detection"} <= kinds
    capped = [r for r in rows if r.get("max_count")]
    assert {(r["kind"], r["id"]) for r in capped} >= {("morale", "friend_near"), ("morale_monsters", "enemy_unbroken_near")}
    assert all(r["max_count"] == 4 for r in capped)
