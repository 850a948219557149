"""Buildings on the table (GF Bâtiments domestiques, seed 003 l.782-798; OR-GF80-84, OR-GF88): the order
"casser sa formation" within 5 cm, going in and out, the occupants hidden from the enemy until they
fire, leave or are found, dense cover inside, fire through a wall one rank a floor, melee against a
building. Each test quotes the seed line it proves."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from guerres_fleuries.battle_combat_kit import Always, troop
from guerres_fleuries.battle_combat_kit import battle as _battle
from guerres_fleuries.seed import line

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import (actions, buildings_play, fire_play, melee_play, moves,
                                                         orders, reactions, turn, views)
from oriflamme.rulesets.guerres_fleuries.battle.fighters import cover_of, shape

# a stone house of two floors, 10 × 8 cm (80 cm²: 12 figures a floor on 2.5 cm bases), and a wooden hut
HOUSE = {"id": "house", "kind": "hameau", "name": "Stone house", "name_fr": "Maison de pierre",
         "material": "batiment_en_pierre", "floors": 2, "points": [[80, 50], [90, 50], [90, 58], [80, 58]]}
HUT = {"id": "hut", "kind": "hameau", "name": "Hut", "points": [[120, 50], [126, 50], [126, 56], [120, 56]]}


def battle(*units, phase=8, elements=None):
    """The kit's battle with a scenario the view reads (id, turns, sides)."""
    st = _battle(*units, phase=phase, elements=elements)
    st.scenario = SimpleNamespace(battlefield=st.scenario.battlefield, id="test", turns=12, sides=[])
    return st


def near_house(**kw):
    """Ten figures, their front edge 1 cm below the house's south wall, facing it."""
    base = dict(figures=10, figures_max=10, frontage=5, ranks=2, x=85, y=61, heading=0.0, missile="arc",
                weapons=["Arc"])
    base.update(kw)
    return troop("a", "A", **base)


def inside(st, u, bid="house"):
    u.order, u.target = "casser", bid
    turn.phase6_orders_in_place(st)
    assert u.inside == bid
    return u


def test_the_order_is_offered_within_5_cm_of_a_building_and_refused_beyond():
    """l.788: "Une unité qui entre dans un bâtiment doit être à 5cm de celui-ci en début de tour et avoir
    pour ordre de « casser sa formation »" (l.670: "à 5cm ou au contact")."""
    assert "doit être à 5cm de celui-ci en début de tour" in line(788) and "casser sa formation" in line(788)
    near, far = near_house(), troop("far", "A", x=40, y=70, figures=10, frontage=5, ranks=2)
    st = battle(near, far, troop("e", "B", x=85, y=10), phase=3, elements=[HOUSE, HUT])
    opts = {o["id"]: o for o in orders.options(st, near)}
    assert opts["casser"]["targets"] == ["house"] and opts["casser"]["needs_target"]
    assert "casser" not in {o["id"] for o in orders.options(st, far)}
    orders.check(st, "A", {"a": ("casser", "house")})
    with pytest.raises(IllegalAction) as exc:
        orders.check(st, "A", {"a": ("casser", "hut")})
    assert "l.788" in exc.value.ref and "cm away (at most 5 cm)" in str(exc.value)
    with pytest.raises(IllegalAction) as exc:
        orders.check(st, "A", {"far": ("casser", "house")})
    assert "l.788" in exc.value.ref


def test_a_creature_or_a_monster_cannot_go_in_and_a_figure_must_fit():
    """l.798: "Une créature ou un monstre peut se cacher derrière un édifice mais ne peut pas y rentrer";
    OR-GF80: the house holds 12 figures a floor × 2 floors; a larger unit goes in as far as it holds
    (l.673, OR-GF142: tests/guerres_fleuries/test_battle_buildings_split.py); a building too small for one
    figure takes no one in."""
    assert "ne peut pas y rentrer" in line(798)
    beast = troop("m", "A", kind="monster", race="araignee", figures=1, figures_max=1, frontage=1, ranks=1,
                  x=85, y=61.5)
    big = near_house(figures=30, figures_max=30, frontage=10, ranks=3, x=85, y=62)
    st = battle(beast, troop("e", "B", x=85, y=10), phase=3, elements=[HOUSE])
    err = buildings_play.refusal(st, beast, "house")
    assert err is not None and "l.798" in err.ref
    st2 = battle(big, troop("e", "B", x=85, y=10), phase=3, elements=[HOUSE])
    assert buildings_play.capacity(st2.battlefield.element("house")) == 24
    orders.check(st2, "A", {"a": ("casser", "house")})  # 24 go in, 6 stay outside (OR-GF142)
    shed = {"id": "shed", "kind": "hameau", "name": "Shed", "points": [[84, 56], [86, 56], [86, 58], [84, 58]]}
    st3 = battle(near_house(figures=30, figures_max=30, frontage=10, ranks=3, x=85, y=62),
                 troop("e", "B", x=85, y=10), phase=3, elements=[shed])
    assert buildings_play.capacity(st3.battlefield.element("shed")) == 0
    with pytest.raises(IllegalAction) as exc:
        orders.check(st3, "A", {"a": ("casser", "shed")})
    assert "holds 0 figures (0 a floor × 1), not 30" in str(exc.value)


