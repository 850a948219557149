"""A building's damage, fire and collapse (GF La valeur de défense d'un bâtiment, Domage par le feu,
seed 003 l.800-816; GF-K2, OR-GF85), a flyer killed in the air crashing (l.897-908; OR-GF86) and a
dead monster's body (l.889, l.1003; OR-GF87). Each test quotes the seed line it proves."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import ByDie, troop
from guerres_fleuries.seed import line
from guerres_fleuries.test_battle_buildings import HOUSE, battle, inside, near_house
from hypothesis import given, settings
from hypothesis import strategies as st_

from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries import buildings as bdata
from oriflamme.rulesets.guerres_fleuries import crash as crash_data
from oriflamme.rulesets.guerres_fleuries.battle import buildings_play, casualties, crash_play, moves, turn

HUT = {"id": "hut", "kind": "hameau", "name": "Hut", "material": "batiment_en_bois", "floors": 1,
       "points": [[80, 50], [90, 50], [90, 58], [80, 58]]}


def events(st, kind):
    return [e for e in st.log if e["type"] == kind]


def test_the_defence_value_is_rolled_when_the_building_is_first_damaged():
    """l.809 "Bâtiment en bois 4d4" (GF-K2: damage accumulates against the value rolled once)."""
    assert line(809) == "Bâtiment en bois\t4d4"
    st = battle(troop("e", "B", x=30, y=10), elements=[HUT])
    hut = st.battlefield.element("hut")
    st.dice = ByDie(d4=[1, 2, 3, 4])
    buildings_play.damage(st, hut, 3, "test", "test", st.dice)
    rec = st.buildings["hut"]
    assert rec["defence"] == 10 and rec["defence_roll"] == [1, 2, 3, 4] and rec["damage"] == 3
    buildings_play.damage(st, hut, 2, "test", "test", st.dice)  # no second roll (the script is empty)
    assert rec["damage"] == 5 and not rec["destroyed"]
    ev = events(st, "building_damage")[-1]
    assert "4d4 = 10 [1, 2, 3, 4]" in ev["ruling"]["explanation"][0] and "5 of 10 (50 %)" in ev["ruling"]["explanation"][1]


def test_magic_deals_3_points_the_first_turn_then_4():
    """l.802: "Dans le cas de la magie, le bâtiment subit 3 points de dégâts le 1er tour, 4 le 2e, etc." """
    assert "3 points de dégâts le 1er tour, 4 le 2e" in line(802)
    st = battle(troop("e", "B", x=30, y=10), elements=[HOUSE])
    st.dice = ByDie(d6=[6, 6, 6])
    buildings_play.magic_damage(st, "house", st.dice)
    buildings_play.magic_damage(st, "house", st.dice)
    assert [e["points"] for e in events(st, "building_damage")] == [3, 4] and st.buildings["house"]["damage"] == 7


def test_only_a_flammable_building_burns():
    """l.814: "Seuls les bâtiments construits avec des matériaux inflammables peuvent être la proie des flammes." """
    assert "Seuls les bâtiments construits avec des matériaux inflammables" in line(814)
    st = battle(troop("e", "B", x=30, y=10), elements=[HOUSE, {**HUT, "points": [[120, 50], [130, 50], [130, 58], [120, 58]]}])
    with pytest.raises(IllegalAction) as exc:
        buildings_play.set_alight(st, "house")
    assert exc.value.ref == "GF seed 003 l.814" and "house" not in st.buildings
    buildings_play.set_alight(st, "hut")
    assert st.buildings["hut"]["burning"]


def test_fire_grows_1_then_2_and_from_half_destroyed_each_figure_dies_on_51():
    """l.814: "Au premier tour, 1 point ; au second, 2 points, etc. […] Dès que 50% de l'édifice a été
    détruit, les troupes l'occupant […] Chaque figurine jette 1d100 et meurt sur un résultat de 51% ou plus."
    The hut's defence 4d4 = 6; turn 1: 1 point (16 %), no test; turn 2: 2 points, 3 of 6 = 50 %: each of
    the 4 figures inside rolls: 51 and 100 die, 50 and 1 live."""
    assert "Au premier tour, 1 point ; au second, 2 points" in line(814)
    assert "meurt sur un résultat de 51% ou plus" in line(814)
    a = near_house(figures=4, figures_max=4, frontage=4, ranks=1, y=60)
    st = battle(a, troop("e", "B", x=30, y=10), phase=6, elements=[HUT])
    inside(st, a, "hut")
    buildings_play.set_alight(st, "hut")
    st.dice = ByDie(d4=[1, 1, 2, 2])
    buildings_play.burn(st, st.dice)
    assert st.buildings["hut"]["damage"] == 1 and not events(st, "burn_test")
    st.dice = ByDie(d100=[51, 50, 100, 1])
    buildings_play.burn(st, st.dice)
    assert st.buildings["hut"]["damage"] == 3 and a.figures == 2
    ev = events(st, "burn_test")[0]
    assert ev["dead"] == 2 and "(50 %)" in ev["ruling"]["explanation"][0]
    assert ev.get("private") == "A"  # still hidden: its side's only (OR-GF83)
    # turn 3: 3 more points, 6 of 6: the hut collapses; the 2 left test as under a crash (d100 < 50 lives)
    st.dice = ByDie(d100=[49, 50])
    buildings_play.burn(st, st.dice)
    assert st.buildings["hut"]["destroyed"] and not st.buildings["hut"]["burning"]
    assert a.figures == 1 and a.inside is None and a.disorder
    assert events(st, "building_collapse") and events(st, "crushed")[0]["dead"] == 1
    # the ruins take no one in (OR-GF85)
    assert buildings_play.target_checks(st, a) == [("hut", "it has been destroyed")]


def test_a_character_takes_a_wound_in_the_fire():
    """l.814: "Dans le cas d'un personnage, il subit une blessure." """
    assert "Dans le cas d'un personnage, il subit une blessure." in line(814)
    hero = troop("h", "A", kind="character", figures=1, figures_max=1, frontage=1, ranks=1, x=85, y=59.5)
    st = battle(hero, troop("e", "B", x=30, y=10), elements=[HUT])
    rec = buildings_play.record(st, "hut")
    rec.update(defence=4, damage=2, burning=True, fire_turn=0)  # half destroyed already
    st.dice = ByDie(d100=[10], d4=[1])
    buildings_play.burn(st, st.dice)  # 1 more point (3 of 4), then the wound: d100 10, d4 1
    assert st.dice.count(100) == 1 and st.dice.count(4) == 1 and events(st, "burn_test")


@settings(max_examples=40, deadline=None)
@given(defence=st_.integers(4, 16), turns=st_.integers(1, 6))
def test_fire_damage_after_n_turns_is_the_triangle_number_until_the_collapse(defence, turns):
    """GF-K2: 1 + 2 + … + n points after n turns of fire, against the defence value; collapsed at 100 %."""
    st = battle(troop("e", "B", x=30, y=10), elements=[HUT])
    rec = buildings_play.record(st, "hut")
    rec.update(defence=defence, burning=True)
    st.dice = ByDie(d100=[1] * 100)
    for _ in range(turns):
        buildings_play.burn(st, st.dice)
    expected = 0
    for n in range(1, turns + 1):
        if expected >= defence:
            break
        expected += bdata.data().damage["fire"].on_turn(n)
    assert rec["damage"] == expected and rec["destroyed"] == (expected >= defence)


def _killing_roll():
    """A (d100, d4) of the monsters' wound table that kills an unwounded creature."""
    for d100 in range(1, 101):
        for d4 in range(1, 5):
            bird = troop("p", "B", kind="creature", race="aigle_geant", figures=1, figures_max=1, frontage=1, ranks=1)
            if casualties.wound(bird, ByDie(d100=[d100], d4=[d4]))["dies"]:
                return d100, d4
    raise AssertionError("no killing cell")


