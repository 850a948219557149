"""Omens and the divine intervention as actions of the battle (GF seed 003 l.1324 "1 point de présage peut
être dépensé pour rejeter un jet de dé", l.950 captures; l.155 the priest's skill "Intervention divine",
l.1700-1711 its table; OR-GF115, OR-GF116): offered by legal_actions with their odds, refused citing the
rule with the state unchanged, applied with their explanation."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line

from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from oriflamme.rulesets.guerres_fleuries.battle import lasting, omens


def _failed_test_in_phase_2(seed="omens"):
    rs = ruleset()
    g = game(seed)
    to_phase(g, 2)
    st = rs.clone(g.state)
    side = st.acting
    u = next(v for v in st.side_units(side) if v.kind == "troop" and not v.tested)
    st.dice = FixedDice([100], st.dice.count)  # the command test fails
    rs.apply(st, {"type": "command_test", "side": side, "unit": u.id})
    return rs, st, side, u


def test_an_omen_point_rerolls_a_failed_command_test():
    assert "1 point de présage peut être dépensé pour rejeter un jet de dé" in line(1324)
    rs, st, side, u = _failed_test_in_phase_2()
    assert "red" in u.markers
    legal = [a for a in rs.legal_actions(st) if a.type == "omen"]
    assert not legal  # no omen point yet
    before = rs.digest(st)
    with pytest.raises(IllegalAction) as exc:
        rs.apply(st, {"type": "omen", "side": side, "unit": u.id})
    assert "l.1324" in exc.value.ref and rs.digest(st) == before
    st.omens[side] = 1
    legal = [a for a in rs.legal_actions(st) if a.type == "omen"]
    assert [a.unit for a in legal] == [u.id]
    ruling = rs.explain(st, legal[0].to_json())
    test_ev = omens.last_test(st, u.id)
    assert ruling["percent"] == test_ev["ruling"]["threshold"] and "OR-GF115" in ruling["citations"]
    st.dice = FixedDice([1], st.dice.count)  # the new roll passes
    rs.apply(st, legal[0])
    assert st.omens[side] == 0 and "red" not in u.markers
    assert [e["type"] for e in st.log[-2:]] == ["omen", "command_test"] and st.log[-1]["result"] == "passed"


def test_omens_are_offered_in_phase_3_before_the_orders_only():
    rs, st, side, u = _failed_test_in_phase_2("omens-3")
    st.omens[side] = 2
    while st.phase == 2:
        acts = [a for a in rs.legal_actions(st) if a.type == "command_test"]
        st.dice = FixedDice([1] * 5, st.dice.count)
        rs.apply(st, acts[0] if acts else next(a for a in rs.legal_actions(st)))
    assert st.phase == 3
    if st.acting == side:
        assert any(a.type == "omen" and a.unit == u.id for a in rs.legal_actions(st))


def test_a_priest_calls_for_a_divine_intervention_once_a_battle():
    """l.155: "Il ne peut le faire qu'une fois par jour et par bataille. Il doit être en contact base-contre-base
    avec l'unité qu'il veut secourir. Il fait un jet sur la table des interventions divines." """
    assert "une fois par jour et par bataille" in line(155)
    rs = ruleset()
    g = game("intervention")
    to_phase(g, 3)
    st = rs.clone(g.state)
    priest = next((v for v in st.units.values() if "Intervention divine" in v.skills), None)
    assert priest is not None, "the bundled Aztec priest lists the skill"
    side = priest.side
    if st.acting != side:
        pytest.skip("the other side orders first in this game")
    unit = next(v for v in st.side_units(side) if v.kind == "troop")
    before = rs.digest(st)
    with pytest.raises(IllegalAction) as exc:
        rs.apply(st, {"type": "intervene", "side": side, "unit": priest.id, "target": unit.id})
    assert "l.155" in exc.value.ref and rs.digest(st) == before
    # base to base behind the unit
    rear = tt.moved(unit.pose, -(unit.depth / 2 + priest.depth / 2))
    priest.x, priest.y, priest.heading = rear.x, rear.y, unit.heading
    for v in st.units.values():
        if v.id not in (priest.id, unit.id) and v.alive and v.footprint().intersects(priest.footprint()):
            v.x += 40
    acts = [a for a in rs.legal_actions(st) if a.type == "intervene"]
    assert any(a.unit == priest.id and a.target == unit.id for a in acts)
    ruling = rs.explain(st, {"type": "intervene", "side": side, "unit": priest.id, "target": unit.id})
    assert abs(sum(o["p"] for o in ruling["outcomes"]) - 1) < 1e-9 and "OR-GF116" in ruling["citations"]
    unit.figures -= 5
    st.dice = FixedDice([50], st.dice.count)  # 47-56: "Les morts ressuscitent. L'unité est « comme neuve. »"
    rs.apply(st, {"type": "intervene", "side": side, "unit": priest.id, "target": unit.id})
    assert unit.figures == unit.figures_max
    ev = [e for e in st.log if e["type"] == "intervention"][-1]
    assert ev["d100"] == 50 and "GF seed 003 l.1707" in ev["ruling"]["citations"]
    before = rs.digest(st)
    with pytest.raises(IllegalAction) as exc:
        rs.apply(st, {"type": "intervene", "side": side, "unit": priest.id, "target": unit.id})
    assert "already" in exc.value.reason and rs.digest(st) == before


