"""Units hidden behind a building (GF seed 003 l.786, l.798; OR-GF144, OR-GF145): "Les unités cachées derrière
un bâtiment ne sont pas mises sur la table. Elles sont révélées et placées seulement si elles sont repérées."
Each test quotes the seed line it proves."""

from __future__ import annotations

import json
import random

import pytest
from guerres_fleuries.battle_combat_kit import Always
from guerres_fleuries.seed import line
from guerres_fleuries.test_battle_buildings import HOUSE, battle, troop

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import buildings_play, engine, evaluation, orders, turn, views
from oriflamme.rulesets.guerres_fleuries.battle.actions import Action

X, Y = 84.37, 61.63  # a place no other number of the view shares


def behind_house(**kw):
    """Six figures, three a rank, their front edge 0.13 cm below the house's south wall: wholly in its shadow
    from the north."""
    base = dict(figures=6, figures_max=6, frontage=3, ranks=2, x=X, y=Y, heading=0.0)
    base.update(kw)
    return troop("a", "A", **base)


def setting(**kw):
    a = behind_house(**kw)
    e = troop("e", "B", x=85, y=10, heading=180.0, figures=10, frontage=5, ranks=2)
    st = battle(a, e, phase=3, elements=[HOUSE])
    st.acting = "A"
    return st, a, e


def hide(st, a):
    act = Action("hide", "A", unit=a.id)
    engine.check(st, act)
    engine.apply(st, act)
    return act


def test_the_seed_takes_hidden_units_off_the_table():
    assert "Les unités cachées derrière un bâtiment ne sont pas mises sur la table" in line(786)
    assert "Elles sont révélées et placées seulement si elles sont repérées" in line(786)
    assert "Une créature ou un monstre peut se cacher derrière un édifice" in line(798)
    rule = buildings_play.behind_rule()
    assert "GF seed 003 l.786" in rule.ref and rule.decision == "OR-GF144, OR-GF145" and rule.behind_cm == 2.0


def test_a_unit_in_the_building_s_shadow_may_hide_in_the_orders_phase():
    st, a, e = setting()
    assert a.footprint().distance(st.battlefield.element("house").geometry) <= 2.0
    assert Action("hide", "A", unit="a") in engine.legal_actions(st, "A")
    opts = views.options(st, "A", engine.legal_actions(st, "A"))
    assert opts["units"]["a"]["hide"] is True
    hide(st, a)
    assert a.hidden and a.behind["building"] == "house" and (a.x, a.y) == (X, Y)
    ev = next(x for x in st.log if x["type"] == "hide_behind")
    assert "private" not in ev and ev["building"] == "house"  # the enemy sees it taken off the table…
    assert ev["ruling"]["citations"] == ["GF seed 003 l.786, l.798, l.497", "OR-GF144, OR-GF145"]
    assert any("none of the 1 enemy unit(s)" in s for s in ev["ruling"]["explanation"])


def test_the_enemy_view_holds_neither_the_unit_nor_its_place():
    """l.786 "ne sont pas mises sur la table": the enemy's view (and a spectator's) has no trace of where it is."""
    st, a, e = setting()
    hide(st, a)
    for side in ("B", None):
        v = views.view(st, side, [])
        assert "a" not in {u["id"] for u in v["units"]}
        text = json.dumps(v)
        assert str(X) not in text and str(Y) not in text
    mine = {u["id"]: u for u in views.view(st, "A", [])["units"]}
    assert mine["a"]["hidden"] and mine["a"]["behind"] == "house" and mine["a"]["x"] == X
    # …nor a target of its charges, its fire or its spells
    assert "a" not in [t for t, _ in orders.charge_targets(st, e)]
    with pytest.raises(IllegalAction):
        engine.check_cast(st, Action("cast", "B", unit="e", spell="eclair", target="a"))


def test_a_unit_an_enemy_sees_or_away_from_a_building_is_refused_and_nothing_changes():
    """OR-GF144: hidden only when no enemy on the table sees it, within 2 cm of a standing building."""
    st, a, e = setting()
    e.x, e.y, e.heading = 130.0, 62.0, 270.0  # east of the unit, in the open: it sees it
    before = json.dumps(st.to_json(), sort_keys=True)
    assert Action("hide", "A", unit="a") not in engine.legal_actions(st, "A")
    with pytest.raises(IllegalAction) as exc:
        engine.check(st, Action("hide", "A", unit="a"))
    assert "e sees it" in str(exc.value) and "l.786" in exc.value.ref and "OR-GF144" in exc.value.ref
    assert json.dumps(st.to_json(), sort_keys=True) == before
    st2, a2, _ = setting(y=70.0)
    with pytest.raises(IllegalAction) as exc:
        engine.check(st2, Action("hide", "A", unit="a"))
    assert "not within 2 cm of a standing building" in str(exc.value)