def test_a_flyer_killed_in_the_air_crashes_on_the_figures_below():
    """l.897: "Si une créature est tuée en vol, elle s'écrase immédiatement à l'endroit qu'elle survole. Tous
    les figurines se trouvent à l'emplacement du crash font un jet de dé. Si le score est inférieur à 50%, la
    figurine survit." Its base (4 × 4 cm) over a troop of 2 × 2 cm places: 4 figures under it."""
    assert "Si le score est inférieur à 50%, la figurine survit" in line(897)
    assert crash_data.crash().killed.survives_below_pct == 50
    d100, d4 = _killing_roll()
    bird = troop("p", "B", kind="creature", race="aigle_geant", figures=1, figures_max=1, frontage=1, ranks=1,
                 base_w=4.0, base_d=4.0, x=91, y=81, altitude="combat", flyer=True)
    below = troop("a", "A", figures=20, frontage=10, ranks=2, x=90, y=81)  # 20 × 4 cm, places of 2 cm
    st = battle(bird, below, elements=[])
    ledger = casualties.Ledger()
    ledger.note(bird, 1, below)
    st.dice = ByDie(d100=[d100, 49, 50, 1, 100], d4=[d4])
    ledger.apply(st, st.dice)
    assert not bird.alive and st.falling and st.falling[0]["altitude"] == "combat"
    crash_play.settle(st)
    assert not st.falling and below.figures == 18
    ev = events(st, "crushed")[0]
    assert ev["d100"] == [49, 50, 1, 100] and ev["dead"] == 2 and "(51 %)" in ev["ruling"]["explanation"][0]
    assert events(st, "crash")[0]["ref"] == "GF seed 003 l.897"


