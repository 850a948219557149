"""A unit too large for its building (GF seed 003 l.670-673, l.786; OR-GF142, OR-GF143): "Si la place n'est
pas suffisante, le reste de l'unité ne rentre pas à l'intérieur. Elle garde sa formation en restant en contact
avec le bâtiment." and "Une unité qui se trouve à l'intérieur et à l'extérieur d'un bâtiment n'est pas
considérée en désordre. Son intégrité est maintenue. En cas de retraite ou de déroute, toute l'unité effectue
le mouvement." Each test quotes the seed line it proves."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_combat_kit import Always
from guerres_fleuries.seed import line
from guerres_fleuries.test_battle_buildings import HOUSE, battle, near_house, troop

import pytest

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import (buildings_play, casualties, fire_play, melee_play,
                                                         morale_play, orders, reactions, turn, views)
from oriflamme.rulesets.guerres_fleuries.battle.rules import rules
from oriflamme.rulesets.guerres_fleuries.battle.state import Battle


def big(**kw):
    """30 figures, 10 a rank in 3 ranks, their front edge 1 cm below the house's south wall (the house holds
    24: 12 a floor × 2 floors)."""
    gap = kw.pop("gap", 1.0)
    base = dict(figures=30, figures_max=30, frontage=10, ranks=3)
    base.update(kw)
    u = near_house(**base)
    u.y = 58 + gap + u.depth / 2
    return u


def split_in(st, u, bid="house"):
    u.order, u.target = "casser", bid
    turn.phase6_orders_in_place(st)
    assert u.split and u.split["building"] == bid and u.inside is None
    return u


def house(st):
    return st.battlefield.element("house").geometry


def tol():
    return rules().distances.contact_tolerance_cm + 1e-6


def test_the_seed_leaves_the_rest_outside_in_formation():
    assert "Si la place n'est pas suffisante, le reste de l'unité ne rentre pas à l'intérieur" in line(673)
    assert "Elle garde sa formation en restant en contact avec le bâtiment" in line(673)
    assert "n'est pas considérée en désordre. Son intégrité est maintenue" in line(786)
    assert "En cas de retraite ou de déroute, toute l'unité effectue le mouvement" in line(786)
    rule = buildings_play.split_rule()
    assert "GF seed 003 l.673, l.786" in rule.ref and rule.decision == "OR-GF142, OR-GF143"
    assert rule.min_inside == 1 and rule.disordered is False


def test_a_unit_larger_than_the_house_goes_in_as_far_as_it_holds():
    """l.673: 24 figures go in, the 6 others keep their formation against the south wall; l.786: not
    disordered, one unit; seen by the enemy (its part outside stands on the table)."""
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=3, elements=[HOUSE])
    assert "casser" in {o["id"] for o in orders.options(st, a)}
    orders.check(st, "A", {"a": ("casser", "house")})
    st.phase = 6
    split_in(st, a)
    assert a.split["inside"] == 24 and buildings_play.figures_outside(a) == 6 and a.figures == 30
    assert not a.disorder and not a.hidden and a.moved
    # its formation kept: the same frontage rule (10 a rank, fewer than 10 left: one rank of 6)
    assert a.front == 6 and a.ranks == 1 and a.formation == "line"
    fp = a.footprint()
    assert fp.intersection(house(st)).area < 0.01 and fp.distance(house(st)) <= tol()
    assert buildings_play.occupants(st, "house") == [a]
    ev = next(e for e in st.log if e["type"] == "enter_building")
    assert ev["inside"] == 24 and ev["outside"] == 6 and "private" not in ev
    assert "GF seed 003 l.673, l.786" in ev["ruling"]["citations"] and "OR-GF142, OR-GF143" in ev["decision"]
    assert any("not disordered" in s for s in ev["ruling"]["explanation"])
    seen = {u["id"]: u for u in views.view(st, "B", [])["units"]}
    assert seen["a"]["split"] == {"building": "house", "inside": 24, "outside": 6}
    # no other unit may go in while it holds part of the house (one unit a building, OR-GF80)
    other = troop("o", "A", x=93.5, y=54, heading=270.0, figures=4, frontage=4, ranks=1)
    st.units["o"] = other
    st.phase = 3
    with pytest.raises(IllegalAction) as exc:
        orders.check(st, "A", {"o": ("casser", "house")})
    assert "another unit holds it" in str(exc.value)


def test_a_unit_standing_apart_moves_up_against_the_wall():
    """l.673 "en restant en contact avec le bâtiment": 4 cm from the wall, the rest steps up to it."""
    a = big(gap=4.0)
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    assert a.footprint().distance(house(st)) == pytest.approx(4.0)
    split_in(st, a)
    assert a.footprint().distance(house(st)) <= tol() and a.footprint().intersection(house(st)).area < 0.01


def test_a_split_unit_takes_the_occupants_orders_and_reactions():
    """l.792 (OR-GF82, OR-GF143): partly in the building it cannot take the initiative of a combat: it waits,
    fires or comes out; charged it stands or fires."""
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    st.phase = 3
    assert {o["id"] for o in orders.options(st, a)} == {"tirer", "casser", "attendre"}  # not disordered: no reform
    with pytest.raises(IllegalAction) as exc:
        orders.check(st, "A", {"a": ("avancer", None)})
    assert "OR-GF143" in str(exc.value) and "l.792" in exc.value.ref
    assert reactions.choices(st, a) == ["stand", "fire"]


def test_its_outside_part_fires_and_so_do_the_figures_against_the_wall():
    """l.790 "Seuls les figurines se trouvant au contact d'un mur (d'un côté) peuvent tirer": the 6 figures
    outside (one rank of bows) and, inside, the north wall's 4 files × 2 floors = 8: 14 of the 30."""
    a = big()
    t = troop("t", "B", x=85, y=85, heading=0.0, figures=20)
    st = battle(a, t, phase=6, elements=[HOUSE])
    split_in(st, a)
    a.heading = 180.0  # its outside part faces the target, south
    n, steps = fire_play.firing_figures(st, a, t)
    assert n == 6 + 4 * 2 == 14
    assert any("OR-GF84" in s for s in steps) and any("OR-GF143" in s for s in steps)