def test_an_intervention_that_frees_the_unit_of_command_tests_lasts_the_battle():
    rs = ruleset()
    g = game("intervention-2")
    to_phase(g, 3)
    st = rs.clone(g.state)
    from oriflamme.rulesets.guerres_fleuries.battle import spells, turn
    priest = next(v for v in st.units.values() if "Intervention divine" in v.skills)
    unit = next(v for v in st.side_units(priest.side) if v.kind == "troop")
    st.dice = FixedDice([30], st.dice.count)  # 22-41 (l.1705)
    out = spells.intervention(st, priest, unit, st.dice)
    turn.record(st, [out["event"]])
    assert lasting.has(st, unit.id, "no_command_tests")["until_turn"] is None
    st.turn += 5
    unit.tested = False
    assert not turn.needs_command_test(st, unit)


@pytest.mark.parametrize("roll, extra", [(71, 1), (90, 2)])
def test_the_extra_casualties_of_an_intervention_are_added_to_each_volley(roll, extra):
    """l.1709-1710: "L'unité inflige une (deux) perte(s) supplémentaire(s) à ses ennemis quelque soit les résultats
    des dés pendant 1d6 tours" (OR-GF116)."""
    from guerres_fleuries.battle_combat_kit import ByDie, battle, troop

    from oriflamme.rulesets.guerres_fleuries.battle import fire_play, spells
    from oriflamme.rulesets.guerres_fleuries.battle.actions import record
    from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries
    priest = troop("priest", "A", kind="character", type="Prêtre mineur", figures=1, figures_max=1, frontage=1,
                   ranks=1, x=90, y=93.5, skills=["Intervention divine"])
    archers = troop("archers", "A", klass="C", missile="arc", order="tirer", x=90, y=90)
    target = troop("target", "B", figures=10, figures_max=10, ranks=1, x=90, y=60)
    st = battle(priest, archers, target)
    assert spells.intervention_check(st, priest, archers)[0]
    out = spells.intervention(st, priest, archers, ByDie(d100=[roll], d6=[3]))
    record(st, [out["event"]] + out["events"])
    assert lasting.has(st, "archers", "extra_casualties")["until_turn"] == st.turn + 2
    pv = fire_play.plan_preview(st, "archers")["volleys"][0]
    expected = GuerresFleuries().adjudicate({**pv["situation"], "d100": 100})
    base = expected["eliminated"] + (1 if expected.get("extra") else 0)
    events = fire_play.resolve(st, ByDie(d100=[100], d4=[4], d6=[6] * 20))
    fire = next(e for e in events if e["type"] == "fire")
    assert fire["hits"] == base + extra and "OR-GF116" in fire["citations"]
