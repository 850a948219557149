"""The detection shifts of the preliminary detection phase (GF seed 003 l.1349-1353; GF-K1;
OR-GF132-134): a target lower than the character (1 left), a turn at dawn or dusk (2 right), half the
base hidden or the base higher (1 right), read off the table and the scenario."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import ScenarioError
from oriflamme.rulesets.guerres_fleuries.battle import fog

from .battle_engine_kit import ruleset
from .seed import line
from .test_battle_encounter import ENCOUNTER, deployed, set_base


def test_the_shifts_are_the_printed_ones():
    assert line(1351).split("\t") == ["Cible sur un terrain bas", "1 gauche"]
    assert line(1352).split("\t") == ["A l'aube ou au crépuscule", "2 droite"]
    assert line(1353).split("\t") == ["La moitié de la base est cachée ou dans un terrain haut", "1 droite"]


def open_corner():
    """As test_battle_encounter's detection test: one B character at (20, 10), two A bases left (one
    behind him, one 40 cm before him in the open corner of the valley), the other B units out of the way."""
    g = deployed()
    st = g.state
    chars = [u for u in st.side_units("B") if u.kind == "character"]
    char = chars[0]
    for o in chars[1:]:
        o.status = "removed"
    for i, u in enumerate(v for v in st.side_units("B") if v.kind != "character"):
        u.x, u.y, u.heading = 110.0 + 12 * i, 6.0, 180.0
    bids = sorted(fog.bases(st))
    near, far = bids[0], bids[1]
    for bid in bids[2:]:
        fog.reveal(st, bid, "test", "test", "test")
    for u in st.side_units("A"):  # the revealed A units out of the way too
        if u.base is None:
            u.x, u.y, u.heading = 170.0, 115.0, 0.0
    char.x, char.y, char.heading = 20.0, 10.0, 180.0
    set_base(st, near, 20.0, 3.0)
    set_base(st, far, 20.0, 50.0)
    return st, char, far


def detect(st, bid, d10):
    st.dice = FixedDice([d10], st.dice.count)
    start = len(st.log)
    fog.detection_phase(st)
    return next(e for e in st.log[start:] if e["type"] == "detection" and e.get("base") == bid)


def test_by_day_on_level_ground_no_shift():
    st, char, far = open_corner()
    assert fog.shifts(st, far, char, "open") == ([], [])
    ev = detect(st, far, 2)
    assert ev["ruling"]["table"]["column"] == "-40" and ev["ruling"]["table"]["shift_total"] == 0


def test_at_dawn_or_dusk_two_columns_right():
    """Column -40 ("3", 80 %) becomes -90 ("7", 40 %): a d10 of 6 fails where it would have found it."""
    st, char, far = open_corner()
    st.scenario = dataclasses.replace(st.scenario, twilight_turns=(st.turn,))
    ev = detect(st, far, 6)
    t = ev["ruling"]["table"]
    assert t["column"] == "-90" and t["cell"] == "7" and t["shift_total"] == 2
    assert ev["chance"] == pytest.approx(0.4) and not ev["revealed"]
    assert any("dawn or dusk" in s for s in ev["ruling"]["explanation"])
    assert "OR-GF134" in ev["ruling"]["citations"]


def test_the_character_on_a_hill_sees_a_lower_target_one_column_left():
    """Tlaloc's hill is a low hill (ground 1): from it, a base on the plain is "sur un terrain bas"."""
    st, char, far = open_corner()
    char.x, char.y = 62.0, 60.0
    set_base(st, far, 62.0, 100.0)
    assert fog.ground(st, 62.0, 60.0) == 1.0 and fog.ground(st, 62.0, 100.0) == 0.0
    terms, steps = fog.shifts(st, far, char, "open")
    assert terms == [{"modifier": "target_low_terrain", "count": 1}] and "lower" in steps[0]
    ev = detect(st, far, 1)
    assert ev["ruling"]["table"]["shift_total"] == -1


def test_a_base_on_the_hill_is_higher_one_column_right():
    st, char, far = open_corner()
    char.x, char.y = 62.0, 20.0
    set_base(st, far, 62.0, 60.0)
    terms, steps = fog.shifts(st, far, char, fog.position_of(st, far, char)[0])
    assert terms == [{"modifier": "half_hidden_or_high", "count": 1}] and "higher" in steps[0]


def test_half_the_base_hidden_behind_a_unit_one_column_right():
    """A unit across the sight lines to two of the base's four corners, not the one to its centre."""
    st, char, far = open_corner()
    screen = next(u for u in st.side_units("B") if u.kind == "troop")
    screen.heading = 90.0
    screen.x, screen.y = 22.0 + screen.depth / 2, 30.0
    assert fog.position_of(st, far, char)[0] == "open"
    terms, steps = fog.shifts(st, far, char, "open")
    assert terms == [{"modifier": "half_hidden_or_high", "count": 1}]
    assert "2 of the 4 sight lines" in steps[0]
    ev = detect(st, far, 2)
    assert ev["ruling"]["table"]["column"] == "-60" and ev["ruling"]["table"]["cell"] == "5"


def test_the_twilight_field_is_checked():
    rs = ruleset()
    doc = rs.scenario_to_json(rs.load_scenario(ENCOUNTER))
    doc["twilight_turns"] = [1, 12]
    sc = rs.scenario_from_json(doc, "twilight test")
    assert sc.twilight_turns == (1, 12)
    assert rs.scenario_to_json(sc)["twilight_turns"] == [1, 12]
    for bad in ([0], [13], ["1"], 1, [True]):
        doc["twilight_turns"] = bad
        with pytest.raises(ScenarioError) as e:
            rs.scenario_from_json(doc, "twilight test")
        assert "twilight_turns" in str(e.value) and "l.1352" in str(e.value)


@settings(max_examples=30, deadline=None)
@given(x=st_.floats(5, 175), y=st_.floats(20, 115), cx=st_.floats(5, 175), cy=st_.floats(5, 115),
       dusk=st_.booleans())
def test_property_the_shifts_follow_the_ground_and_the_hour(x, y, cx, cy, dusk):
    """Wherever the base and the character stand: at most one of each shift, 'lower' exactly when the
    base's ground is below the character's, 'higher' (1 right) whenever it is above; dusk adds 2 right."""
    st, char, far = SETUP
    st = ruleset().clone(st)
    char = st.units[char.id]
    if dusk:
        st.scenario = dataclasses.replace(st.scenario, twilight_turns=(st.turn,))
    char.x, char.y = cx, cy
    set_base(st, far, x, y)
    terms, steps = fog.shifts(st, far, char, fog.position_of(st, far, char)[0])
    ids = [t["modifier"] for t in terms]
    assert len(ids) == len(set(ids)) == len(steps)
    gb, gc = fog.ground(st, x, y), fog.ground(st, cx, cy)
    assert ("target_low_terrain" in ids) == (gb < gc)
    if gb > gc:
        assert "half_hidden_or_high" in ids
    assert ("dawn_or_dusk" in ids) == dusk


SETUP = open_corner()
