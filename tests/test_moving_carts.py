"""Moving carts and draught animals (Magna Carta §4.5.1, §4.5.1.1, §4.5.4, §6.8; SEED-NOTES D13):
carts in the game state, driving with a horse or an ox, men pulling, the X cells, passengers,
no boarding while moving, fire from a moving cart, harnessing, the draught animal attacked,
JSON and replay, and a higher level seeing over a cart (engine/carts.py)."""

from __future__ import annotations

import random

import pytest
from gamekit import H, ScriptedDice, game, fork
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from oriflamme.rulesets.magna_carta.engine import carts
from oriflamme.rulesets.magna_carta.engine.actions import (Action, AttackHorse, DriveCart, EndStep, Fire, Harness, Lead, Move,
                                      Unharness)
from oriflamme.rulesets.magna_carta.engine.errors import IllegalAction, ScenarioError
from oriflamme.rulesets.magna_carta.engine.game import apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.record import Game, replay
from oriflamme.rulesets.magna_carta.engine.state import GameState, Horse
from oriflamme.rulesets.magna_carta.engine.view import view
from oriflamme.rulesets.magna_carta.maps import MapError, build_map, with_carts
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.rulesets.magna_carta.scenario import validate_scenario

ROWS = [" ".join("." * 10)] * 10
#: a cart facing north, front 0508, rear 0509; a harnessed animal stands in 0507 (rear) and 0506 (head)
CART = {"front": "0508", "rear": "0509"}


def cgame(chars, cart=None, animal="ox", rows=ROWS, step="movement", **kw) -> GameState:
    if not any(c[2] == "B" for c in chars):
        chars = chars + [("z", "spearman", "B", "1001")]
    if not any(c[0] == "y" for c in chars):  # a friend far away keeps side A's step open
        chars = chars + [("y", "spearman", "A", "0110")]
    st = game(rows, chars, step=step, **kw)
    spec = dict(cart or CART)
    if animal:
        spec["animal"] = animal
    carts.place(st, [spec])
    return st


def cites(r, ref: str) -> bool:
    return any(ref in s.ref for s in r.steps)


def refused(st: GameState, action: Action, ref: str) -> str:
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        apply(st, action)
    assert ref in e.value.ref, (e.value.reason, e.value.ref)
    assert st.digest() == before
    return e.value.reason


# --- the cart in the game state ----------------------------------------------------------------
def test_placed_cart_and_animal():
    st = cgame([("a", "spearman", "A", "0508")])
    cart = st.carts.carts["cart1"]
    ox = st.riders.horses["cart1-ox"]
    assert (cart.front, cart.rear, cart.facing, cart.animal) == (H("0508"), H("0509"), 0, "cart1-ox")
    assert ox.hexes == (H("0506"), H("0507")) and ox.kind == "ox" and ox.harnessed_to == "cart1"
    assert st.gmap.terrain(H("0508")) == "cart" == st.gmap.terrain(H("0509"))
    v = view(st, "A")
    assert v["carts"] == [{"id": "cart1", "hexes": ["0508", "0509"], "facing": 0, "animal": "cart1-ox", "moving": False}]


def test_driving_with_an_ox_and_with_a_horse():
    # the ox: 4 PM (movement.toml ox_movement), the driver holding the reins on the front hex
    st = cgame([("a", "spearman", "A", "0508")])
    r = explain(st, DriveCart("a", "cart1", ("0505", "0504", "0503", "0502")))
    assert r.legal and r.data["cost"] == 4 and cites(r, "§4.5.1")
    refused(st, DriveCart("a", "cart1", ("0505", "0504", "0503", "0502", "0501")), "MC §4.5.1")
    apply(st, DriveCart("a", "cart1", ("0505", "0504", "0503", "0502")))
    cart, ox, a = st.carts.carts["cart1"], st.riders.horses["cart1-ox"], st.characters["a"]
    assert ox.hexes == (H("0502"), H("0503")) and (cart.front, cart.rear) == (H("0504"), H("0505"))
    assert a.hex == H("0504")  # the driver rides on the front hex
    assert cart.moving and cart.side == "A"
    assert st.gmap.terrain(H("0504")) == "moving_cart" and st.gmap.terrain(H("0508")) == "clear"
    assert any(e["type"] == "cart_moves" for e in st.log)
    # the draught horse: 8 PM
    st = cgame([("a", "spearman", "A", "0508")], animal="horse")
    assert st.riders.horses["cart1-horse"].kind == "draught_horse"
    assert explain(st, DriveCart("a", "cart1", ("0505", "0504", "0503", "0502", "0501"))).legal


