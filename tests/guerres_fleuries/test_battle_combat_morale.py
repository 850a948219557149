"""Morale tests in battle: the situation read off the table equals a hand-built referee situation,
the results applied to the state (obey, uncontrolled advance, retreat, rout, removal, fanatics,
leaving the table), deferred moves in phase 1, rallies; casualties rank by rank; the cited data."""

from __future__ import annotations

import re

from guerres_fleuries.battle_combat_kit import ByDie, battle, front_edge, troop
from guerres_fleuries.seed import line
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme.rulesets.guerres_fleuries import modifiers as mods
from oriflamme.rulesets.guerres_fleuries.battle import casualties, combat_data, morale_play, rally
from oriflamme.rulesets.guerres_fleuries.morale import data as morale_data
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _spears(**kw):
    base = dict(klass="B", figures=24, figures_max=30, x=90, y=90)
    base.update(kw)
    return troop("spears", "A", **base)


def test_the_table_gives_the_situation_a_referee_would_be_given():
    u = _spears()
    pal = troop("pal", "A", x=90, y=97, figures=10, ranks=1)  # 5 cm behind: a friend within 10 cm
    routing_foe = troop("foe", "B", x=120, y=80, status="rout")  # within 30 cm, routing
    st = battle(u, pal, routing_foe)
    sit, why = morale_play.situation(st, u, "fire_losses")
    hand = {"kind": "morale", "tester": "Homme", "class": "B", "losses": 6, "initial_strength": 30,
            "modifiers": [{"modifier": "Pour chaque unité amie ou personnage dans les 10cm.", "count": 1},
                          {"modifier": "Chaque ennemi en déroute à moins de 30cm.", "count": 1}]}
    for d4 in range(1, 5):
        mine, theirs = REF.adjudicate({**sit, "d4": d4}), REF.adjudicate({**hand, "d4": d4})
        assert (mine["score"], mine["result"]) == (theirs["score"], theirs["result"])
    assert any("pal" in w for w in why) and any("foe" in w for w in why)
    p = morale_play.preview(st, "spears", "fire_losses")
    assert sum(p["percent"].values()) == 100 and set(p["by_d4"]) == {1, 2, 3, 4}


def _forced(code: str, u, st):
    """The d4 that gives ``code`` for this unit's situation, if any."""
    sit, _ = morale_play.situation(st, u, "lost_combat")
    for d4 in range(1, 5):
        if REF.adjudicate({**sit, "d4": d4})["result"] == code:
            return d4
    return None


def test_retreat_moves_a_full_retreat_move_away_facing_the_enemy():
    u = _spears(figures=30, klass="C")
    foe = troop("foe", "B", x=90, y=70)
    st = battle(u, foe, phase=8)
    sit, _ = morale_play.situation(st, u, "lost_combat")
    d4 = _forced("RET", u, st)
    assert d4 is not None
    ev = morale_play.test(st, "spears", "lost_combat", ByDie(d4=[d4]), "foe")
    rate = morale_play.rate(u, "retraite")
    assert ev["result"] == "RET" and u.status == "retreat"
    assert (u.x, u.y) == (90, 90 + rate) and u.heading == 0  # backwards, still facing the foe
    assert "GF seed 003 l.1104" in " ".join(ev["citations"]) and rate == 10  # l.1407 Homme retraite


def test_rout_turns_away_disordered_and_fanatics_die_instead():
    u = _spears(figures=16, klass="C", y=60)
    foe = troop("foe", "B", x=90, y=40)
    st = battle(u, foe)
    d4 = _forced("DER", u, st)
    morale_play.test(st, "spears", "lost_combat", ByDie(d4=[d4]), "foe")
    assert u.status == "rout" and u.disorder and u.heading == 180 and u.y == 60 + morale_play.rate(u, "deroute")
    fan = _spears(figures=16, klass="C", fanatic=True)
    st = battle(fan, foe)
    steps, cites = morale_play.apply_result(st, fan, "RET", False, foe, deferred=False)
    assert fan.status == "destroyed" and "destroyed" in steps[0]


def test_more_than_half_lost_is_removed_and_leaving_the_table_is_lost():
    u = _spears(figures=14)  # 16 of 30 lost: more than 50 %
    st = battle(u, troop("foe", "B", x=90, y=70))
    ev = morale_play.test(st, "spears", "lost_combat", ByDie(d4=[4]), "foe")
    assert ev["removed"] and u.status == "removed"
    edge = _spears(figures=30, y=115)
    st = battle(edge, troop("foe", "B", x=90, y=95))
    morale_play.apply_result(st, edge, "DER", False, st.units["foe"], deferred=False)
    assert edge.status == "lost"


