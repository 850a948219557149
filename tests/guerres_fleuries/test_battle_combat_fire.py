"""Fire in battle (phase 8) against the part-1 referee on the same situation: same percentage, same
casualties for the same d100; eligibility (arc, range, sight, melee, woods), priorities, simultaneous
removal and the morale test of every unit that lost figures."""

from __future__ import annotations

import itertools
import math

import pytest
from guerres_fleuries.battle_combat_kit import Always, ByDie, battle, troop
from guerres_fleuries.seed import line

from oriflamme.geometry import tabletop
from oriflamme.rulesets.guerres_fleuries.battle import combat_data, fire_play
from oriflamme.rulesets.guerres_fleuries.battle.fighters import depth, pose, width
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _archers(**kw):
    base = dict(klass="C", missile="arc", order="tirer", x=90, y=90)
    base.update(kw)
    return troop("archers", "A", **base)


def _saurians(**kw):
    base = dict(race="saurien", figures=30, figures_max=30, frontage=10, ranks=3, shields=True, x=90, y=64)
    base.update(kw)
    return troop("saurians", "B", **base)


def _gap(a, b) -> float:
    """Face to face, the target wider than the shooter: every firing figure is as far from the target as
    the shooter's front edge is from the target's (OR-GF60)."""
    assert a.heading == 0 and b.heading == 180 and width(b) >= width(a) and abs(a.x - b.x) < 1e-9
    return (a.y - depth(a) / 2) - (b.y + depth(b) / 2)


def _corner_distance(a, b) -> float:
    """The farthest points of two rectangles are corners: the largest corner-to-corner distance."""
    ca = tabletop.corners(pose(a), width(a), depth(a))
    cb = tabletop.corners(pose(b), width(b), depth(b))
    return max(math.dist(p, q) for p, q in itertools.product(ca, cb))


def _hand_situation(a, b) -> dict:
    # written from the seed: bow against a Saurian, read in the "Saurien" column (l.1478, OR-GF59), class C
    # shooter (l.1500), shields (l.1499), 3 ranks (l.1502, GF-E4)
    return {"kind": "fire", "shooter_race": "Homme", "weapon": "Arc", "distance_cm": round(_gap(a, b), 3),
            "target_armour": "Saurien", "firing_figures": 20, "target": "unité", "shooter_class": "C",
            "target_ranks": 3, "modifiers": [{"modifier": "Si la cible est équipée de boucliers."}]}


def test_preview_is_the_referee_on_the_same_situation():
    a, b = _archers(), _saurians(armour="sans_armure")
    st = battle(a, b)
    p = fire_play.preview(st, "archers", "saurians")
    r = REF.adjudicate(_hand_situation(a, b))
    assert p["eligible"] and r["in_range"]
    assert p["percent"] == r["final_pct"] and p["eliminated"] == r["eliminated"]
    assert p["extra_if_d100_at_most"] == r["extra_if_d100_at_most"]
    assert r["band"] == "longue" and r["base_pct"] == 8 and line(1478).split("\t")[-1] == "8"
    assert (p["percent"], p["extra_if_d100_at_most"]) == (60, 60)
    assert p["ruling"]["explanation"] == r["explanation"]
    assert "GF seed 003 l.1478" in p["citations"]


@pytest.mark.parametrize("d100", [1, 60, 61, 100])
def test_resolve_removes_what_the_referee_rules_for_that_d100(d100):
    a, b = _archers(), _saurians(armour="sans_armure")
    st = battle(a, b)
    expected = REF.adjudicate({**_hand_situation(a, b), "d100": d100})
    hits = expected["eliminated"] + (1 if expected["extra"] else 0)
    dice = ByDie(d100=[d100], d4=[4])
    events = fire_play.resolve(st, dice)
    fire = next(e for e in events if e["type"] == "fire")
    assert fire["hits"] == hits and fire["d100"] == d100 and fire["target"] == "saurians"
    assert b.figures == 30 - hits
    morale = [e for e in events if e["type"] == "morale"]
    assert [m["unit"] for m in morale] == (["saurians"] if hits else [])
    if hits:
        assert morale[0]["cause"] == "fire_losses" and "GF Le tir; GF seed 003 l.828" in morale[0]["citations"]