def test_leading_the_animal_on_foot():
    st = cgame([("a", "spearman", "A", "0406")])  # next to the ox's head
    apply(st, DriveCart("a", "cart1", ("0505", "0504")))
    a = st.characters["a"]
    assert st.riders.horses["cart1-ox"].hexes == (H("0504"), H("0505"))
    assert any(a.hex.distance(h) == 1 for h in st.riders.horses["cart1-ox"].hexes)  # he walked beside it
    assert st.phase.mp_spent["a"] == 8  # driving took his whole movement
    # nobody next to the team, nor on its front: no driver
    st = cgame([("a", "spearman", "A", "0301")])
    refused(st, DriveCart("a", "cart1", ("0505",)), "MC §4.5.1")


def test_turning_costs_and_the_x_cells():
    st = cgame([("a", "spearman", "A", "0508")], animal="horse")
    # 0606 is a central side hex of the horse in 0506-0507: +1 (§4.4.1)
    r = explain(st, DriveCart("a", "cart1", ("0606",)))
    assert r.legal and r.data["cost"] == 2 and cites(r, "§4.4.1")
    # a step after it would leave the horse's rear outside the X cells of the cart (§4.5.1)
    why = refused(st, DriveCart("a", "cart1", ("0606", "0706")), "MC §4.5.1")
    assert "X" in why
    # no swinging round with a cart behind it
    refused(st, DriveCart("a", "cart1", ("0607",)), "MC §4.4.1")


def test_men_pulling_two_and_three():
    # two men: 2 PM; the leading man in an X cell (0507), the other next to the cart
    st = cgame([("a", "spearman", "A", "0507"), ("b", "spearman", "A", "0608")], animal=None)
    assert explain(st, DriveCart("a", "cart1", ("0506", "0505"), ("b",))).data["cost"] == 2
    refused(st, DriveCart("a", "cart1", ("0506", "0505", "0504"), ("b",)), "MC §4.5.1")
    refused(st, DriveCart("a", "cart1", ("0506",)), "MC §4.5.1")  # one man does not pull a cart
    # three men: 3 PM
    st = cgame([("a", "spearman", "A", "0507"), ("b", "spearman", "A", "0608"), ("c", "spearman", "A", "0408")],
               animal=None)
    opts = [x for x in legal_actions(st) if isinstance(x, DriveCart)]
    assert DriveCart("a", "cart1", ("0506", "0505", "0504"), ("b", "c")) in opts
    apply(st, DriveCart("a", "cart1", ("0506", "0505", "0504"), ("b", "c")))
    cart = st.carts.carts["cart1"]
    assert st.characters["a"].hex == H("0504") and (cart.front, cart.rear) == (H("0505"), H("0506"))
    for cid in ("b", "c"):  # the others follow beside the cart
        assert any(st.characters[cid].hex.distance(h) == 1 for h in cart.hexes)
        assert st.characters[cid].hex not in cart.hexes


def test_the_leading_man_must_stand_in_an_x_cell_and_go_ahead():
    st = cgame([("a", "spearman", "A", "0608"), ("b", "spearman", "A", "0408")], animal=None)
    why = refused(st, DriveCart("a", "cart1", ("0607",), ("b",)), "MC §4.5.1")
    assert "X" in why
    st = cgame([("a", "spearman", "A", "0507"), ("b", "spearman", "A", "0608")], animal=None)
    refused(st, DriveCart("a", "cart1", ("0607",), ("b",)), "MC §4.5.1")  # 0507 → 0607: sideways
    assert explain(st, DriveCart("a", "cart1", ("0406",), ("b",))).legal  # one step aside is still ahead