def test_breaking_formation_takes_the_unit_in_disordered_and_hidden():
    """l.788: "Elle entre dans le bâtiment et se reforme à l'intérieur"; l.361: "Cette manœuvre nécessite la
    phase entière et l'unité doit se reformer ensuite"; l.784: hidden until it fires, leaves or is found."""
    assert "se reforme à l'intérieur" in line(788) and "doit se reformer ensuite" in line(361)
    a = near_house()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    inside(st, a)
    assert shape(a).equals(st.battlefield.element("house").geometry) and a.footprint().area == pytest.approx(80)
    assert a.disorder and a.hidden and a.moved
    entered = [e for e in st.log if e["type"] == "enter_building"]
    assert entered and "private" not in entered[0]  # the enemy sees it go in (its order was revealed)
    # inside it may only wait, reform, fire or come out (OR-GF82); it never charges (l.792)
    assert {o["id"] for o in orders.options(st, a)} == {"reformer", "tirer", "casser", "attendre"}
    with pytest.raises(IllegalAction) as exc:
        orders.check(st, "A", {"a": ("avancer", None)})
    assert "l.792" in exc.value.ref and "initiative" in str(exc.value)
    assert "ne peuvent pas avoir l'initiative d'un combat" in line(792)
    assert reactions.choices(st, a) == ["stand", "fire"]


def test_the_occupants_are_hidden_from_the_enemy_view_and_events():
    """l.784: "Les unités dissimulées dans un bâtiment le sont jusqu'à ce qu'elles tirent, en sortent ou
    soient détectées par un ennemi qui est contre ou entre dans le bâtiment." (OR-GF83)"""
    a = near_house()
    e = troop("e", "B", x=85, y=10, heading=180.0)
    st = battle(a, e, phase=6, elements=[HOUSE])
    inside(st, a)
    ids = lambda side: {u["id"] for u in views.view(st, side, [])["units"]}  # noqa: E731
    assert ids("A") == {"a", "e"} and ids("B") == {"e"} and ids(None) == {"e"}
    mine = next(u for u in views.view(st, "A", [])["units"] if u["id"] == "a")
    assert mine["hidden"] and mine["inside"] == "house" and len(mine["corners"]) == 4
    ev = actions.emit(st, "command_test", "a: test", "a : test", side="A", unit="a")
    assert ev["private"] == "A" and not views.visible(ev, "B")
    # not a charge target nor a fire target while hidden
    assert "a" not in [t for t, _ in orders.charge_targets(st, e)]
    check = fire_play.eligibility(st, troop("s", "B", missile="arc", x=85, y=30, heading=180.0), a)
    assert not check["eligible"] and "GF seed 003 l.784" in check["citations"]
    # an enemy against the building (its front edge 0.2 cm from the east wall) finds it
    e.x, e.y, e.heading = 92.2, 54, 270.0
    buildings_play.detect(st)
    assert not a.hidden and ids("B") == {"a", "e"}
    found = [x for x in st.log if x["type"] == "revealed"]
    assert found and "private" not in found[0] and "stands against the building" in found[0]["text"]


def test_firing_gives_the_occupants_away():
    """l.784: hidden "jusqu'à ce qu'elles tirent"."""
    a = near_house(order="tirer")
    t = troop("t", "B", x=85, y=30, heading=180.0, figures=20)
    st = battle(a, t, phase=6, elements=[HOUSE])
    inside(st, a)
    a.order = "tirer"
    fire_play.resolve(st, Always(1))
    assert not a.hidden and any(x["type"] == "revealed" and "it fires" in x["text"] for x in st.log)


