"""The curses of magic weapons on the table (GF Table des malédictions, seed 003 l.211, l.218; Défiance
l.1204): Possession's d100 each turn of combat or fire, the brigade dissolved and the bearer out of his
side's hands (OR-GF136); Mauvais œil's reaction tests failed (OR-GF137); Défiance breaking a brigade (OR-GF96)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line
from guerres_fleuries.test_battle_engine_reactions import charged_state
from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from oriflamme.rulesets.guerres_fleuries.battle import brigades, curses, orders, reactions, spells
from oriflamme.rulesets.guerres_fleuries.battle.actions import emit


def test_the_rules_are_the_printed_ones():
    assert line(211).startswith("Possession\t" + curses.possession_rule().printed)
    assert line(218).split("\t")[:2] == ["Mauvais œil", curses.evil_eye_rule().printed]
    assert "S'il obtient 20% ou moins" in line(211) and "pour 2 tours" in line(211)
    assert (curses.possession_rule().at_most, curses.possession_rule().turns) == (20, 2)


@pytest.fixture(scope="module")
def at_orders():
    g = game("curses")
    to_phase(g, 3)
    return g.state


def bearer_in_a_brigade(st, curse="Possession"):
    """A's hero bears a cursed weapon and commands a brigade of two units (its table entry)."""
    st = ruleset().clone(st)
    c = st.units["A6"]
    c.curse = curse
    brigades.table(st)[c.id] = {"units": ["A2", "A3"], "dissolved": False}
    return st, c


def fought(st, c):
    emit(st, "melee", f"{c.name} strikes", f"{c.name} frappe", side=c.side, ref="GF seed 003 l.933", unit=c.id,
         target="B1")


@pytest.mark.parametrize("d100, taken", [(20, True), (21, False), (1, True), (100, False)])
def test_possession_takes_the_bearer_on_20_or_less_and_dissolves_his_brigade(at_orders, d100, taken):
    st, c = bearer_in_a_brigade(at_orders)
    fought(st, c)
    st.dice = FixedDice([d100], st.dice.count)
    start = len(st.log)
    curses.roll_possession(st)
    ev = next(e for e in st.log[start:] if e["type"] == "curse")
    assert ev["d100"] == d100 and ev["chance"] == pytest.approx(0.2) and "l.211" in ev["ref"]
    assert ev["result"] == ("taken" if taken else "resisted") and ev["decision"] == "OR-GF136"
    assert curses.possessed(st, c) == taken
    assert brigades.table(st)[c.id]["dissolved"] == taken
    assert any(e["type"] == "brigade_dissolved" for e in st.log[start:]) == taken
    if taken:
        st.turn += curses.possession_rule().turns
        assert curses.possessed(st, c)  # "pour 2 tours": the next two turns
        st.turn += 1
        assert not curses.possessed(st, c)


def test_no_roll_in_a_turn_he_neither_fought_nor_fired(at_orders):
    st, c = bearer_in_a_brigade(at_orders)
    count, start = st.dice.count, len(st.log)
    curses.roll_possession(st)
    assert st.dice.count == count and not any(e["type"] == "curse" for e in st.log[start:])


def test_a_possessed_character_takes_no_order_from_his_side(at_orders):
    rs = ruleset()
    st, c = bearer_in_a_brigade(at_orders)
    st.command["possessed"] = {c.id: st.turn + 1}
    assert not orders.needs_order(st, c) and c not in orders.eligible(st, "A")
    before = rs.digest(st)
    with pytest.raises(IllegalAction) as e:
        orders.check(st, "A", {c.id: ("attendre", None)})
    assert "l.211" in e.value.ref and "OR-GF136" in e.value.ref
    assert rs.digest(st) == before


def test_a_possessed_character_charges_the_nearest_enemy_in_reach_or_does_nothing(at_orders):
    st, c = bearer_in_a_brigade(at_orders)
    st.command["possessed"] = {c.id: st.turn + 1}
    curses.possessed_orders(st, orders.charge_targets)
    targets = orders.charge_targets(st, c)
    if targets:
        assert (c.order, c.target) == ("charger", targets[0][0])
    else:
        assert c.order is None
    # an enemy put 8 cm before him: he charges it
    e = st.units["B3"]
    p = tt.moved(c.pose, c.depth / 2 + 8 + e.depth / 2)
    e.x, e.y, e.heading = p.x, p.y, (c.heading + 180) % 360
    curses.possessed_orders(st, orders.charge_targets)
    assert (c.order, c.target) == ("charger", orders.charge_targets(st, c)[0][0])
    assert st.log[-1]["type"] == "possessed" and "l.211" in st.log[-1]["ref"]


def test_mauvais_oeil_fails_the_reaction_tests_of_the_units_he_controls():
    """l.218: "Toutes les unités embrigadées ou sous le contrôle direct du personnage ratent
    automatiquement leurs tests de réactions." No die is rolled."""
    st = charged_state()
    c = st.units["B5"]
    c.curse = "Mauvais œil"
    u = st.units["B2"]
    u.led_by = c.id
    count = st.dice.count
    reactions.check(st, u, "counter_charge")
    reactions.react(st, u, "counter_charge")
    ev = st.log[-1]
    assert ev["type"] == "reaction" and ev["result"] == "failed" and "l.218" in ev["ref"]
    assert st.dice.count == count and u.order != "charger"


@settings(max_examples=25, deadline=None)
@given(d100=st_.integers(1, 100))
def test_property_possession_is_the_d100_at_most_20(at_orders, d100):
    st, c = bearer_in_a_brigade(at_orders)
    fought(st, c)
    st.dice = FixedDice([d100], st.dice.count)
    curses.roll_possession(st)
    assert curses.possessed(st, c) == (d100 <= 20) == brigades.table(st)[c.id]["dissolved"]


def test_defiance_breaks_the_brigade_of_the_character_it_strikes(at_orders):
    """l.1204: "Si le personnage commande une brigade alors l'une des unités rompt la formation"."""
    assert "Si le personnage commande une brigade alors l'une des unités rompt la formation" in line(1204)
    st, c = bearer_in_a_brigade(at_orders, curse=None)
    priest = st.units["B6"]
    ev = {"explanation": [], "citations": []}
    fc = c.FC
    spells.apply(st, priest, c, "defiance", st.dice, ev)
    assert c.FC == fc - 1
    assert len(brigades.table(st)[c.id]["units"]) == 1
    assert any("leaves it" in s for s in ev["explanation"])
    assert any(e["type"] == "brigade_left" and "l.1204" in e["ref"] for e in st.log)
