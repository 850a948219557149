"""The gf-combat decisions (OR-GF50…60, docs/decisions.md) and the morale causes the battle detects:
each decision's behaviour, so changing one shows here."""

from __future__ import annotations

from guerres_fleuries.battle_combat_kit import Always, ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries import melee as md
from oriflamme.rulesets.guerres_fleuries.battle import casualties, fire_play, melee_play, morale_play
from oriflamme.rulesets.guerres_fleuries.battle.fighters import (cover_of, melee_weapon_of, target_armour)


def test_or_gf51_one_volley_per_unit_even_with_several_targets():
    a = troop("archers", "A", missile="arc", order="tirer", x=90, y=90)
    b1 = troop("b1", "B", x=80, y=62, figures=10, figures_max=10, ranks=1)
    b2 = troop("b2", "B", x=104, y=62, figures=10, figures_max=10, ranks=1)
    st = battle(a, b1, b2)
    assert sum(fire_play.eligibility(st, a, t)["eligible"] for t in (b1, b2)) == 2
    events = fire_play.resolve(st, Always(4))
    assert len([e for e in events if e["type"] == "fire"]) == 1
    assert "3 cibles" in line(830)


def test_or_gf54_a_creature_without_its_own_table_reads_the_monsters_and_loses_one_figure():
    birds = troop("birds", "B", kind="creature", race="pterodactyle", figures=6, figures_max=6, frontage=3, ranks=2)
    assert casualties.wound_table(birds) == "monstres"
    ptera = troop("ptera", "B", kind="creature", race="pteradon", figures=1, figures_max=1, frontage=1, ranks=1)
    assert casualties.wound_table(ptera) == "pteradon"
    # d100 100 and d4 4 on the monsters' table: find a killing cell to prove one figure goes
    for d100 in range(1, 101):
        for d4 in range(1, 5):
            birds.figures, birds.wounds = 6, []
            ev = casualties.wound(birds, ByDie(d100=[d100], d4=[d4]))
            if ev["dies"]:
                assert birds.figures == 5 and birds.wounds == [] and "OR-GF54" in ev["citations"]
                return
    raise AssertionError("the monsters' table has no killing cell")


def test_or_gf57_a_unit_against_a_hedge_has_its_cover_against_an_attack_across_it():
    hedge = [{"id": "h", "kind": "haie", "name": "hedge", "points": [[60, 70], [120, 70]]}]
    behind = troop("behind", "B", x=90, y=68, ranks=2, figures=20)  # front edge at y = 70, on the hedge
    across = troop("s", "A", missile="arc", order="tirer", x=90, y=95)
    same_side = troop("t", "A", missile="arc", order="tirer", x=90, y=40, heading=180)
    st = battle(behind, across, same_side, elements=hedge)
    assert cover_of(st, behind, across)[0] == "light" and cover_of(st, behind, same_side) is None
    sit, why = fire_play.situation(st, across, behind, 20)
    assert {"modifier": "light_cover"} in sit["modifiers"] and any("light cover" in w for w in why)
    assert "light_cover" not in str(fire_play.situation(st, same_side, behind, 20)[0].get("modifiers"))


def test_or_gf58_the_best_weapon_carried_and_or_gf59_the_saurien_column():
    s = troop("s", "A", race="saurien", melee_weapon="griffes", weapons=["Griffes et dents", "Club"])
    assert melee_weapon_of(s) == "club"
    rows = md.pbc()
    assert rows[("saurien", "club")].sans_armure > rows[("saurien", "griffes")].sans_armure
    assert target_armour(s) == "saurien" and target_armour(troop("m", "A", armour="coton")) == "coton"
    spider = troop("sp", "B", kind="monster", race="araignee", figures=1, figures_max=1, frontage=1, ranks=1)
    assert target_armour(spider) == md.being_armour()["araignee"].armour
    assert line(1474).split("\t")[-1] == "Saurien"


def test_losses_of_twenty_percent_in_the_turn_make_a_winner_test_too():
    a = troop("a", "A", klass="A", melee_weapon="deux_mains", figures=20, figures_turn_start=20, x=90, y=80,
              charging=True)
    b = troop("b", "B", klass="B", melee_weapon="deux_mains", figures=20, figures_turn_start=20, x=90, y=76)
    st = battle(a, b, phase=10)
    events = melee_play.resolve(st, Always(1))  # every residual hits: a deals 6, b deals 4
    hits = {e["unit"]: e["hits"] for e in events if e["type"] == "melee"}
    assert hits == {"a": 6, "b": 4}
    tests = {e["unit"]: e["cause"] for e in events if e["type"] == "morale"}
    # b lost the combat; a won but lost 4 of its 20 figures this turn: 20 %
    assert tests == {"b": "lost_combat", "a": "losses_in_turn"}
    assert morale_play.losses_in_turn(st, a) and a.figures == 16
    assert "20% de perte dans le tour" in line(1590)


def test_seeing_a_friend_rout_within_10_cm_is_a_test():
    routed = troop("r", "A", figures=30, x=90, y=90)
    near = troop("near", "A", figures=20, x=90, y=97)  # 2 cm behind
    far = troop("far", "A", figures=20, x=30, y=97)
    st = battle(routed, near, far, troop("foe", "B", x=90, y=40))
    routed.status = "rout"
    events = morale_play.knock_on(st, ["r"], ByDie(d4=[4]))
    assert [e["unit"] for e in events] == ["near"] and events[0]["cause"] == "friend_rout"
    assert any(m["modifier"] == "friend_routing_10" for m in events[0]["ruling"]["modifiers"])


def _light_cell(table: str):
    """A (d100, d4) whose wound is light and not deadly on ``table`` (read from the data)."""
    from oriflamme.rulesets.guerres_fleuries.wounds import data
    w = data()
    for row in w.location(table).rows:
        for d4 in range(1, 5):
            cell = w.cells[(table, row.result, d4)]
            if not cell.dies and cell.severity not in ("severe", "serious", "critical", "stunned"):
                return row.low, d4
    raise AssertionError("no light wound on " + table)


def test_a_flyer_wounded_at_combat_altitude_crashes_and_at_flight_altitude_lands():
    assert "elle s'écrase et subit une blessure sévère supplémentaire" in line(895)
    d100, d4 = _light_cell("pteradon")
    ptera = troop("ptera", "B", kind="creature", race="pteradon", figures=1, figures_max=1, frontage=1, ranks=1,
                  altitude="combat")
    ev = casualties.wound(ptera, ByDie(d100=[d100], d4=[d4]))
    assert ptera.altitude is None and ptera.wounds[-1] == "severe" and ptera.alive
    assert any("crashes" in s for s in ev["explanation"])
    high = troop("high", "B", kind="creature", race="pteradon", figures=1, figures_max=1, frontage=1, ranks=1,
                 altitude="flight")
    casualties.wound(high, ByDie(d100=[d100], d4=[d4]))
    assert high.pending == {"move": "land"} and high.altitude == "flight"
    events = morale_play.automatic_moves(battle(high))
    assert high.altitude is None and events[0]["move"] == "land"
    again = troop("again", "B", kind="creature", race="pteradon", figures=1, figures_max=1, frontage=1, ranks=1,
                  altitude="combat", wounds=["serious"])
    casualties.wound(again, ByDie(d100=[d100], d4=[d4]))
    assert not again.alive  # the crash's serious wound is a second one (GF-G2)