def test_casualties_come_off_the_part_outside_first_then_it_holds_the_building():
    """OR-GF143: shot at and charged through its part outside, it loses that part first; when none is left
    outside, the rest holds the house as an occupant (seen: it was on the table)."""
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    casualties.remove_figures(a, 4)
    assert a.figures == 26 and a.split["inside"] == 24 and buildings_play.figures_outside(a) == 2
    assert a.footprint().distance(house(st)) <= tol()  # still against the wall
    casualties.remove_figures(a, 3)
    assert a.split is None and a.inside == "house" and a.figures == 23 and not a.hidden
    assert a.footprint().equals(house(st))


def test_melee_counts_only_the_figures_outside():
    """l.933: only the figures in base contact fight; the figures inside touch no enemy (OR-GF143)."""
    a = big()
    st = battle(a, troop("e", "B", x=30, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    a.heading = 180.0
    b = troop("b", "B", x=85, y=64 + 2.5, heading=0.0, figures=20, frontage=10, ranks=2)
    b.y = a.footprint().bounds[3] + b.depth / 2
    st.units["b"] = b
    n, side = melee_play.figures_in_contact(a, b)
    assert side == "front" and n == 6


def test_a_retreat_or_a_rout_moves_the_whole_unit():
    """l.786: "En cas de retraite ou de déroute, toute l'unité effectue le mouvement"."""
    for column in ("retraite", "deroute"):
        a = big()
        e = troop("e", "B", x=85, y=10, heading=180.0)
        st = battle(a, e, phase=6, elements=[HOUSE])
        split_in(st, a)
        steps, _ = morale_play.flee(st, a, column, e)
        assert a.split is None and a.inside is None and a.figures == 30 and a.frontage == 10 and a.ranks == 3
        assert not a.footprint().intersects(house(st)) and a.y > 62
        assert "come out and rejoin the unit" in steps[0] and "l.786" in steps[0]
        assert not buildings_play.occupants(st, "house")


def test_a_recoil_moves_the_whole_unit_out_disordered():
    """l.786 (integrity kept: the whole unit moves) and l.788 "lors d'un mouvement de recul (l'unité est
    considérée en désordre)" (OR-GF143)."""
    a = big()
    st = battle(a, troop("e", "B", x=30, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    a.heading = 180.0
    b = troop("b", "B", x=85, y=70, heading=0.0, figures=20, frontage=10, ranks=2)
    b.y = a.footprint().bounds[3] + b.depth / 2
    st.units["b"] = b
    ev = melee_play.recoil(st, a, b, 2)
    assert a.split is None and a.figures == 30 and a.disorder
    assert "rejoin" in ev["explanation"][0] and "l.788" in ev["explanation"][1]


def test_coming_out_with_the_order_rejoins_the_figures_inside():
    """l.788: "sortir volontairement en ayant un ordre « casser sa formation » et se reformer à l'extérieur"."""
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    a.moved = False
    a.order, a.target = "casser", "out"
    turn.phase6_orders_in_place(st)
    assert a.split is None and a.figures == 30 and a.ranks == 3 and a.disorder
    assert a.footprint().intersection(house(st)).area < 0.01
    assert any(e["type"] == "leave_building" and "OR-GF143" in e["decision"] for e in st.log)


def test_the_collapse_brings_the_figures_inside_out():
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    buildings_play.collapse(st, st.battlefield.element("house"), Always(1))  # d100 1: every figure survives
    assert a.split is None and a.figures == 30 and a.disorder


def test_a_split_unit_survives_the_json_round_trip():
    a = big()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    split_in(st, a)
    back = Battle.from_json(json.loads(json.dumps(st.to_json())), st.scenario)
    assert back.units["a"].split == a.split and back.units["a"].footprint().equals(a.footprint())


@settings(max_examples=25, deadline=None)
@given(figures=st_.integers(1, 60), frontage=st_.integers(1, 12), losses=st_.lists(st_.integers(0, 8), max_size=6))
def test_property_inside_plus_outside_is_the_unit_and_inside_never_exceeds_the_capacity(figures, frontage, losses):
    """OR-GF142, OR-GF143: whatever its size and losses, the figures inside and outside make the unit, the
    building never holds more than its capacity, and the part outside never stands in the building."""
    frontage = min(frontage, figures)
    a = near_house(figures=figures, figures_max=figures, frontage=frontage, ranks=-(-figures // frontage))
    a.y = 58 + 1 + a.depth / 2
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    a.order, a.target = "casser", "house"
    turn.phase6_orders_in_place(st)
    cap = buildings_play.capacity(st.battlefield.element("house"))
    assert (a.split is not None) == (figures > cap) and (a.inside == "house") == (figures <= cap)
    for n in losses:
        casualties.remove_figures(a, n)
        if not a.alive:
            break
        assert buildings_play.figures_inside(a) + buildings_play.figures_outside(a) == a.figures
        assert buildings_play.figures_inside(a) <= cap
        if a.split:
            assert buildings_play.figures_outside(a) >= 1
            assert a.footprint().intersection(house(st)).area < 0.01