def test_fire_from_a_building_one_rank_per_floor_through_the_wall_facing_the_target():
    """l.790: "Les unités tirant depuis un bâtiment bénéficient d'un bonus de rang par étage. Seuls les
    figurines se trouvant au contact d'un mur (d'un côté) peuvent tirer à travers" (OR-GF84): the north
    wall is 10 cm, 4 figures of 2.5 cm, × 2 floors = 8 of the 10 fire; the target behind the unit's back
    is in reach (any wall)."""
    assert "bonus de rang par étage" in line(790) and "au contact d'un mur (d'un côté)" in line(790)
    a = near_house()
    t = troop("t", "B", x=85, y=30, heading=180.0, figures=20)
    st = battle(a, t, phase=6, elements=[HOUSE])
    inside(st, a)
    a.heading = 180.0  # facing away from the target: a building has no fire arc
    p = fire_play.preview(st, "a", "t")
    assert p["eligible"] and p["firing_figures"] == 8 and p["situation"]["firing_figures"] == 8
    assert any("OR-GF84" in s for s in p["explanation"])
    # the east wall (8 cm: 3 figures) faces a target to the east
    t2 = troop("t2", "B", x=120, y=54, heading=270.0, figures=20)
    st.units["t2"] = t2
    n, _ = fire_play.firing_figures(st, a, t2)
    assert n == 3 * 2


def test_inside_is_dense_cover_and_the_attacker_has_none():
    """l.792: "Les unités se trouvant à l'intérieur d'un bâtiment bénéficient d'un couvert dense. […] Les
    unités attaquant ne bénéficient pas de couvert." A building has no flank (OR-GF82)."""
    assert "couvert dense" in line(792) and "Les unités attaquant ne bénéficient pas de couvert" in line(792)
    wood = {"id": "w", "kind": "bois", "name": "wood", "points": [[91, 40], [110, 40], [110, 70], [91, 70]]}
    a = near_house(missile=None, weapons=[], melee_weapon="deux_mains")
    # the attacker stands in the wood, against the house's east wall, in the occupants' (former) flank
    b = troop("b", "B", x=93.5, y=54, heading=270.0, figures=8, frontage=4, ranks=2, melee_weapon="deux_mains")
    st = battle(a, b, phase=6, elements=[HOUSE, wood])
    inside(st, a)
    assert cover_of(st, a, b)[0] == "dense"
    sit_b, _ = melee_play.situation(st, b, a)
    assert {"modifier": "dense_cover"} in sit_b.get("modifiers", []) and "flank" not in str(sit_b)
    assert cover_of(st, b, a)[0] == "medium"  # in the wood…
    sit_a, why = melee_play.situation(st, a, b)
    assert "cover" not in str(sit_a.get("modifiers", [])) and any("no cover" in w for w in why)  # …but not here
    # fire at the revealed occupants: dense cover too
    s = troop("s", "B", missile="arc", x=85, y=30, heading=180.0)
    a.hidden = False
    sit, _ = fire_play.situation(st, s, a, 10)
    assert {"modifier": "dense_cover"} in sit["modifiers"]


def test_a_recoil_takes_the_occupants_out_disordered():
    """l.788: "Il y a trois moyens de sortir d'un bâtiment : […] lors d'un mouvement de recul (l'unité est
    considérée en désordre)"."""
    assert "lors d'un mouvement de recul (l'unité est considérée en désordre)" in line(788)
    a = near_house()
    b = troop("b", "B", x=85, y=47.9, heading=180.0, figures=8, frontage=4, ranks=2)  # against the north wall
    st = battle(a, b, phase=6, elements=[HOUSE])
    inside(st, a)
    a.set_disorder(False)
    ev = melee_play.recoil(st, a, b, 2)
    assert a.inside is None and a.disorder and not a.hidden
    assert not a.footprint().intersects(st.battlefield.element("house").geometry)
    assert a.y > 58 and "recoils out of" in ev["explanation"][0]