def test_blocked_paths_are_refused_with_the_rule_and_the_state_unchanged():
    st = cgame([("a", "spearman", "A", "0508"), ("f", "spearman", "A", "0504")])
    why = refused(st, DriveCart("a", "cart1", ("0505", "0504")), "MC §4.5.1")
    assert "0504" in why
    # the cart cannot stand in water: the ox wades through shallows, the cart may not follow
    rows = [r for r in ROWS]
    rows[4] = ". . . . ~ . . . . ."  # row 05: 0505 is shallows
    st = cgame([("a", "spearman", "A", "0508")], rows=rows)
    assert explain(st, DriveCart("a", "cart1", ("0505", "0504"))).legal  # the ox's head passes
    why = refused(st, DriveCart("a", "cart1", ("0505", "0504", "0503")), "MC §4.5.1")
    assert "cannot stand" in why
    # another cart in the way
    st = cgame([("a", "spearman", "A", "0508")])
    carts.place(st, [CART | {"animal": "ox"}, {"front": "0504", "rear": "0404"}])
    st.riders.horses.pop("cart1-ox")  # place() renumbered: cart1/cart2 anew
    refused(st, DriveCart("a", "cart1", ("0505", "0504")), "MC §4.5.1")


def test_passengers_ride_with_the_cart_and_pay_three_to_move_inside():
    st = cgame([("a", "spearman", "A", "0406"), ("p", "crossbowman", "A", "0509"), ("q", "spearman", "A", "0610")])
    apply(st, DriveCart("a", "cart1", ("0505", "0504")))
    cart = st.carts.carts["cart1"]
    p = st.characters["p"]
    assert p.hex == cart.rear == H("0507")
    r = explain(st, Move("p", (cart.front.label,)))  # inside a moving cart: 3 PM (§4.5.4.1)
    assert r.legal and r.data["cost"] == 3
    # nobody gets on or off a moving cart (§4.5.4.1)
    refused(st, Move("p", ("0508",)), "MC §4.5.4.1")
    st.characters["q"].hex = H("0607")
    refused(st, Move("q", ("0507",)), "MC §4.5.4.1")
    # a moving cart has no influence on combat ("0", §4.5.2)
    assert load_ruleset().terrain[st.gmap.terrain(cart.rear)].combat == "0"
    # the cart moves once a phase
    refused(st, DriveCart("a", "cart1", ("0503",)), "MC §4.5.4")


def test_a_cart_stops_moving_when_its_sides_movement_comes_round_again():
    st = cgame([("a", "spearman", "A", "0508")])
    apply(st, DriveCart("a", "cart1", ("0505",)))
    assert st.carts.carts["cart1"].moving
    st.active = "B"
    carts.on_movement_step(st)
    assert st.carts.carts["cart1"].moving  # still moving in the enemy's phase
    st.active = "A"
    carts.on_movement_step(st)
    assert not st.carts.carts["cart1"].moving and st.gmap.terrain(st.carts.carts["cart1"].front) == "cart"


def _moving_modifier(r) -> bool:
    return any("§4.5.4.2" in s.ref for s in r.steps)


def test_fire_from_a_moving_cart_adds_one_and_from_a_stationary_cart_nothing():
    st = cgame([("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0909")], step="offensive_fire")
    r = explain(st, Fire("x", "t"))
    assert r.legal and not _moving_modifier(r)  # stationary: no modifier (§4.5.3.2, D13)
    st.carts.carts["cart1"].moving, st.carts.carts["cart1"].side = True, "A"
    carts.redraw(st)
    r2 = explain(st, Fire("x", "t"))
    assert r2.legal and _moving_modifier(r2)
    assert any("+1" in s.text for s in r2.steps if "§4.5.4.2" in s.ref)
    st.dice = ScriptedDice([5, 5])
    ev = apply(st, Fire("x", "t"))
    assert ev[0]["ruling"]["modified_die"] == 6 or "6" in str(ev[0]["ruling"])


def test_harnessing_and_unharnessing_take_the_whole_phase():
    st = cgame([("a", "spearman", "A", "0407"), ("b", "spearman", "A", "0101")], animal=None)
    st.riders.horses["ox1"] = Horse("ox1", H("0506"), 0, None, kind="ox")
    assert Harness("a", "cart1", "ox1") in legal_actions(st)
    refused(st, Harness("b", "cart1", "ox1"), "MC §4.5.1")  # not next to the ox
    apply(st, Harness("a", "cart1", "ox1"))
    assert st.carts.carts["cart1"].animal == "ox1" and st.riders.horses["ox1"].harnessed_to == "cart1"
    refused(st, Move("a", ("0406",)), "§4.5.1")
    assert not [x for x in legal_actions(st) if getattr(x, "char", None) == "a"]
    refused(st, Lead("b", "ox1"), "MC §4.5.1")  # a harnessed ox is driven, not led
    # unharnessing, next phase: the ox stays, free
    st.phase.clearing.clear(), st.carts.harnessing.clear()
    assert Unharness("a", "cart1") in legal_actions(st)
    apply(st, Unharness("a", "cart1"))
    assert st.carts.carts["cart1"].animal is None and st.riders.horses["ox1"].harnessed_to is None
    assert "a" in st.phase.clearing
    # an animal standing anywhere else cannot be harnessed
    st.phase.clearing.clear(), st.carts.harnessing.clear()
    st.riders.horses["ox1"].hex, st.riders.horses["ox1"].facing = H("0305"), 0
    st.characters["a"].hex = H("0304")
    refused(st, Harness("a", "cart1", "ox1"), "MC §4.5.1")


