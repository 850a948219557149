"""Melee in battle (phase 10) against the part-1 referee on the same situation; figures in base
contact, flank and rear from the tabletop arcs, simultaneous removal, the loser's recoil, morale and
pursuit, captures, routing units."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import Always, ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries.battle import melee_play, morale_play
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _jaguars(**kw):
    base = dict(klass="A", melee_weapon="maquahuitl", armour="coton", shields=True, charging=True, x=90, y=80)
    base.update(kw)
    return troop("jaguars", "A", **base)


def _clubs(**kw):
    base = dict(race="saurien", figures=30, figures_max=30, ranks=3, melee_weapon="club", armour="saurien",
                shields=True, x=90, y=75)
    base.update(kw)
    return troop("clubs", "B", **base)


def _hand(attacker_class="A", figures=10, ranks=2, extra=()):
    # from the seed: maquahuitl vs Saurien (l.1530), charge +11 (l.1562), class A +6 (l.1568), shields -2 (l.1576)
    mods = [{"modifier": "Chargeant, contre chargeant, poursuivant en combat."},
            {"modifier": "L'ennemi a des boucliers."}, *({"modifier": m} for m in extra)]
    return {"kind": "melee", "attacker": "Homme", "attacker_class": attacker_class, "weapon": "maquahuitl",
            "target_armour": "saurien", "figures_in_contact": figures, "ranks": ranks, "target": "unité",
            "modifiers": mods}


def test_preview_is_the_referee_on_the_same_situation():
    st = battle(_jaguars(), _clubs(), phase=10)
    p = melee_play.preview(st, "jaguars", "clubs")
    r = REF.adjudicate(_hand())
    assert p["in_contact"] and p["a_on_b"]["percent"] == r["multiplied_pct"]
    assert p["a_on_b"]["eliminated"] == r["eliminated"]
    assert p["a_on_b"]["extra_if_d100_at_most"] == r["extra_if_d100_at_most"]
    assert r["pmc"] == 11 + 1 + 11 - 2 + 6 and "11" in line(1530).split("\t")
    back = REF.adjudicate({"kind": "melee", "attacker": "Saurien", "attacker_class": "B", "weapon": "Club",
                           "target_armour": "Cible en armure de coton", "figures_in_contact": 10, "ranks": 3,
                           "target": "unité", "modifiers": [{"modifier": "L'ennemi a des boucliers."}]})
    assert p["b_on_a"]["percent"] == back["multiplied_pct"] == (16 + 2 - 2) * 10


@pytest.mark.parametrize("d100s", [(1, 1), (70, 60), (71, 61), (100, 100)])
def test_resolve_removes_what_the_referee_rules_simultaneously(d100s):
    a, b = _jaguars(), _clubs()
    st = battle(a, b, phase=10)
    ra = REF.adjudicate({**_hand(), "d100": d100s[0]})
    hits_a = ra["eliminated"] + ra["extra"]
    rb = REF.adjudicate({"kind": "melee", "attacker": "Saurien", "attacker_class": "B", "weapon": "Club",
                         "target_armour": "coton", "figures_in_contact": 10, "ranks": 3, "target": "unité",
                         "modifiers": [{"modifier": "L'ennemi a des boucliers."}], "d100": d100s[1]})
    hits_b = rb["eliminated"] + rb["extra"]
    dice = ByDie(d100=[d100s[1], d100s[0]], d6=[6] * 20, d4=[4, 4])  # pairs strike in id order: clubs first
    events = melee_play.resolve(st, dice)
    strikes = {e["unit"]: e["hits"] for e in events if e["type"] == "melee"}
    assert strikes == {"jaguars": hits_a, "clubs": hits_b}
    assert b.figures == 30 - hits_a and a.figures == 20 - hits_b
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["melee", "melee"] and kinds[2:4] == ["casualties", "casualties"]
    outcome = next(e for e in events if e["type"] == "melee_outcome")
    if hits_a == hits_b:
        assert outcome["winner"] is None
    else:
        loser = b if hits_a > hits_b else a
        rec = next(e for e in events if e["type"] == "recoil")
        assert rec["unit"] == loser.id and rec["cm"] == max(hits_a, hits_b)
        test = next(e for e in events if e["type"] == "morale")
        assert test["unit"] == loser.id and test["cause"] == "lost_combat"
        assert any(m["modifier"] == "lost_last_combat" for m in test["ruling"]["modifiers"])
        if loser.status in ("retreat", "rout"):
            assert loser.pending["move"] in ("retraite", "deroute")  # moves in phase 1 (l.1106)


def test_casualties_keep_the_front_in_contact_and_the_loser_recoils_one_cm_per_figure():
    a, b = _jaguars(), _clubs(figures=21, figures_max=30)
    st = battle(a, b, phase=10)
    dice = ByDie(d100=[100, 1], d6=[6] * 40, d4=[4])  # clubs strike first (id order), then the jaguars
    events = melee_play.resolve(st, dice)
    lost = next(e for e in events if e["type"] == "melee" and e["unit"] == "jaguars")["hits"]
    assert b.figures == 21 - lost and b.ranks == -(-b.figures // 10)
    rec = next(e for e in events if e["type"] == "recoil")
    assert rec["cm"] == lost and "GF seed 003 l.989" in rec["citations"][0]
    assert melee_play.engagements(st)  # the winner followed: still in base contact


def test_figures_in_contact_count_only_the_overlap():
    a, b = _jaguars(), _clubs(x=100)  # fronts overlap on 10 cm: 5 figures of 2 cm each
    st = battle(a, b, phase=10)
    assert melee_play.figures_in_contact(a, b) == (5, "front")
    assert melee_play.figures_in_contact(b, a) == (5, "front")


def test_a_flank_attack_reads_flank_and_disorder_like_the_referee():
    b = _clubs()
    side = troop("side", "A", figures=3, figures_max=3, frontage=3, ranks=1, x=101, y=75, heading=270,
                 melee_weapon="maquahuitl", klass="A", charging=True)
    st = battle(b, side, phase=10)
    n, where = melee_play.figures_in_contact(side, b)
    assert n == 3
    p = melee_play.preview(st, "side", "clubs")["a_on_b"]
    r = REF.adjudicate({**_hand(figures=3, ranks=1, extra=["Attaquant l'ennemi sur le flanc."])})
    assert p["percent"] == r["multiplied_pct"] and "GF-H6" in r["citations"]
    events = melee_play.on_contact(st, "side", "clubs", ByDie(d4=[4]))
    assert b.disorder and events[0]["type"] == "disorder" and events[1]["cause"] == "flank_or_rear"
    assert any(m["modifier"] == "attacked_flank" for m in events[1]["ruling"]["modifiers"])


def test_a_rear_attack_is_plus_20():
    b = _clubs()
    rear = troop("rear", "A", figures=10, figures_max=10, ranks=1, x=90, y=71, heading=0,
                 melee_weapon="maquahuitl", klass="A", charging=True)
    st = battle(b, rear, phase=10)
    sit, why = melee_play.situation(st, rear, b)
    assert {"modifier": "rear"} in sit["modifiers"] and any("rear sector" in w for w in why)


def test_a_routing_unit_does_not_strike_back():
    a, b = _jaguars(), _clubs(status="rout")
    st = battle(a, b, phase=10)
    events = melee_play.resolve(st, Always(1))
    assert [e["hits"] for e in events if e["type"] == "melee" and e["unit"] == "clubs"] == [0]
    assert "OR-GF55" in next(e for e in events if e["type"] == "melee" and e["unit"] == "clubs")["citations"]


def test_each_loss_may_be_a_capture_worth_an_omen_point():
    a, b = _jaguars(), _clubs()
    st = battle(a, b, phase=10)
    events = melee_play.resolve(st, Always(1))
    caps = [e for e in events if e["type"] == "capture"]
    lost_b = 30 - b.figures
    cap_b = next(c for c in caps if c["victim"] == "clubs")
    assert cap_b["captured"] == lost_b and st.omens["A"] == lost_b  # every d6 shows 1 (l.950)
    assert "Sur un résultat de 1" in line(950)


def test_pursuit_follows_the_loser_in_phase_1():
    a, b = _jaguars(), _clubs()
    st = battle(a, b, phase=10)
    b.status = "ok"
    morale_play.apply_result(st, b, "DER", False, a, deferred=True)
    a.pending = {"move": "poursuite", "target": "clubs"}
    y0 = b.y
    events = morale_play.automatic_moves(st)
    assert [e["type"] for e in events] == ["automatic_move", "pursuit"]
    assert b.y < y0 and a.disorder


def test_a_figure_without_a_printed_melee_weapon_cannot_strike_and_the_game_goes_on():
    a = _jaguars(melee_weapon=None)
    b = _clubs()
    st = battle(a, b, phase=10)
    events = melee_play.resolve(st, Always(1))
    mine = next(e for e in events if e["type"] == "melee" and e["unit"] == "jaguars")
    assert mine["hits"] == 0 and "cannot strike" in mine["explanation"][-1]
    assert a.figures < 20  # the clubs still strike


def test_a_character_strikes_with_his_combat_modifier_and_a_monster_without_ranks():
    hero = troop("hero", "A", kind="character", klass=None, figures=1, figures_max=1, frontage=1, ranks=1,
                 melee_weapon="maquahuitl", armour="coton", CM=40, FM=3, FC=4, x=90, y=79)
    b = _clubs()
    st = battle(hero, b, phase=10)
    p = melee_play.preview(st, "hero", "clubs")["a_on_b"]
    r = REF.adjudicate({"kind": "melee", "attacker": "Homme", "attacker_class": "personnage", "weapon": "maquahuitl",
                        "target_armour": "saurien", "figures_in_contact": 1, "target": "unité",
                        "character": {"CM": 40, "FM": 3, "FC": 4},
                        "modifiers": [{"modifier": "L'ennemi a des boucliers."}]})
    assert p["percent"] == r["multiplied_pct"] == 11 + 40 + 6 - 2  # GF-B12: the CM adds to his PBC
    beast = troop("beast", "A", kind="monster", race="grand_saurien", klass=None, figures=1, figures_max=1,
                  frontage=1, ranks=1, base_w=6.0, base_d=6.0, armour="saurien", x=90, y=80.5)
    st = battle(beast, b, phase=10)
    sit, _ = melee_play.situation(st, beast, b)
    assert "ranks" not in sit and "weapon" not in sit and sit["attacker"] == "grand_saurien"
    assert melee_play.preview(st, "beast", "clubs")["a_on_b"]["percent"] == REF.adjudicate(sit)["multiplied_pct"]


def test_a_controlling_character_fights_with_his_unit_and_is_wounded_last():
    hero = troop("hero", "A", kind="character", klass=None, figures=1, figures_max=1, frontage=1, ranks=1,
                 melee_weapon="maquahuitl", armour="coton", CM=40, FM=3, FC=4, x=90, y=90)  # behind his unit
    a, b = _jaguars(led_by="hero"), _clubs()
    st = battle(a, b, hero, phase=10)
    events = melee_play.resolve(st, Always(1))
    strikes = [e for e in events if e["type"] == "melee"]
    assert [e["unit"] for e in strikes] == ["clubs", "jaguars", "hero"]
    assert strikes[2]["target"] == "clubs" and "GF seed 003 l.995" in strikes[2]["citations"]
    assert any(m["modifier"] == "character_controls" for m in strikes[1]["ruling"]["modifiers_applied"])
    assert hero.wounds == [] and hero.alive  # the clubs' blows fell on the jaguars
    lost_b = 30 - b.figures
    assert lost_b == strikes[1]["hits"] + strikes[2]["hits"]


def test_a_flyer_at_flight_altitude_is_in_contact_with_no_one_on_the_ground():
    bird = troop("bird", "A", kind="creature", race="pterodactyle", klass=None, figures=3, figures_max=3,
                 frontage=3, ranks=1, x=90, y=79, altitude="flight")
    b = _clubs()
    st = battle(bird, b, phase=10)
    assert melee_play.engagements(st) == []
    bird.altitude = "combat"
    assert [(x.id, y.id) for x, y in melee_play.engagements(st)] == [("bird", "clubs")]