def test_a_crash_on_a_building_damages_only_the_building():
    """l.899-908: "Si la créature s'écrase sur un bâtiment, on fait un jet de dé pour connaître les dégâts
    […] Si des troupes se trouvent à l'intérieur, on considère que seul le bâtiment subit des dégâts." The
    hut (wood, 4d4 = 16) takes 3d4 = 6 (l.906); the occupants do not test."""
    assert line(906) == "Bâtiment en bois\t3d4" and "seul le bâtiment subit des dégâts" in line(908)
    a = near_house(figures=4, figures_max=4, frontage=4, ranks=1, y=60)
    bird = troop("p", "B", kind="creature", race="aigle_geant", figures=1, figures_max=1, frontage=1, ranks=1,
                 base_w=4.0, base_d=4.0, x=85, y=54, altitude="combat", flyer=True, status="destroyed")
    st = battle(a, bird, phase=6, elements=[HUT])
    inside(st, a, "hut")
    st.dice = ByDie(d4=[1, 2, 3, 4, 4, 4, 4])  # the crash's 3d4 (l.906), then the defence 4d4 to compare (l.899)
    crash_play.crash(st, bird, "combat", crash_play.site_of(bird), st.dice)
    rec = st.buildings["hut"]
    assert rec["defence"] == 16 and rec["damage"] == 6 and a.figures == 4 and not events(st, "crushed")
    assert "crash of p (3d4 [1, 2, 3])" in events(st, "building_damage")[0]["text"]


def test_a_dead_monster_becomes_a_4_by_4_cm_impassable_obstacle():
    """l.889: "Le corps du monstre devient un obstacle infranchissable de 4cm x4cm." (and l.1003)"""
    assert "obstacle infranchissable de 4cm x4cm" in line(889) and "obstacle infranchissable de 4cm x4cm" in line(1003)
    dead = troop("m", "B", kind="monster", race="araignee", figures=0, figures_max=1, frontage=1, ranks=1,
                 x=90, y=50, status="destroyed")
    walker = troop("a", "A", figures=10, frontage=5, ranks=2, x=90, y=70)
    st = battle(dead, walker, phase=6, elements=[])
    crash_play.lay_carcasses(st)
    crash_play.lay_carcasses(st)  # once
    assert len(st.carcasses) == 1
    assert sorted(map(tuple, st.carcasses[0]["points"])) == [(88.0, 48.0), (88.0, 52.0), (92.0, 48.0), (92.0, 52.0)]
    with pytest.raises(IllegalAction) as exc:
        moves.check_destination(st, walker, 90, 45, 0.0, budget=40, direction="forward")
    assert "l.889" in exc.value.ref and "OR-GF87" in exc.value.ref
    moves.check_destination(st, walker, 90, 58, 0.0, budget=40, direction="forward")  # up to it: fine


def test_the_turn_settles_crashes_and_bodies_before_the_next_decision():
    """turn.advance resolves what fell in a phase before anyone decides again (OR-GF86, OR-GF87)."""
    dead = troop("m", "B", kind="monster", race="araignee", figures=0, figures_max=1, frontage=1, ranks=1,
                 x=90, y=50, status="destroyed")
    st = battle(dead, troop("a", "A", x=30, y=100), phase=2, elements=[])
    turn.advance(st)  # phase 2: side A's command test waits; the body is laid first
    assert st.acting == "A" and len(st.carcasses) == 1 and events(st, "carcass")[0]["decision"] == "OR-GF87"


def test_a_unit_breaks_formation_to_fight_the_fire_and_puts_it_out():
    """l.816: "utiliser une unité qui va casser sa formation pour lutter contre le feu. En phase 8 du tour, le
    joueur jette 1d100 pour chaque figurine engagée et sur un résultat de 50% ou moins les dégâts diminuent
    d'un point. S'ils tombent à 0 le feu est éteint." l.818: attacked meanwhile, a flank attack. l.820: it
    reforms at no cost (OR-GF89)."""
    assert "sur un résultat de 50% ou moins les dégâts diminuent d'un point" in line(816)
    assert "les attaquants bénéficient d'une attaque de flanc" in line(818) and "se reforme gratuitement" in line(820)
    from oriflamme.rulesets.guerres_fleuries.battle import melee_play, orders
    crew = near_house(figures=4, figures_max=4, frontage=4, ranks=1, y=60, heading=180.0)  # its back to the hut
    st = battle(crew, troop("e", "B", x=30, y=10), phase=6, elements=[HUT])
    rec = buildings_play.record(st, "hut")
    rec.update(defence=12, damage=1, burning=True, fire_turn=1)
    assert "hut" in {o["id"]: o for o in orders.options(st, crew)}["casser"]["targets"]
    crew.order, crew.target = "casser", "hut"
    turn.phase6_orders_in_place(st)
    assert crew.inside is None and crew.disorder and "fire_fighting" in crew.markers
    foe = troop("f", "B", x=85, y=64.2, heading=0.0, figures=8, frontage=4, ranks=2)  # in its front…
    st.units["f"] = foe
    sit, why = melee_play.situation(st, foe, crew)
    assert {"modifier": "flank"} in sit["modifiers"] and {"modifier": "enemy_disordered"} in sit["modifiers"]
    # phase 8: the fire's 2nd turn (2 points: 3 of 12, 25 %, no test), then 4 figures roll: 10, 50 and 30 take 3 off
    st.dice = ByDie(d100=[10, 50, 51, 30])
    buildings_play.burn(st, st.dice)
    assert rec["damage"] == 0 and not rec["burning"] and not crew.disorder
    ev = events(st, "extinguish")[0]
    assert ev["d100"] == [10, 50, 51, 30] and "fire is out" in ev["text"] and "(50 %)" in ev["ruling"]["explanation"][0]