def test_uncontrolled_advance_charges_the_nearest_enemy():
    u = _spears()
    near, far = troop("near", "B", x=90, y=60), troop("far", "B", x=30, y=20)
    st = battle(u, near, far)
    morale_play.apply_result(st, u, "AI", False, None, deferred=False)
    assert u.order == "charger" and u.target == "near" and "uncontrolled_advance" in u.markers


def test_a_phase_10_result_moves_in_phase_1():
    u = _spears(figures=16, klass="C", y=60)
    foe = troop("foe", "B", x=90, y=40)
    st = battle(u, foe, phase=10)
    d4 = _forced("DER", u, st)
    ev = morale_play.test(st, "spears", "lost_combat", ByDie(d4=[d4]), "foe")
    assert ev["result"] == "DER" and (u.x, u.y) == (90, 60) and u.pending["move"] == "deroute"
    assert "routed_in_melee" in u.markers
    events = morale_play.automatic_moves(st)
    assert events[0]["type"] == "automatic_move" and u.y > 60 and u.pending is None
    # routed in this turn's melee: no rally in this phase 11 (l.1092)
    st.phase = 11
    ev = rally.resolve(st, ByDie())
    assert ev[0]["rallied"] is False and "cannot be rallied" in ev[0]["explanation"][0]


def test_a_character_helps_a_routing_unit_rally_and_it_must_reform():
    hero = troop("hero", "A", kind="character", figures=1, figures_max=1, frontage=1, ranks=1, x=60, y=60, FM=5)
    u = _spears(status="rout", disorder=True, led_by="hero", figures=30, klass="A")
    st = battle(u, hero, troop("foe", "B", x=20, y=10), phase=11)
    sit, why = morale_play.situation(st, u, "rally")
    ids = {m["modifier"] for m in sit["modifiers"]}
    assert {"character_controls", "tester_routing"} <= ids and sit["character"]["FM"] == 5
    ev = rally.resolve(st, ByDie(d4=[4]))
    assert ev[0]["rallied"] and u.status == "ok" and u.order == "reformer" and u.disorder
    assert "GF seed 003 l.1096" in " ".join(ev[0]["citations"])


def test_characters_take_no_morale_test():
    hero = troop("hero", "A", kind="character", figures=1, figures_max=1, frontage=1, ranks=1)
    ev = morale_play.test(battle(hero), "hero", "charge", ByDie())
    assert ev["result"] is None


@settings(max_examples=60, deadline=None)
@given(figures=st.integers(1, 60), frontage=st.integers(1, 12), lost=st.integers(0, 70),
       heading=st.sampled_from([0.0, 37.0, 90.0, 180.0, 300.0]))
def test_casualties_leave_by_the_rear_rank_by_rank(figures, frontage, lost, heading):
    frontage = min(frontage, figures)
    u = troop("u", "A", figures=figures, figures_max=figures, frontage=frontage, ranks=-(-figures // frontage),
              heading=heading)
    front = front_edge(u)
    ev = casualties.remove_figures(u, lost)
    assert u.figures == max(0, figures - lost) and ev["removed"] == min(lost, figures)
    if u.figures:
        assert u.ranks == -(-u.figures // u.frontage) and u.frontage <= frontage
        if u.frontage == frontage:  # same width: the front edge has not moved
            assert front_edge(u).hausdorff_distance(front) < 1e-6
    else:
        assert u.status == "destroyed"


def test_the_combat_data_is_the_seeds():
    d = combat_data.data()
    causes = {c for row in morale_data().causes for c in row.printed}
    for c in d.causes.values():
        n = int(re.search(r"l\.(\d+)", c.ref).group(1))
        assert c.printed in causes or c.printed in line(n), c.id
    for n in d.near.values():
        printed = mods.modifiers("morale")[n.modifier].printed
        assert f"{n.within_cm:g}cm" in printed.replace(" cm", "cm"), n.modifier
        assert printed.rstrip(".") in line(int(n.ref.split("l.")[1]))
    assert "Sur un résultat de 1" in line(950) and d.capture.faces == [1] and d.capture.die == 6
    assert "recule d'un 1cm" in line(989) and d.recoil.cm_per_figure == 1
    assert "45°" in line(840) and "45°" in line(848) and d.fire_arc.half_angle_deg == 45
    assert "3 cibles" in line(830) and d.fire_targets.max_printed == 3
    assert "moins de 5cm" in line(1457) and d.fire_priority_near.within_cm == 5
    assert "plus de 10cm" in line(1495) and d.target_moved.over_cm == 10