def test_coming_out_with_the_order():
    """l.788: "sortir volontairement en ayant un ordre « casser sa formation » et se reformer à l'extérieur"."""
    a = near_house()
    st = battle(a, troop("e", "B", x=85, y=10), phase=6, elements=[HOUSE])
    inside(st, a)
    a.moved, a.heading = False, 90.0
    a.order, a.target = "casser", "out"
    turn.phase6_orders_in_place(st)
    assert a.inside is None and a.disorder and not a.hidden and a.x > 90
    assert not a.footprint().intersects(st.battlefield.element("house").geometry)
    assert any(e["type"] == "leave_building" for e in st.log)


def test_a_move_does_not_end_in_a_building():
    """l.788 (OR-GF88): a unit goes in only by breaking its formation."""
    a = troop("a", "A", x=85, y=70, figures=10, frontage=5, ranks=2)
    st = battle(a, troop("e", "B", x=30, y=10), phase=6, elements=[HOUSE])
    moves.check_destination(st, a, 85, 62, 0.0, budget=20, direction="forward")  # to the wall: fine
    with pytest.raises(IllegalAction) as exc:
        moves.check_destination(st, a, 85, 55, 0.0, budget=40, direction="forward")
    assert "l.788" in exc.value.ref and "OR-GF88" in exc.value.ref


def test_the_buildings_in_the_view_and_the_bundled_hamlet():
    """The view lists each building's material, floors, capacity and defence dice (l.808-809)."""
    st = battle(near_house(), troop("e", "B", x=85, y=10), elements=[HOUSE, HUT])
    got = {b["id"]: b for b in views.view(st, "A", [])["table"]["buildings"]}
    assert got["house"]["defence_dice"] == "3d6" and got["house"]["floors"] == 2 and got["house"]["capacity"] == 24
    assert got["hut"]["material"] == "batiment_en_bois" and got["hut"]["defence_dice"] == "4d4"  # the hamlet's default
    assert "Bâtiment en pierre\t3d6" in line(808) and "Bâtiment en bois\t4d4" in line(809)
    from oriflamme.rulesets.guerres_fleuries.battle.battlefield import load_battlefield
    vf = load_battlefield("valley-of-flowers")
    houses = [e for e in vf.elements if e.kind == "hameau"]
    assert {(e.material, e.floors) for e in houses} == {("batiment_en_bois", 1), ("batiment_en_pierre", 2)}


def test_a_battlefield_names_a_building_s_material_and_floors_or_is_refused():
    """l.808-809: a building is of stone or wood; other terrain has no material (OR-GF80)."""
    from oriflamme.rulesets.guerres_fleuries.battle.battlefield import BattlefieldError, battlefield_from_json
    doc = {"elements": [dict(HOUSE)]}
    bf = battlefield_from_json(doc)
    assert bf.to_json()["elements"][0]["material"] == "batiment_en_pierre"
    assert battlefield_from_json(bf.to_json()).to_json() == bf.to_json()
    for bad, says in ((dict(HOUSE, material="haie"), "not a building's material"),
                      (dict(HOUSE, floors=0), "floors"),
                      ({"id": "w", "kind": "bois", "material": "batiment_en_bois", "points": HOUSE["points"]},
                       "only a building")):
        with pytest.raises(BattlefieldError) as exc:
            battlefield_from_json({"elements": [bad]})
        assert says in str(exc.value)


def _b3_by_the_hamlet():
    """The bundled battle with side B's Old scaled guard placed 4 cm from the long house, its command
    test passed and side A's orders of turn 1 given: side B is to give its orders."""
    from guerres_fleuries.battle_engine_kit import act, game

    for seed in ("buildings-1", "buildings-2", "buildings-3", "buildings-4", "buildings-5"):
        g = game(seed)
        act(g, type="end_phase", side="A")
        act(g, type="place", side="B", unit="B3", x=100, y=27.5, heading=180)
        act(g, type="end_phase", side="B")
        while g.state.phase == 2:
            act(g, **g.ruleset.legal_actions(g.state)[0].to_json())
        if "red" not in g.state.units["B3"].markers:
            break
    st = g.state
    while st.acting == "A":
        act(g, **[a for a in g.ruleset.legal_actions(st) if a.type == "orders"][0].to_json())
    return g


def _into_the_hamlet():
    """:func:`_b3_by_the_hamlet`, then B3 ordered to break formation into the hamlet."""
    from guerres_fleuries.battle_engine_kit import act

    g = _b3_by_the_hamlet()
    act(g, type="orders", side="B", orders={"B3": {"order": "casser", "target": "hamlet"}})
    return g


