"""Phase 5: a formation change or a cancelled one as a reaction, and the fire reaction's condition on
the last turn (GF seed 003 l.287, l.677; OR-GF130, OR-GF131)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_engine_kit import ruleset
from guerres_fleuries.test_battle_engine_reactions import FirstThen, charged_state
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from oriflamme.rulesets.guerres_fleuries.battle import moves, reactions, turn

SEED_287 = ("Si elle passe le test, elle ne peut que contre-charger, s'évader, changer immédiatement de formation "
            "(mais avec certaines limitations), annuler un changement de formation ou tirer sur l'unité qui charge")


@pytest.fixture(scope="module")
def charged():
    return charged_state()


@pytest.fixture(scope="module")
def roomy(charged):
    """The same, B2 standing 25 cm farther back: room for a column from its centre."""
    t = ruleset().clone(charged)
    b2 = t.units["B2"]
    p = tt.moved(b2.pose, -25)
    b2.x, b2.y = p.x, p.y
    return t


def react_only(st, reaction, d100):
    """The reaction alone, the game not carried on to the next decision."""
    t = ruleset().clone(st)
    t.dice = FirstThen([d100], t.dice.count)
    reactions.check(t, t.units["B2"], reaction)
    reactions.react(t, t.units["B2"], reaction)
    return t


def react(st, reaction, d100):
    rs = ruleset()
    t = rs.clone(st)
    t.dice = FirstThen([d100], t.dice.count)
    rs.apply(t, {"type": "react", "side": "B", "unit": "B2", "reaction": reaction})
    return t


def test_the_seed_lists_the_reactions(charged):
    from guerres_fleuries.seed import line
    assert SEED_287 in line(287) and "Elle ne peut pas changer de face" in line(287)
    assert "Le tir n'est possible que si l'unité n'a pas tiré lors du tour précédent" in line(287)
    assert "Cela consume la totalité du mouvement de l'unité" in line(677)
    rows = reactions.table()
    assert {"counter_charge", "evade", "form_column", "form_line", "form_open", "cancel_change", "fire"} <= set(rows)
    assert all("l.287" in r.ref for r in rows.values())
    assert all(r.test for k, r in rows.items() if k != "stand")


def test_a_unit_in_line_may_change_into_column_or_open_order_not_into_line(charged):
    legal = [a.reaction for a in ruleset().legal_actions(charged) if a.unit == "B2"]
    assert "form_column" in legal and "form_open" in legal
    assert "form_line" not in legal and "cancel_change" not in legal  # in line already; ordered to wait
    rs = ruleset()
    before = rs.digest(charged)
    with pytest.raises(IllegalAction) as e:
        rs.apply(rs.clone(charged), {"type": "react", "side": "B", "unit": "B2", "reaction": "form_line"})
    assert "l.287" in e.value.ref and "l.677" in e.value.ref
    with pytest.raises(IllegalAction) as e:
        rs.apply(rs.clone(charged), {"type": "react", "side": "B", "unit": "B2", "reaction": "cancel_change"})
    assert "l.287" in e.value.ref and "OR-GF130" in e.value.ref
    assert rs.digest(charged) == before


def test_a_passed_test_changes_formation_at_once_from_the_centre_facing_as_before(roomy):
    u0 = roomy.units["B2"]
    t = react_only(roomy, "form_column", 1)
    u = t.units["B2"]
    ev = next(e for e in t.log if e["type"] == "manoeuvre" and e.get("unit") == "B2")
    # "Si elle change de formation, elle le fait immédiatement" — in phase 5, before any move
    assert ev["phase"] == 5 and "l.677" in ev["ref"] and ev["decision"] == "OR-GF130"
    assert u.formation == "column" and u.frontage < u0.frontage
    assert (u.x, u.y, u.heading) == (u0.x, u0.y, u0.heading)  # "Elle ne peut pas changer de face" (l.287)
    # "Cela consume la totalité du mouvement de l'unité" (l.677): it waits for the charge
    assert u.order == "attendre"
    assert u.moved and u.id not in [m.id for m in turn.movers(t, "B")]
    # played on: no move of its own in phase 6, it takes the charge in column
    t = react(roomy, "form_column", 1)
    assert not any(e["type"] == "move" and e.get("unit") == "B2" and e["turn"] == 1 for e in t.log)
    assert t.units["B2"].formation == "column"


def test_no_room_for_the_new_formation_it_stays_as_it_was(charged):
    """20 cm from the charger, half of whose charge is made, a column from its centre would run into it."""
    t = react_only(charged, "form_column", 1)
    u = t.units["B2"]
    ev = next(e for e in t.log if e["type"] == "manoeuvre_blocked" and e.get("unit") == "B2")
    assert "OR-GF39" in ev["decision"] and u.formation == "line" and not u.moved
    assert u.order == charged.units["B2"].order  # it keeps its order, as after a failed test


def test_a_failed_test_keeps_the_formation_and_takes_the_charge(charged):
    t = react(charged, "form_open", 100)
    ev = next(e for e in t.log if e["type"] == "reaction" and e.get("unit") == "B2")
    assert ev["result"] == "failed"
    assert t.units["B2"].formation == "line"
    assert not any(e["type"] == "manoeuvre" and e.get("unit") == "B2" for e in t.log)


def test_a_formation_change_ordered_may_be_cancelled():
    """The unit ordered into column is charged: it may cancel the change (l.287) and stays in line."""
    rs = ruleset()
    from guerres_fleuries.battle_engine_kit import game, to_phase
    import random
    from oriflamme.core.dice import SampledDice
    g = game("reaction")
    to_phase(g, 3)
    base = rs.clone(g.state)
    a1, target = base.units["A1"], base.units["B2"]
    p = tt.moved(a1.pose, a1.depth / 2 + 20 + target.depth / 2)
    target.x, target.y, target.heading = p.x, p.y, (a1.heading + 180) % 360
    for u in (a1, target):
        u.unmark("red")
    for seed in range(40):
        st = rs.clone(base)
        st.dice = SampledDice(random.Random(seed), st.dice.count)
        rs.apply(st, {"type": "orders", "side": "A", "orders": {"A1": {"order": "charger", "target": "B2"}}})
        rs.apply(st, {"type": "orders", "side": "B", "orders": {"B2": {"order": "colonne", "target": None}}})
        if st.phase == 5 and "B2" in st.reacting:
            break
    else:
        pytest.skip("no reaction in 40 tries")
    legal = [a.reaction for a in rs.legal_actions(st) if a.unit == "B2"]
    assert "cancel_change" in legal
    t = react_only(st, "cancel_change", 1)
    u = t.units["B2"]
    assert u.order == "attendre" and u.formation == "line"
    ev = next(e for e in t.log if e["type"] == "manoeuvre" and e.get("unit") == "B2")
    assert "l.287" in ev["ref"]
    # played on: the change it was ordered is not made in phase 6
    t = react(st, "cancel_change", 1)
    assert t.units["B2"].formation == "line"
    assert not any(e["type"] == "manoeuvre" and e.get("unit") == "B2" and e["phase"] == 6 for e in t.log)


# --- the fire reaction's condition (l.287, OR-GF131) ---------------------------------------------------------
def fired_last_turn(st, uid):
    st.log.append({"n": len(st.log), "turn": st.turn - 1, "phase": 8, "type": "fire", "side": st.units[uid].side,
                   "unit": uid, "target": "A1", "text": "", "text_fr": "", "ref": "GF seed 003 l.301"})


def with_missile(st):
    rs = ruleset()
    t = rs.clone(st)
    t.units["B2"].missile = "javeline"
    return t


def test_a_unit_that_did_not_fire_last_turn_may_fire_at_the_charger(charged):
    t = with_missile(charged)
    assert "fire" in reactions.choices(t, t.units["B2"])
    ok, steps = reactions.fire_condition(t, t.units["B2"])
    assert ok and "did not fire" in steps[0]


def test_a_unit_that_fired_last_turn_may_not_fire_at_a_charger_reaching_it_within_half_the_turn(charged):
    rs = ruleset()
    t = with_missile(charged)
    fired_last_turn(t, "B2")
    a1, b2 = t.units["A1"], t.units["B2"]
    gap = tt.nearest_distance(a1.footprint(), b2.footprint())
    reach, _ = moves.allowance(a1, "charge")
    assert gap <= reach * reactions.fire_rule().charger_share  # the test position: 20 cm, half done
    assert "fire" not in reactions.choices(t, b2)
    before = rs.digest(t)
    with pytest.raises(IllegalAction) as e:
        rs.apply(t, {"type": "react", "side": "B", "unit": "B2", "reaction": "fire"})
    assert "l.287" in e.value.ref and "OR-GF131" in e.value.ref and "fired in turn" in str(e.value)
    assert rs.digest(t) == before


def test_a_unit_that_fired_last_turn_may_fire_at_a_charger_that_needs_more_than_half_the_turn(charged):
    t = with_missile(charged)
    fired_last_turn(t, "B2")
    a1, b2 = t.units["A1"], t.units["B2"]
    reach, _ = moves.allowance(a1, "charge")
    # B2 stands farther back: the charger still needs more than half its charge move to reach it
    gap = tt.nearest_distance(a1.footprint(), b2.footprint())
    p = tt.moved(b2.pose, -(reach * reactions.fire_rule().charger_share - gap + 1))
    b2.x, b2.y = p.x, p.y
    ok, steps = reactions.fire_condition(t, b2)
    assert ok and "more than half the turn" in steps[-1]
    assert "fire" in reactions.choices(t, b2)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(d100=st_.integers(1, 100), reaction=st_.sampled_from(["stand", "form_column", "form_open", "counter_charge"]))
def test_a_reaction_never_turns_the_unit_and_a_formation_change_keeps_its_centre(roomy, d100, reaction):
    u0 = roomy.units["B2"]
    t = react_only(roomy, reaction, d100)
    u = t.units["B2"]
    assert u.figures == u0.figures
    if reaction != "counter_charge":
        assert (u.x, u.y, u.heading) == (u0.x, u0.y, u0.heading)
        passed = any(e["type"] == "manoeuvre" and e.get("unit") == "B2" for e in t.log[len(roomy.log):])
        assert passed == (reaction.startswith("form_") and d100 <= 40)  # Saurien B: 40 (the referee's cell)
        expected = {"form_column": "column", "form_open": "open"}.get(reaction) if passed else None
        assert u.formation == (expected or "line")
