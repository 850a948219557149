"""Stationary carts (Magna Carta §4.5.2–§4.5.3): two hexes placed by the scenario's map, their
cost, cover, combat mark, lines of fire, and no boarding by the front hex."""

from __future__ import annotations

import pytest
from gamekit import H, game

from oriflamme.rulesets.magna_carta.engine.actions import Attack, Fire, Move
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction
from oriflamme.rulesets.magna_carta.engine.game import apply, explain
from oriflamme.rulesets.magna_carta.maps import MapError, build_map, with_carts
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.rulesets.magna_carta.scenario import validate_scenario
from oriflamme.rulesets.magna_carta.engine.errors import ScenarioError

ROWS = [" ".join("." * 10)] * 10
CART = [{"front": "0505", "rear": "0506"}]


def cart_game(chars, step="movement", **kw):
    st = game(ROWS, chars, step=step, **kw)
    st.gmap = with_carts(st.gmap, CART, load_ruleset())
    return st


def test_cart_hexes_cost_two_and_the_front_is_closed():
    st = cart_game([("a", "spearman", "A", "0507"), ("z", "spearman", "B", "1010")])
    r = explain(st, Move("a", ("0506",)))  # boarding by the rear hex: 2 PM (§4.5.2)
    assert r.legal and r.data["cost"] == 2
    r = explain(st, Move("a", ("0506", "0505")))  # from one cart hex to the other: 2 PM (§4.5.3.1)
    assert r.legal and r.data["cost"] == 4
    st.characters["a"].hex = H("0504")
    with pytest.raises(IllegalAction) as e:  # not by the front hex (§4.5.3.1)
        apply(st, Move("a", ("0505",)))
    assert "MC §4.5.3.1" in e.value.ref


def test_riders_cannot_enter_a_cart():
    st = cart_game([("k", "knight", "A", "0508", {"facing": "N"}), ("z", "spearman", "B", "1010")])
    with pytest.raises(IllegalAction) as e:
        apply(st, Move("k", ("0507", "0506")))
    assert "§4.5" in e.value.ref


def test_cart_gives_medium_cover_and_blocks_lines_behind_it():
    st = cart_game([("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0506"),
                    ("u", "spearman", "B", "0503")], step="offensive_fire")
    r = explain(st, Fire("x", "t"))
    assert r.legal and r.data["cover"] == "medium"
    assert not explain(st, Fire("x", "u")).legal  # the cart stands in the way (§4.5.1)


def test_defender_in_a_cart_has_the_advantage():
    st = cart_game([("a", "spearman", "A", "0507"), ("d", "spearman", "B", "0506")], step="melee")
    r = explain(st, Attack(("a",), ("d",)))
    # 8:6 is 1-1; the cart's "+" shifts it one column left: impossible (§4.5.2, §6.1, D2)
    assert any("defender +: -1 column" in s.text for s in r.steps) and not r.legal


def test_cart_map_errors():
    rs = load_ruleset()
    gmap = build_map({"boards": ["open-country"]}, ruleset=rs)
    with pytest.raises(MapError, match="must be adjacent"):
        with_carts(gmap, [{"front": "0505", "rear": "0507"}], rs)
    with pytest.raises(MapError, match="off the map"):
        with_carts(gmap, [{"front": "2115", "rear": "2114"}], rs)
    with pytest.raises(MapError, match="already holds cart 1"):
        with_carts(gmap, [{"front": "0505", "rear": "0506"}, {"front": "0506", "rear": "0507"}], rs)


def test_scenario_places_carts():
    raw = {"id": "t", "name": "t", "turns": 3,
           "map": {"boards": ["open-country"], "carts": [{"front": "0210", "rear": "0211"}]},
           "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
           "character": [{"id": "a", "name": "A", "type": "spearman", "side": "A", "hex": "0210"},
                         {"id": "b", "name": "B", "type": "spearman", "side": "B", "hex": "1010"}]}
    _, gmap = validate_scenario(raw)
    assert gmap.terrain(H("0210")) == "cart" == gmap.terrain(H("0211"))
    with pytest.raises(ScenarioError, match="carts"):
        validate_scenario(dict(raw, map={"boards": ["open-country"], "carts": [{"front": "0210"}]}))