def test_in_a_real_game_a_unit_goes_into_the_hamlet_and_the_enemy_loses_sight_of_it():
    """The bundled battle (valley of flowers): side B sets its Old scaled guard 4 cm from the long house
    (l.788 "à 5cm de celui-ci en début de tour"), orders it to break formation, and in phase 6 it is in:
    side A's view and log no longer show it (l.784, OR-GF83); the record replays to the same state."""
    from oriflamme.core.record import replay
    from guerres_fleuries.battle_engine_kit import act

    g = _b3_by_the_hamlet()
    st = g.state
    assert st.phase == 3 and "red" not in st.units["B3"].markers
    opts = g.ruleset.options(st, "B")
    casser = next(o for o in opts["units"]["B3"]["orders"] if o["id"] == "casser")
    assert "hamlet" in casser["targets"]  # (and the stone house, 5 cm away)
    act(g, type="orders", side="B", orders={"B3": {"order": "casser", "target": "hamlet"}})
    while st.phase < 6 and not g.outcome().over:
        act(g, **g.ruleset.legal_actions(st)[0].to_json())
    b3 = st.units["B3"]
    assert b3.inside == "hamlet" and b3.hidden and b3.disorder
    seen_by_a = {u["id"] for u in g.ruleset.view(st, "A")["units"]}
    assert "B3" not in seen_by_a and "B3" in {u["id"] for u in g.ruleset.view(st, "B")["units"]}
    n = len(st.log)
    while (st.turn, st.phase) < (2, 4):  # turn 2: command tests, orders, their reveal: B3's are B's only
        legal = g.ruleset.legal_actions(st)
        act(g, **(legal[-1] if legal[-1].type == "end_phase" else legal[0]).to_json())
    assert b3.hidden  # no enemy came against the house
    later = [e for e in st.log[n:] if e.get("unit") == "B3"]
    assert later and all(e.get("private") == "B" for e in later)  # its command test, its orders' reveal
    assert all(e.get("unit") != "B3" for e in g.ruleset.visible_events(st, "A", n))
    assert "B3" not in str(next(e for e in st.log[n:] if e["type"] == "orders_revealed")["orders"])
    again, _ = replay(g.record(reveal=True))  # raises when the events or the digest differ
    assert again.state.to_json() == st.to_json()


def test_an_enemy_may_walk_up_to_a_house_whose_occupants_it_cannot_see_and_finds_them():
    """l.784: hidden "jusqu'à ce qu'elles […] soient détectées par un ennemi qui est contre […] le bâtiment":
    the 5 cm kept from an enemy (l.590) is not kept from one the mover cannot see (OR-GF83)."""
    a = near_house()
    e = troop("e", "B", x=85, y=30, heading=180.0, figures=10, frontage=5, ranks=2)
    st = battle(a, e, phase=6, elements=[HOUSE])
    inside(st, a)
    moves.check_destination(st, e, 85, 47.9, 180.0, budget=30, direction="forward")  # against the north wall
    moves.apply_move(e, 85, 47.9, 180.0)
    buildings_play.detect(st)
    assert not a.hidden
    e.x, e.y = 85, 30
    with pytest.raises(IllegalAction) as exc:  # seen now: the 5 cm again (its front edge 4 cm from the house)
        moves.check_destination(st, e, 85, 44, 180.0, budget=30, direction="forward")
    assert "l.590" in exc.value.ref


@pytest.mark.parametrize("seed", [13, 14])
def test_in_random_games_a_hidden_unit_never_shows_in_the_enemy_s_view_or_log(seed):
    """OR-GF83 as an invariant: side B's Old scaled guard goes into the hamlet in turn 1 (the path of the
    test above), then the battle goes on at random to turn 5; after every action, no hidden unit is in
    the other side's or a spectator's view, and no event the other side may see since it went in
    names it."""
    import random

    g = _into_the_hamlet()
    r, st = g.ruleset, g.state
    rng = random.Random(seed)
    hid_at: dict[str, int] = {}
    seen_hidden = 0
    while r.to_act(st) is not None and st.turn <= 5:
        r.apply(st, rng.choice(r.legal_actions(st, r.to_act(st))))
        for u in st.units.values():
            if u.hidden:
                seen_hidden += 1
                if u.id not in hid_at:  # from its (public) entry on
                    hid_at[u.id] = max(i for i, e in enumerate(st.log)
                                       if e["type"] == "enter_building" and e.get("unit") == u.id)
                other = st.other(u.side)
                for who in (other, None):
                    assert u.id not in {x["id"] for x in r.view(st, who)["units"]}
                    assert all(e.get("unit") != u.id for e in r.visible_events(st, who, hid_at[u.id] + 1))
            else:
                hid_at.pop(u.id, None)
    assert seen_hidden  # the invariant was checked on states that hold a hidden unit


