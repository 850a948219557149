"""The attacker going into a building after its occupants come out (GF seed 003 l.792; OR-GF135): "L'attaquant
ne peut entrer que si les unités à l'intérieur du bâtiment reculent, retraitent ou déroutent"."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_combat_kit import Always
from guerres_fleuries.seed import line
from guerres_fleuries.test_battle_buildings import HOUSE, battle, inside, near_house, troop

from oriflamme.rulesets.guerres_fleuries.battle import buildings_play, melee_play, turn


def beaten_in_the_house(d4: int, figures: int = 8, kind: str = "troop"):
    """``a`` (10 figures) holds the stone house (2 floors × 12 figures); ``b`` attacks it from its north wall
    and wins 3 to 0; ``a``'s morale d4 decides whether it only recoils (3, 4: O) or retreats (1, 2)."""
    a = near_house()
    b = troop("b", "B", x=85, y=47.9, heading=180.0, figures=figures, figures_max=figures,
              figures_turn_start=figures, frontage=4, ranks=-(-figures // 4), kind=kind)
    b.y = 50 - b.depth / 2 - 0.1  # its front edge against the north wall
    st = battle(a, b, phase=10, elements=[HOUSE])
    inside(st, a)
    st.phase = 10
    held, start = buildings_play.occupancy(st), len(st.log)
    turn.record(st, melee_play._outcome(st, a, b, 3, 0, Always(d4)))
    buildings_play.follow_in(st, held, start)
    return st, a, b, st.log[start:]


def test_the_seed_says_the_attacker_goes_in_only_when_the_occupants_come_out():
    assert "L'attaquant ne peut entrer que si les unités à l'intérieur du bâtiment reculent, retraitent ou " \
           "déroutent" in line(792)
    assert buildings_play.follow_rule().printed in line(792)


def test_the_occupants_recoil_out_and_the_winner_follows_them_in():
    st, a, b, events = beaten_in_the_house(3)
    assert a.status == "ok" and a.inside is None  # it recoiled out of the house (l.788)
    assert b.inside == "house" and b.disorder  # in by breaking its formation: it must reform (l.788)
    ev = next(e for e in events if e["type"] == "enter_building")
    assert ev["unit"] == "b" and "follows" in ev["text"] and "suit" in ev["text_fr"]
    assert "OR-GF135" in ev["decision"] and "GF seed 003 l.792" in ev["ruling"]["citations"]
    assert buildings_play.occupants(st, "house") == [b]


def test_occupants_who_retreat_are_pursued_not_followed_in():
    st, a, b, events = beaten_in_the_house(1)
    assert a.status == "retreat" and b.inside is None and b.pending["move"] == "poursuite"
    ev = next(e for e in events if e["type"] == "stays_outside")
    assert "l.1554" in ev["text"] and ev["decision"] == "OR-GF135" and "l.1554" in ev["text_fr"]


def test_a_winner_larger_than_the_building_goes_in_as_far_as_it_holds():
    """l.673: "Si la place n'est pas suffisante, le reste de l'unité ne rentre pas à l'intérieur. Elle garde sa
    formation en restant en contact avec le bâtiment." (OR-GF142: the winner follows in part)"""
    st, a, b, events = beaten_in_the_house(4, figures=30)  # the house holds 24
    assert a.status == "ok"
    assert b.inside is None and buildings_play.occupants(st, "house") == [b]
    assert b.split["inside"] == 24 and buildings_play.figures_outside(b) == 6
    ev = next(e for e in events if e["type"] == "enter_building")
    assert "follows" in ev["text"] and "24 figure(s) enter" in ev["text"] and "OR-GF135" in ev["decision"]
    assert not any(e["type"] == "stays_outside" for e in events)


def test_a_monster_does_not_go_in():
    """l.798: "Une créature ou un monstre peut se cacher derrière un édifice mais ne peut pas y rentrer"."""
    st, a, b, events = beaten_in_the_house(3, kind="monster")
    assert b.inside is None
    assert any(e["type"] == "stays_outside" and "l.798" in e["text"] for e in events)


@settings(max_examples=20, deadline=None)
@given(d4=st_.integers(1, 4), figures=st_.integers(1, 40))
def test_property_a_building_never_holds_two_units_nor_more_than_it_holds(d4, figures):
    st, a, b, _ = beaten_in_the_house(d4, figures)
    held = buildings_play.occupants(st, "house")
    el = buildings_play.element(st, "house")
    assert len(held) <= 1 and all(buildings_play.figures_inside(u) <= buildings_play.capacity(el) for u in held)
    assert (b in held) == (a.status == "ok")  # a larger winner goes in as far as the house holds (OR-GF142)
    assert all(buildings_play.figures_inside(u) + buildings_play.figures_outside(u) == u.figures for u in held)
