"""battle.prebattle_play: reconnaissance and ambush (GF-K3, l.485), deployment order and movement
bases (GF-K5, l.491-493), flank marches (GF-K4, l.505-511)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guerres_fleuries.seed import line
from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry.tabletop import Pose, footprint
from oriflamme.rulesets.guerres_fleuries.battle import prebattle_play as pp
from oriflamme.rulesets.guerres_fleuries.battle.battlefield import Battlefield, load_battlefield


def test_reconnaissance_discovers_the_side_below_half():
    """l.485: 'Le joueur ayant un potentiel le plus faible (-50%) est découvert.'"""
    assert "(-50%) est découvert" in line(485)
    r = pp.reconnaissance({"A": 2, "B": 5})
    assert r["discovered"] == {"A": True, "B": False} and r["ambush"] == "B" and r["ambush_units"] == 1
    r = pp.reconnaissance({"A": 3, "B": 6})     # exactly half: not less than half
    assert r["discovered"] == {"A": False, "B": False} and r["ambush"] is None
    assert "GF-K3" in r["citations"] and any("discovered" in s for s in r["explanation"])
    with pytest.raises(IllegalAction, match="side B's pochteca"):
        pp.reconnaissance({"A": 1, "B": -1})


@given(st.integers(0, 50), st.integers(0, 50))
def test_never_both_discovered(a, b):
    d = pp.reconnaissance({"A": a, "B": b})["discovered"]
    assert not (d["A"] and d["B"])
    assert d["A"] == (a < b / 2)


def test_the_ambush_stays_out_of_the_enemy_zone_and_sight():
    bf = load_battlefield("valley-of-flowers")
    enemy = {"e1": footprint(Pose(100, 15, 180), 20, 4)}
    # in the open, in view of the enemy: refused
    r = pp.ambush_position("A", footprint(Pose(100, 60, 0), 10, 4), bf, enemy)
    assert not r["allowed"] and any("sees it" in s for s in r["explanation"])
    # in B's zone: refused
    r = pp.ambush_position("A", footprint(Pose(60, 20, 0), 10, 4), bf, {})
    assert not r["allowed"] and any("deployment zone" in s for s in r["explanation"])
    # deep in the jaguar wood, out of sight: allowed
    r = pp.ambush_position("A", footprint(Pose(133, 56, 0), 6, 4), bf, enemy)
    assert r["allowed"], r["explanation"]


def test_deployment_order():
    """l.491: the discovered side sets up first; the other uses movement bases."""
    assert "Un joueur reconnu installe ses unités sur la table avant" in line(491)
    r = pp.deployment_order({"A": True, "B": False})
    assert r["on_table_first"] == "A" and r["movement_bases"] == ["B"]
    r = pp.deployment_order({"A": False, "B": False})
    assert r["on_table_first"] is None and r["movement_bases"] == ["A", "B"]


@pytest.mark.parametrize("brigades,d6,expected", [(3, 6, 7), (3, 2, 3), (0, 1, 0), (2, 4, 4)])
def test_movement_bases(brigades, d6, expected):
    """l.493: 'une base par brigade plus 1d6-2 bases supplémentaires' (GF-K5: at least 0)."""
    m = re.search(r"une base par brigade plus 1d(\d)-(\d) bases", line(493))
    assert (int(m[1]), int(m[2])) == (6, 2)
    r = pp.deployment_bases(brigades, FixedDice([d6]))
    assert r["bases"] == expected == brigades + max(0, d6 - 2) and r["die"] == d6


def test_flank_march_plan():
    bf = Battlefield()
    ok = pp.FlankForce("A", "left", 90, 4, points=2000)
    assert pp.flank_march_plan(ok, 4600, bf)["allowed"]
    too_big = pp.FlankForce("A", "left", 90, 4, points=2400)
    assert not pp.flank_march_plan(too_big, 4600, bf)["allowed"]
    wrong_half = pp.FlankForce("B", "right", 90, 4)
    r = pp.flank_march_plan(wrong_half, 4600, bf)
    assert not r["allowed"] and any("half" in s for s in r["explanation"])
    early = pp.FlankForce("B", "right", 20, 3)
    assert not pp.flank_march_plan(early, 4600, bf)["allowed"]


def test_flank_march_entry_and_retries():
    """l.509-511: 5 or 6, +1 with a character, +1 if all class B; two more tries, then never."""
    assert "réussir un score de 5 ou 6" in line(509)
    force = pp.FlankForce("A", "left", 90, 4)
    r = pp.flank_march_attempt(force, 4, FixedDice([4]))
    assert not r["enters"] and r["force"].failures == 1 and not r["lost"]
    with pytest.raises(IllegalAction, match="next try is on turn 5"):
        pp.flank_march_attempt(r["force"], 6, FixedDice([6]))
    r = pp.flank_march_attempt(r["force"], 5, FixedDice([3]))
    r = pp.flank_march_attempt(r["force"], 6, FixedDice([1]))
    assert r["lost"] and r["force"].failures == 3
    with pytest.raises(IllegalAction, match="no longer enter"):
        pp.flank_march_attempt(r["force"], 7, FixedDice([6]))
    lucky = pp.FlankForce("A", "left", 90, 4, with_character=True, all_class_b=True)
    r = pp.flank_march_attempt(lucky, 4, FixedDice([3]))
    assert r["enters"] and r["score"] == 5 and r["force"].entered
    with pytest.raises(IllegalAction, match="already entered"):
        pp.flank_march_attempt(r["force"], 5, FixedDice([6]))
    with pytest.raises(IllegalAction, match="turn 3"):
        pp.flank_march_attempt(pp.FlankForce("A", "left", 90, 4), 3, FixedDice([6]))