def test_the_controlling_character_goes_in_and_out_with_his_unit():
    """l.450-452 (OR-GF41): a character in base contact controls the unit and goes with it — into the
    building and out of it (OR-GF81); hidden with it (OR-GF83)."""
    from oriflamme.rulesets.guerres_fleuries.battle import command
    a = near_house()
    hero = troop("h", "A", kind="character", figures=1, figures_max=1, frontage=1, ranks=1, base_w=2.5, base_d=2.5,
                 x=85, y=64.3)
    st = battle(a, hero, troop("e", "B", x=30, y=10), phase=6, elements=[HOUSE])
    command.update(st)
    assert a.led_by == "h"
    inside(st, a)
    assert hero.inside == "house" and hero.hidden and buildings_play.occupants(st, "house") == [a]
    command.update(st)
    assert a.led_by == "h"  # still in contact: both fill the house
    assert {"a", "h"}.isdisjoint({u["id"] for u in views.view(st, "B", [])["units"]})
    a.moved, a.order, a.target = False, "casser", "out"
    turn.phase6_orders_in_place(st)
    assert hero.inside is None and not hero.hidden and not a.inside
    assert not hero.footprint().intersects(st.battlefield.element("house").geometry)


def test_occupants_who_win_do_not_pursue():
    """l.796: "Elles n'ont pas obligation de poursuivre lors d'un recule ou d'une déroute ennemi." (OR-GF82)"""
    assert "Elles n'ont pas obligation de poursuivre" in line(796)
    a = near_house()
    b = troop("b", "B", x=85, y=47.9, heading=180.0, figures=8, figures_max=8, figures_turn_start=8, frontage=4,
              ranks=2)
    st = battle(a, b, phase=6, elements=[HOUSE])
    inside(st, a)
    events = melee_play._outcome(st, a, b, 0, 3, Always(1))  # b lost 3 to 0; its morale d4 1: it retreats
    assert b.status == "retreat"
    assert a.pending is None and "pursuing" not in a.markers and a.inside == "house"
    assert any(e["type"] == "no_pursuit" and "GF seed 003 l.796" in e["citations"] for e in events)


@pytest.mark.parametrize("reformed,order", [(False, "attendre"), (True, "tirer"), (False, "casser")])
def test_the_computer_player_s_copies_do_not_depend_on_what_hidden_occupants_did(reformed, order):
    """l.784 (OR-GF83): the enemy saw the unit go in, not what it did inside. Side B's determinized
    copies (what its computer player searches) are the same whatever side A's hidden occupants did —
    reformed or not, whatever their order — digest for digest, and B's evaluation reads the same."""
    from oriflamme.rulesets.guerres_fleuries.battle import evaluation

    def situation(reformed, order):
        a = near_house()
        st = battle(a, troop("e", "B", x=85, y=10, heading=180.0), phase=6, elements=[HOUSE])
        inside(st, a)
        a.set_disorder(not reformed)
        a.order, a.target = order, ("house" if order == "casser" else None)
        return st

    base = situation(False, "attendre")
    other = situation(reformed, order)
    digest = lambda st: json.dumps(st.to_json(), sort_keys=True)  # noqa: E731
    for k in range(4):
        c1 = evaluation.determinize(base, "B", random.Random(k))
        c2 = evaluation.determinize(other, "B", random.Random(k))
        assert digest(c1) == digest(c2)
    # redrawn, not copied: over a few draws the occupant is seen both reformed and not
    states = {evaluation.determinize(base, "B", random.Random(k)).units["a"].disorder for k in range(20)}
    assert states == {True, False}
    # side A knows its own unit: nothing of it is redrawn for A
    mine = evaluation.determinize(other, "A", random.Random(0)).units["a"]
    assert (mine.disorder, mine.order) == (not reformed, order)