def test_a_dead_animal_must_be_unharnessed_before_the_cart_moves():
    from oriflamme.rulesets.magna_carta.engine.lone_horse import kill
    st = cgame([("a", "spearman", "A", "0508")])
    kill(st, st.riders.horses["cart1-ox"], "MC §6.8")
    assert carts.dead_in_harness(st, st.carts.carts["cart1"])
    refused(st, DriveCart("a", "cart1", ("0505",)), "MC §4.5.1")
    apply(st, Unharness("a", "cart1"))
    assert st.carts.carts["cart1"].animal is None and "a" in st.phase.clearing
    assert any(e["type"] == "unharness" for e in st.log)


def test_the_draught_animal_is_attacked_with_defence_one():
    st = cgame([("e", "spearman", "A", "0405"), ("a", "spearman", "B", "0101")], step="melee")
    r = explain(st, AttackHorse(("e",), "cart1-ox"))
    assert r.legal and "defence 1" in r.steps[0].text and cites(r, "§6.8")
    assert any(isinstance(x, AttackHorse) for x in legal_actions(st))
    assert r.data["horse_killed_probability"] > 0


def test_a_draught_animal_forced_to_retreat_backs_with_its_cart():
    """§6.8 "Quand un cheval de trait attelé à un chariot est obligé de reculer, le chariot recule
    aussi": a melee C (the rider's retreat of one hex) on the ox backs the whole team one hex
    along the cart's axis, the passenger riding along; with the hex behind the cart taken, the
    team stays."""
    st = cgame([("e", "spearman", "A", "0405"), ("p", "spearman", "B", "0508")], step="melee", dice=[8])
    apply(st, AttackHorse(("e",), "cart1-ox"))
    ox, cart = st.riders.horses["cart1-ox"], st.carts.carts["cart1"]
    assert [e for e in st.log if e["type"] == "melee_horse"][-1]["result"] == "C"
    assert (ox.hexes, cart.front, cart.rear) == ((H("0507"), H("0508")), H("0509"), H("0510"))
    assert st.characters["p"].hex == H("0509")  # aboard, he went with it
    ev = [e for e in st.log if e["type"] == "cart_retreat"][-1]
    assert "MC §6.8" in ev["ref"] and "backs 1 hex(es)" in ev["text"]
    assert st.gmap.terrain(H("0510")) == "cart" and st.gmap.terrain(H("0508")) != "cart"
    # the hex behind the cart taken: the team stays
    st = cgame([("e", "spearman", "A", "0405"), ("q", "spearman", "B", "0510")], step="melee", dice=[8])
    apply(st, AttackHorse(("e",), "cart1-ox"))
    ox, cart = st.riders.horses["cart1-ox"], st.carts.carts["cart1"]
    assert (ox.hex, cart.front, cart.rear) == (H("0506"), H("0508"), H("0509"))
    assert "the team stays" in [e for e in st.log if e["type"] == "cart_retreat"][-1]["text"]
    # the map ends behind it: the team stays
    st = cgame([("e", "spearman", "A", H("0507").neighbour(5).label), ("q", "spearman", "B", "0101")],
               cart={"front": "0509", "rear": "0510"}, step="melee", dice=[8])
    apply(st, AttackHorse(("e",), "cart1-ox"))
    ev = [e for e in st.log if e["type"] == "cart_retreat"][-1]
    assert "0511 is off the map; the team stays" in ev["text"] and st.carts.carts["cart1"].rear == H("0510")


SCENARIO = {"id": "t", "name": "t", "turns": 3,
            "map": {"boards": ["open-country"], "carts": [{"front": "0208", "rear": "0209", "animal": "horse"}]},
            "side": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
            "character": [{"id": "a", "name": "Ada", "type": "spearman", "side": "A", "hex": "0208"},
                          {"id": "b", "name": "Bert", "type": "spearman", "side": "B", "hex": "1510"}]}