def test_no_d100_is_rolled_when_the_percentage_is_a_whole_hundred():
    a = _archers(klass="B")
    b = troop("target", "B", figures=10, figures_max=10, ranks=1, x=90, y=60)  # (13 + 2) × 20 / 3 = 100 %
    st = battle(a, b)
    p = fire_play.preview(st, "archers", "target")
    assert (p["percent"], p["eliminated"], p["extra_if_d100_at_most"]) == (100, 1, 0)
    dice = ByDie(d4=[4])
    fire_play.resolve(st, dice)
    assert dice.count(100) == 0 and b.figures == 9


def test_firing_ranks_follow_the_weapon_and_woods():
    slings = troop("slings", "A", missile="fronde", figures=30, figures_max=30, ranks=3, order="tirer", x=90, y=90)
    bows = troop("bows", "A", missile="arc", figures=30, figures_max=30, ranks=3, order="tirer", x=40, y=90)
    st = battle(slings, bows)
    assert fire_play.firing_figures(st, slings)[0] == 10  # sling: 1 rank (l.1509)
    assert fire_play.firing_figures(st, bows)[0] == 20  # bow: 2 ranks (l.1511)
    wood = [{"id": "w", "kind": "bois", "name": "wood", "points": [[20, 80], [60, 80], [60, 100], [20, 100]]}]
    st = battle(slings, bows, elements=wood)
    n, why = fire_play.firing_figures(st, bows)
    assert n == 10 and "first rank" in why[0]  # l.726


def test_fire_arc_range_sight_and_melee_exclude_targets():
    a = _archers()
    side = _saurians(x=150, y=90)  # straight to the right: outside the 45° arc
    st = battle(a, side)
    e = fire_play.eligibility(st, a, side)
    assert not e["eligible"] and "OR-GF50" in e["citations"] and combat_data.data().fire_arc.ref in e["citations"]
    half_in = _saurians(x=108, y=80, figures=5, figures_max=5, frontage=5, ranks=1)  # partly in the arc
    assert fire_play.eligibility(battle(a, half_in), a, half_in)["eligible"]
    far = _saurians(y=40)
    e = fire_play.eligibility(battle(a, far), a, far)
    assert not e["eligible"] and "GF-E7" in e["citations"]
    hill = [{"id": "h", "kind": "colline_abrupte", "name": "rock", "points": [[70, 75], [110, 75], [110, 80], [70, 80]]}]
    b = _saurians()
    e = fire_play.eligibility(battle(a, b, elements=hill), a, b)
    assert not e["eligible"] and "not visible" in e["reasons"][0]
    friend_in_melee = troop("spears", "A", x=90, y=68, frontage=10, ranks=1, figures=10)  # touches b's front
    e = fire_play.eligibility(battle(a, b, friend_in_melee), a, b)
    assert not e["eligible"] and "in melee" in e["reasons"][0]


def test_priorities_choose_a_charging_enemy_before_the_ordered_nearest_one():
    a = _archers(target="near")
    near = _saurians(x=80, y=72, figures=10, figures_max=10, ranks=1)
    near.id = near.name = "near"
    charger = _saurians(x=104, y=68, figures=5, figures_max=5, frontage=5, ranks=1, order="charger",
                        target="archers")
    charger.id = charger.name = "charger"
    st = battle(a, near, charger)
    t, _, steps, cites = fire_play.choose_target(st, a)
    assert t.id == "charger" and "priority 1" in steps[0] and cites == ["GF seed 003 l.1456"]
    charger.order = None
    t, _, steps, _ = fire_play.choose_target(st, a)
    assert t.id == "near" and "ordered target" in steps[0]