def test_a_monster_may_hide_behind_a_building():
    """l.798: "Une créature ou un monstre peut se cacher derrière un édifice mais ne peut pas y rentrer"."""
    st, a, e = setting(kind="monster", race="araignee", figures=1, figures_max=1, frontage=1, ranks=1)
    a.y = 58 + 0.5 + a.depth / 2
    assert buildings_play.refusal(st, a, "house") is not None
    hide(st, a)
    assert a.hidden and a.behind


def test_it_is_placed_again_when_an_enemy_sees_it():
    """l.786: "Elles sont révélées et placées seulement si elles sont repérées" (checked after every step)."""
    st, a, e = setting()
    hide(st, a)
    e.x, e.y, e.heading = 130.0, 62.0, 270.0
    buildings_play.detect(st)
    assert not a.hidden and a.behind is None and (a.x, a.y) == (X, Y)
    ev = next(x for x in st.log if x["type"] == "revealed")
    assert "private" not in ev and ev["at"] == [X, Y, 0.0] and "e sees it" in ev["text"]
    assert "a" in {u["id"] for u in views.view(st, "B", [])["units"]}


def test_it_is_placed_again_when_it_moves_and_when_the_building_falls():
    st, a, e = setting()
    hide(st, a)
    buildings_play.detect(st)
    assert a.hidden  # nothing changed: still hidden
    a.x += 0.5
    buildings_play.detect(st)
    assert not a.hidden and any(x["type"] == "revealed" and "it moves" in x["text"] for x in st.log)
    st, a, e = setting()
    hide(st, a)
    buildings_play.collapse(st, st.battlefield.element("house"), Always(1))
    buildings_play.detect(st)
    assert not a.hidden and any(x["type"] == "revealed" and "fallen" in x["text"] for x in st.log)


def test_an_enemy_moving_onto_it_finds_it_and_stops():
    """OR-GF145 (as a hidden base, OR-GF103): a move that would cross it or end within 5 cm places it; the
    mover stays where it stood."""
    st, a, e = setting()
    hide(st, a)
    e.x, e.y, e.heading = 85.0, 85.0, 0.0
    assert buildings_play.blocked_by_hidden(st, e, 85.0, 70.0, 0.0) == [a]
    assert buildings_play.blocked_by_hidden(st, e, 85.0, 80.0, 0.0) == []


def test_a_hidden_unit_that_charges_is_placed_when_the_orders_are_revealed():
    """l.497 "Elles doivent être placées sur la table si elles se déplacent, tirent"; l.283: a charge names its
    target: the charger is placed in phase 4, before the reactions (OR-GF145); its other orders stay its own."""
    st, a, e = setting()
    hide(st, a)
    a.order, a.target = "attendre", None
    turn.phase4_reveal(st)
    assert a.hidden
    listed = next(x for x in st.log if x["type"] == "orders_revealed")["orders"]
    assert "a" not in listed
    a.order, a.target = "charger", "e"
    st.dice = Always(3)
    turn.phase4_reveal(st)
    assert not a.hidden and any(x["type"] == "revealed" and "it charges" in x["text"] for x in st.log)


def test_the_computer_player_s_copies_do_not_depend_on_where_it_hides():
    """OR-GF145: the enemy's copies of the battle put the unit against one of the building's walls drawn at
    random: two battles that differ only in where behind the house it stands give the same copies."""
    copies = []
    for x in (X, 86.2):
        st, a, e = setting(x=x)
        hide(st, a)
        copy = evaluation.determinize(st, "B", random.Random(7))
        c = copy.units["a"]
        copies.append((c.x, c.y, c.heading, c.behind["building"]))
        assert c.hidden and c.footprint().distance(st.battlefield.element("house").geometry) <= 1.0
        # and its side's own copies keep it where it is
        assert (evaluation.determinize(st, "A", random.Random(7)).units["a"].x) == x
    assert copies[0] == copies[1]


def test_a_unit_hidden_behind_a_building_is_unseen_by_the_enemy_s_morale_tests():
    """OR-GF150: taken off the table behind the house, the unit adds no modifier to an enemy's morale test
    (``morale_play.unseen``); occupants hidden *in* a building still count (the enemy saw them go in)."""
    from oriflamme.rulesets.guerres_fleuries.battle import morale_play
    st, a, e = setting()
    assert not morale_play.unseen(st, a)
    hide(st, a)
    assert morale_play.unseen(st, a) and a.hidden
    a.behind, a.inside = None, "house"  # an occupant hidden in the building instead
    assert a.hidden and not morale_play.unseen(st, a)