def test_scenario_animal_json_round_trip_and_replay():
    scenario, gmap = validate_scenario(validate_scenario(SCENARIO)[0])  # as a record keeps it
    g = Game(scenario, gmap, 7)
    assert g.state.carts.carts["cart1"].animal == "cart1-horse"
    assert g.state.step == "movement"  # nobody fires: the first step is passed
    drive = next(a for a in legal_actions(g.state) if isinstance(a, DriveCart) and len(a.path) == 3)
    g.apply(drive)
    st = g.state
    d = st.to_json()
    back = GameState.from_json(d, gmap)  # the scenario's map: the carts are drawn where they stand now
    assert back.digest() == st.digest()
    cart = back.carts.carts["cart1"]
    assert back.gmap.terrain(cart.front) == "moving_cart" and back.gmap.terrain(H("0209")) != "cart"
    g.apply(EndStep())
    rec = g.record(reveal=True)
    again = replay(rec, lambda x: validate_scenario(x, "scenario"))
    assert again.state.digest() == g.state.digest()
    assert Action.from_json(drive.to_json()) == drive


def test_scenario_animal_errors():
    with pytest.raises(ScenarioError, match=r"carts\[0\]\.animal"):
        validate_scenario(SCENARIO | {"map": {"boards": ["open-country"],
                                              "carts": [{"front": "0208", "rear": "0209", "animal": "camel"}]}})
    with pytest.raises(ScenarioError, match="off the map"):
        validate_scenario(SCENARIO | {"map": {"boards": ["open-country"],
                                              "carts": [{"front": "0202", "rear": "0203", "animal": "ox"}]}})
    chars = [dict(SCENARIO["character"][0], hex="0206"), SCENARIO["character"][1]]
    with pytest.raises(ScenarioError, match="already holds the horse of carts"):
        validate_scenario(SCENARIO | {"character": chars})
    rs = load_ruleset()
    gmap = build_map({"boards": ["open-country"]}, ruleset=rs)
    with pytest.raises(MapError, match="not a draught animal"):
        with_carts(gmap, [{"front": "0208", "rear": "0209", "animal": "mule"}], rs)
    with pytest.raises(MapError, match="already holds cart"):
        with_carts(gmap, [{"front": "0208", "rear": "0209", "animal": "ox"}, {"front": "0206", "rear": "0106"}], rs)


def test_a_higher_shooter_sees_over_a_cart():
    elev = ["0 0 0 0 0 0 0 0 0 0"] * 8 + ["0 0 0 0 1 0 0 0 0 0", "0 0 0 0 0 0 0 0 0 0"]
    chars = [("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0503")]
    cart = {"front": "0506", "rear": "0507"}
    low = cgame(chars, cart=cart, animal=None, step="offensive_fire")
    assert not explain(low, Fire("x", "t")).legal  # same level: the cart blocks (§4.5.1)
    high = cgame(chars, cart=cart, animal=None, step="offensive_fire", elevation=elev)
    r = explain(high, Fire("x", "t"))
    assert r.legal and any("seen over" in s.text for s in r.steps)


# --- random play with a cart --------------------------------------------------------------------
def _invariants(st: GameState) -> None:
    drawn = {h for h in st.gmap.hexes if st.gmap.terrain(h) in ("cart", "moving_cart")}
    assert drawn == {h for x in st.carts.carts.values() for h in x.hexes}
    for cart in st.carts.carts.values():
        assert (st.gmap.terrain(cart.front) == "moving_cart") == cart.moving
        x = carts.animal_of(st, cart)
        if x is not None:  # cart and animal never part
            assert x.harnessed_to == cart.id and x.alive
            assert x.hexes[1] in carts.x_cells(cart.front, cart.facing)
            assert not set(x.hexes) & set(cart.hexes)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10_000), animal=st_.sampled_from(["ox", "horse", None]))