def test_fire_is_simultaneous_both_volleys_use_the_figures_before_any_removal():
    a = troop("a", "A", missile="arc", order="tirer", x=90, y=90)
    b = troop("b", "B", missile="arc", order="tirer", x=90, y=75)
    st = battle(a, b)
    before = {u: fire_play.preview(st, u, v)["percent"] for u, v in (("a", "b"), ("b", "a"))}
    events = fire_play.resolve(st, Always(1))  # every residual hits, every morale d4 is 1
    fires = {e["unit"]: e for e in events if e["type"] == "fire"}
    assert fires["a"]["percent"] == before["a"] and fires["b"]["percent"] == before["b"]
    kinds = [e["type"] for e in events]
    assert kinds.index("casualties") > max(i for i, k in enumerate(kinds) if k == "fire")
    assert a.figures == 20 - fires["b"]["hits"] and b.figures == 20 - fires["a"]["hits"]


def test_a_unit_without_eligible_target_keeps_its_fire():
    a = _archers()
    st = battle(a, _saurians(y=10))
    ev = fire_play.resolve(st, ByDie())
    assert ev[0]["target"] is None and "keeps its fire" in ev[0]["explanation"][0]


def test_a_character_controlling_a_unit_cannot_be_targeted_and_a_lone_one_takes_wounds():
    a = _archers()
    hero = troop("hero", "B", kind="character", figures=1, figures_max=1, frontage=1, ranks=1, x=90, y=80,
                 armour="coton", FM=3)
    guards = _saurians(x=40, y=40, led_by="hero")
    st = battle(a, hero, guards)
    e = fire_play.eligibility(st, a, hero)
    assert not e["eligible"] and "GF seed 003 l.881" in e["citations"]
    guards.led_by = None
    p = fire_play.preview(st, "archers", "hero")
    assert p["ruling"]["casualties"] == "wounds" and p["ruling"]["target"] == "character"
    # 20 bows at a character in cotton, short range: wounds rolled on the characters' table
    dice = Always(100)
    events = fire_play.resolve(st, dice)
    wounds = [e for e in events if e["type"] == "wound"]
    assert len(wounds) == p["eliminated"] and all(w["ruling"]["table"] == "personnages" for w in wounds)


def test_the_corner_to_corner_reading_is_one_data_switch_away(monkeypatch):
    a, b = _archers(), _saurians()
    assert fire_play.distance(a, b)[0] == pytest.approx(_gap(a, b)) == pytest.approx(21)
    d = combat_data.data()
    assert d.fire_range.measure == "firing_figures" and "OR-GF60" in d.fire_range.decision
    corner = d.model_copy(update={"fire_range": d.fire_range.model_copy(update={"measure": "farthest_points"})})
    monkeypatch.setattr(combat_data, "data", lambda: corner)
    dist, how = fire_play.distance(a, b)
    assert dist == pytest.approx(_corner_distance(a, b)) and "GF-E7" in how
    assert "distance maximale" in line(1465)


def test_only_the_files_that_see_the_target_fire():
    a, b = _archers(), _saurians()
    # a house hides the target from the archers' four left files (their places at x = 81, 83, 85, 87)
    house = [{"id": "house", "kind": "hameau", "name": "house", "points": [[70, 76], [92, 76], [92, 80], [70, 80]]}]
    st = battle(a, b, elements=house)
    n, why = fire_play.firing_figures(st, a, b)
    files = fire_play.seeing_files(st, a, b)
    # from x = 87 the line to the target's far right corner (100, 61) is still inside the house at
    # y = 80 (x = 90.9 < 92); from x = 89 every line to (100, 67) passes right of it
    assert files == 6 and n == 12 and "4 of the 10 files cannot see" in why[0]
    p = fire_play.preview(st, "archers", "saurians")
    assert p["firing_figures"] == n and p["situation"]["firing_figures"] == n
    assert "seules les figurines ayant la visibilité peuvent tirer" in line(844)