def test_random_play_keeps_carts_whole(seed, animal):
    chars = [("a", "spearman", "A", "0508"), ("b", "archer", "A", "0407"), ("c", "spearman", "A", "0608"),
             ("d", "spearman", "B", "0303"), ("e", "crossbowman", "B", "0703"), ("f", "spearman", "B", "0710")]
    st = cgame(chars, animal=animal, turns=3)
    rng = random.Random(seed)
    for _ in range(60):
        if st.over:
            break
        acts = legal_actions(st)
        drives = [a for a in acts if isinstance(a, (DriveCart, Harness, Unharness))]
        a = rng.choice(drives) if drives and rng.random() < 0.5 else rng.choice(acts)
        aboard = {c.id for x in st.carts.carts.values() for c in carts.aboard(st, x)}
        apply(st, a)
        if isinstance(a, DriveCart):  # a cart never runs over anybody: only those aboard ride it
            assert {c.id for c in carts.aboard(st, st.carts.carts[a.cart])} <= aboard
        _invariants(st)


# --- the texts of this topic, for the French coverage corpus of tests/test_i18n.py -------------
def corpus_texts() -> list[str]:
    """Every text the carts make the engine write (events, rulings, refusals): random play of
    the bundled scenarios seldom drives a cart."""
    out: list[str] = []

    def ruling(r):
        out.extend(r.explanation)
        if r.reason:
            out.append(r.reason)

    def refusal(st, a):
        try:
            apply(fork(st), a)
        except IllegalAction as exc:
            out.append(exc.reason)
            out.append(str(exc))
        ruling(explain(st, a))

    def events(st):
        for e in st.log:
            out.append(e["text"])
            if "ruling" in e:
                out.extend(e["ruling"].get("explanation", []))

    for animal in ("ox", "horse"):
        st = cgame([("a", "spearman", "A", "0508"), ("p", "crossbowman", "A", "0509")], animal=animal)
        for path in (("0505", "0504", "0503", "0502", "0501", "0401", "0301", "0201", "0101"), ("0606",),
                     ("0606", "0706"), ("0607",), ("0301",), ("0505", "0504", "0503")):
            refusal(st, DriveCart("a", "cart1", path))
        refusal(st, DriveCart("a", "cart1", ("0505",), ("p",)))
        refusal(st, DriveCart("a", "nope", ("0505",)))
        refusal(st, DriveCart("p", "cart1", ("0505",)))
        apply(st, DriveCart("a", "cart1", ("0505",)))
        refusal(st, DriveCart("a", "cart1", ("0504",)))
        ruling(explain(st, Move("p", ("0507",))))
        refusal(st, Move("p", ("0508",)))
        refusal(st, Harness("p", "cart1", "x"))
        refusal(st, Unharness("p", "cart1"))
        events(st)
    st = cgame([("a", "spearman", "A", "0406")])
    apply(st, DriveCart("a", "cart1", ("0505", "0504")))
    events(st)
    # men pulling
    st = cgame([("a", "spearman", "A", "0507"), ("b", "spearman", "A", "0608"), ("c", "spearman", "A", "0408"),
                ("k", "knight", "A", "0804", {"facing": "N"})], animal=None)
    for a in (DriveCart("a", "cart1", ("0506",)), DriveCart("a", "cart1", ("0607",), ("b",)),
              DriveCart("b", "cart1", ("0607",), ("a",)), DriveCart("a", "cart1", ("0506",), ("c", "b")),
              DriveCart("a", "cart1", ("0506",), ("k",)), DriveCart("a", "cart1", ("0506",), ("z",)),
              DriveCart("a", "cart1", ("0506",), ("y",)), DriveCart("a", "cart1", ("0506",), ("q",)),
              DriveCart("k", "cart1", ("0506",)), DriveCart("a", "cart1", ("0506", "0505", "0504"), ("b",)),
              DriveCart("a", "cart1", ()), DriveCart("a", "cart1", ("xx",))):
        refusal(st, a)
    refusal(st, DriveCart("a", "cart1", (), ("b",)))
    apply(st, DriveCart("a", "cart1", ("0506", "0505", "0504"), ("b", "c")))
    events(st)
    st = cgame([("a", "spearman", "A", "0507"), ("b", "spearman", "A", "0608")], animal=None, hexsides="0508 N wall")
    refusal(st, DriveCart("a", "cart1", ("0506",), ("b",)))
    st.phase.mp_spent["b"] = 1
    refusal(st, DriveCart("a", "cart1", ("0406",), ("b",)))
    # blocked: a friend, a horse, a cart, water, the map's edge
    rows = list(ROWS)
    rows[4] = ". . . . ~ . . . . ."
    st = cgame([("a", "spearman", "A", "0508"), ("f", "spearman", "A", "0504")], rows=rows)
    st.riders.horses["h1"] = Horse("h1", H("0604"), 0, None)
    refusal(st, DriveCart("a", "cart1", ("0505", "0504")))
    refusal(st, DriveCart("a", "cart1", ("0505", "0404", "0403")))
    refusal(st, DriveCart("a", "cart1", ("0505", "0604")))
    st = cgame([("a", "spearman", "A", "0508")], cart={"front": "0502", "rear": "0503"})
    refusal(st, DriveCart("a", "cart1", ("0501", "0500")))
    st = cgame([("a", "spearman", "A", "0508")])
    carts.place(st, [{"front": "0504", "rear": "0404"}])
    refusal(st, DriveCart("a", "cart1", ("0505", "0504")))
    # harnessing
    st = cgame([("a", "spearman", "A", "0407"), ("b", "spearman", "A", "0101"), ("e", "spearman", "B", "0605")],
               animal=None)
    st.riders.horses["ox1"] = Horse("ox1", H("0506"), 0, None, kind="ox")
    st.riders.horses["ox2"] = Horse("ox2", H("0303"), 0, "B", kind="ox")
    st.riders.horses["h2"] = Horse("h2", H("0808"), 0, None)
    for a in (Harness("b", "cart1", "ox1"), Harness("a", "cart1", "h2"), Harness("a", "cart1", "ox2"),
              Harness("a", "nope", "ox1"), Harness("q", "cart1", "ox1"), Unharness("a", "cart1")):
        refusal(st, a)
    ruling(explain(st, Harness("a", "cart1", "ox1")))
    apply(st, Harness("a", "cart1", "ox1"))
    for a in (Move("a", ("0406",)), Lead("b", "ox1"), Harness("b", "cart1", "ox1"), Unharness("b", "cart1"),
              DriveCart("a", "cart1", ("0505",))):
        refusal(st, a)
    st.phase.clearing.clear(), st.carts.harnessing.clear()
    st.riders.horses["ox1"].led_by = "b"
    st.riders.horses["ox1"].harnessed_to, st.carts.carts["cart1"].animal = None, None
    refusal(st, Harness("a", "cart1", "ox1"))
    st.riders.horses["ox1"].led_by, st.riders.horses["ox1"].side = None, "B"
    refusal(st, Harness("a", "cart1", "ox1"))
    refusal(st, DriveCart("a", "cart1", ("0506",)))
    st.riders.horses["ox1"].side = None
    apply(st, Harness("a", "cart1", "ox1"))
    st.riders.horses["ox1"].side = "B"
    st.phase.clearing.clear(), st.carts.harnessing.clear()
    refusal(st, DriveCart("a", "cart1", ("0505",)))
    ruling(explain(st, Unharness("a", "cart1")))
    apply(st, Unharness("a", "cart1"))
    st.riders.horses["ox1"].harnessed_to = "cart1"
    st.carts.carts["cart1"].animal = "ox1"
    refusal(st, Harness("b", "cart1", "ox1"))
    st.phase.clearing.clear(), st.carts.harnessing.clear()
    st.riders.horses["ox1"].harnessed_to, st.carts.carts["cart1"].animal = "cart2", None
    refusal(st, Harness("a", "cart1", "ox1"))
    st.riders.horses["ox1"].harnessed_to, st.riders.horses["ox1"].side, st.riders.horses["ox1"].led_by = None, None, None
    st.riders.horses["ox1"].hex, st.characters["a"].hex = H("0305"), H("0304")
    refusal(st, Harness("a", "cart1", "ox1"))
    events(st)
    # a dead animal
    from oriflamme.rulesets.magna_carta.engine.lone_horse import kill
    st = cgame([("a", "spearman", "A", "0508")])
    kill(st, st.riders.horses["cart1-ox"], "MC §6.8")
    refusal(st, DriveCart("a", "cart1", ("0505",)))
    ruling(explain(st, Unharness("a", "cart1")))
    apply(st, Unharness("a", "cart1"))
    events(st)
    # the other sides' steps
    st = cgame([("a", "spearman", "A", "0508")], step="melee")
    refusal(st, DriveCart("a", "cart1", ("0505",)))
    refusal(st, DriveCart("z", "cart1", ("0505",)))
    st = cgame([("a", "spearman", "A", "0508")])
    st.characters["a"].status = "stunned"
    refusal(st, DriveCart("a", "cart1", ("0505",)))
    st = cgame([("a", "spearman", "A", "0508")])
    st.phase.fired.add("a")
    refusal(st, DriveCart("a", "cart1", ("0505",)))
    st = cgame([("k", "knight", "A", "0604", {"facing": "N"})])
    refusal(st, DriveCart("k", "cart1", ("0505",)))
    # fire from a moving cart, a higher shooter seeing over a cart
    st = cgame([("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0909")], step="offensive_fire")
    st.carts.carts["cart1"].moving = True
    carts.redraw(st)
    ruling(explain(st, Fire("x", "t")))
    elev = ["0 0 0 0 0 0 0 0 0 0"] * 8 + ["0 0 0 0 1 0 0 0 0 0", "0 0 0 0 0 0 0 0 0 0"]
    st = cgame([("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0503")], cart={"front": "0506", "rear": "0507"},
               animal=None, step="offensive_fire", elevation=elev)
    ruling(explain(st, Fire("x", "t")))
    st = cgame([("x", "crossbowman", "A", "0509"), ("t", "spearman", "B", "0503")], cart={"front": "0506", "rear": "0507"},
               animal=None, step="offensive_fire")
    ruling(explain(st, Fire("x", "t")))
    st.carts.carts["cart1"].moving = True
    carts.redraw(st)
    ruling(explain(st, Fire("x", "t")))
    # the draught animal attacked and shot at
    st = cgame([("e", "spearman", "A", "0405"), ("a", "spearman", "B", "0101")], step="melee", dice=[9])
    ruling(explain(st, AttackHorse(("e",), "cart1-ox")))
    apply(st, AttackHorse(("e",), "cart1-ox"))
    events(st)
    st = cgame([("e", "spearman", "A", "0405"), ("a", "spearman", "B", "0101")], animal="horse", step="melee",
               dice=[9])
    ruling(explain(st, AttackHorse(("e",), "cart1-horse")))
    apply(st, AttackHorse(("e",), "cart1-horse"))
    events(st)
    # a retreat result backs the team with its cart, or cannot (§6.8)
    for blocker in ("0101", "0510"):
        st = cgame([("e", "spearman", "A", "0405"), ("q", "spearman", "B", blocker)], step="melee", dice=[8])
        apply(st, AttackHorse(("e",), "cart1-ox"))
        events(st)
    # ... or the map ends behind it
    st = cgame([("e", "spearman", "A", H("0507").neighbour(5).label), ("q", "spearman", "B", "0101")],
               cart={"front": "0509", "rear": "0510"}, step="melee", dice=[8])
    apply(st, AttackHorse(("e",), "cart1-ox"))
    events(st)
    return [t for t in out if t]


def test_corpus_texts_translate():
    from oriflamme.rulesets.magna_carta.i18n import missing
    miss = sorted({t for t in corpus_texts() if missing(t, "fr")})
    assert not miss, "\n".join(miss)


def test_terminal_and_browser_list_the_cart_actions():
    from types import SimpleNamespace

    from oriflamme.rulesets.magna_carta.terminal_text import describe
    from oriflamme.rulesets.magna_carta.web_options import options
    st = cgame([("a", "spearman", "A", "0508")])
    extras = options(st)["extras"]
    drive = next(e for e in extras if e["action"]["type"] == "drive_cart")
    assert drive["ruling"]["cost"] >= 1 and drive["ruling"]["legal"]
    g = SimpleNamespace(state=st)
    assert describe(g.state, DriveCart("a", "cart1", ("0505", "0504"))).startswith("drive: A")
    assert "unharnesses" in describe(g.state, Unharness("a", "cart1"))
    st.riders.horses["ox9"] = Horse("ox9", H("0303"), 0, None, kind="ox")
    assert "harnesses the ox in 0303-0304" in describe(g.state, Harness("a", "cart1", "ox9"))
    assert any(e["action"]["type"] == "unharness" for e in options(st)["extras"])


def test_a_harnessed_animal_is_not_grabbed_in_passing():
    """A rider passing by a harnessed ox does not take it by the bridle (§4.5.1: it is driven
    with its cart); found by random play, where a grabbed ox left its cart behind."""
    from oriflamme.rulesets.magna_carta.engine import bridle
    st = cgame([("k", "knight", "A", "0304", {"facing": "S"})])
    prob = bridle.grab_problem(st, st.characters["k"], st.riders.horses["cart1-ox"])
    assert prob is not None and "harnessed to a cart" in prob[0] and prob[1] == "MC §4.5.1"
