"""The turn of a battle (gf-engine): the 11 phases of data/turn.toml against the seed, their order
in play, deployment, command tests, the hidden orders and their reveal, victory."""

from __future__ import annotations

import json
import re

import pytest

from guerres_fleuries.battle_engine_kit import act, game, ruleset, to_phase
from guerres_fleuries.seed import line
from oriflamme.core.errors import IllegalAction
from oriflamme.core.dice import FixedDice
from oriflamme.rulesets.guerres_fleuries.battle import turn, victory
from oriflamme.rulesets.guerres_fleuries.battle.rules import rules


def first_line(ref: str) -> int:
    return int(re.search(r"l\.(\d+)", ref).group(1))


def test_the_eleven_phases_are_the_seeds_in_its_order():
    """Each phase row cites the seed line whose heading is its number and its French name."""
    phases = rules().phases
    assert [p.number for p in phases] == list(range(1, 12))
    for p in phases:
        text = line(first_line(p.ref))
        assert text.lstrip("# ").startswith(f"{p.number} "), (p.id, text)
        assert p.name_fr.lower() in text.lower(), (p.name_fr, text)


def test_the_automatic_table_actions_cite_their_row():
    for (table, low), act_row in rules().automatic.items():
        from oriflamme.rulesets.guerres_fleuries import d100
        row = d100.table(f"automatic_{table}").read(low)
        assert row.low == low
        expected = {"stay": ("ne bouge pas", "stationner"), "retire": ("retire",), "advance": ("avance",),
                    "copy_right": ("droite",), "copy_left": ("gauche",)}[act_row.action]
        assert any(w in row.result for w in expected), (table, low, row.result)


def test_phases_come_in_order_every_turn():
    g = game("phase-order")
    to_phase(g, 1, turn=3)
    seen = [(e["turn"], e["phase_id"]) for e in g.state.log if e["type"] == "phase"]
    ids = [p.id for p in rules().phases]
    assert seen[:22] == [(t, i) for t in (1, 2) for i in ids]


def test_deployment_places_every_unit_in_its_zone_facing_the_enemy():
    from oriflamme.rulesets.guerres_fleuries.battle.deploy import zones
    g = game()
    z = zones(g.state)
    for u in g.state.units.values():
        assert z[u.side].buffer(0.01).covers(u.footprint()), u.id
        assert u.heading == (0.0 if u.side == "A" else 180.0)
    assert g.to_act() == "A" and g.state.phase == 0


def test_a_placement_outside_the_zone_is_refused_and_changes_nothing():
    g = game()
    rs = ruleset()
    before = rs.digest(g.state)
    with pytest.raises(IllegalAction, match="deployment zone") as e:
        act(g, type="place", side="A", unit="A1", x=90, y=60, heading=0)
    assert "l.489" in e.value.ref
    assert rs.digest(g.state) == before


def test_a_unit_is_placed_once_then_deployment_ends_side_by_side():
    g = game()
    u = g.state.units["A1"]
    act(g, type="place", side="A", unit="A1", x=u.x + 1, y=u.y, heading=0)
    with pytest.raises(IllegalAction, match="already been placed"):
        act(g, type="place", side="A", unit="A1", x=u.x + 1, y=u.y, heading=0)
    act(g, type="end_phase", side="A")
    assert g.to_act() == "B"
    act(g, type="end_phase", side="B")
    assert (g.state.turn, g.state.phase) == (1, 2)


def test_command_test_reads_the_class_and_marks_a_failure_red():
    g = game()
    act(g, type="end_phase", side="A")
    act(g, type="end_phase", side="B")
    st = g.state
    rs = ruleset()
    # d100 = 100 fails any class: the red marker (l.269)
    trial = rs.clone(st)
    trial.dice = FixedDice([100], trial.dice.count)
    rs.apply(trial, rs.action_from_json({"type": "command_test", "side": "A", "unit": "A1"}))
    ev = [e for e in trial.log if e["type"] == "command_test"][-1]
    assert ev["result"] == "failed" and "red" in trial.units["A1"].markers
    assert ev["ruling"]["threshold"] >= 40  # class A Homme, before modifiers (GF seed 003 l.1377)
    # d100 = 1 passes
    trial = rs.clone(st)
    trial.dice = FixedDice([1], trial.dice.count)
    rs.apply(trial, rs.action_from_json({"type": "command_test", "side": "A", "unit": "A1"}))
    assert "red" not in trial.units["A1"].markers
    # characters take no test (GF-C5)
    with pytest.raises(IllegalAction, match="no command test"):
        act(g, type="command_test", side="A", unit="A6")


def test_the_command_test_odds_are_exact_and_shown_before_the_roll():
    g = game()
    act(g, type="end_phase", side="A")
    act(g, type="end_phase", side="B")
    rs = ruleset()
    a = rs.action_from_json({"type": "command_test", "side": "A", "unit": "A2"})
    ex = rs.explain(g.state, a)
    outs = rs.chance_outcomes(g.state, a)
    assert sum(o.probability for o in outs) == 1
    passed = next(o for o in outs if o.label == "passed")
    assert ex["percent"] == round(float(passed.probability) * 100)


def submit(g, side: str, order: str = "avancer"):
    rs = ruleset()
    legal = rs.legal_actions(g.state, side)
    a = next(a for a in legal if a.type == "orders" and any(o == order for _, o, _ in a.orders))
    g.apply(a)
    return a


def test_hidden_orders_never_reach_the_other_seat_before_the_reveal():
    g = game("hidden")
    to_phase(g, 3)
    rs = ruleset()
    assert g.to_act() == "A"
    a = submit(g, "A", "avancer")
    st = g.state
    assert st.orders_in == {"A": True, "B": False} and g.to_act() == "B"
    for side in ("B", None):
        v = rs.view(st, side)
        mine = [u for u in v["units"] if u["side"] == "A"]
        assert all(u["order"] is None for u in mine)
        assert any(u["order_hidden"] for u in mine)
        text = json.dumps(v) + json.dumps(rs.visible_events(st, side))
        assert "avancer" not in text and '"orders": {"A' not in text
    own = rs.view(st, "A")
    assert {u["id"]: u["order"]["id"] for u in own["units"] if u["order"]} == {uid: o for uid, o, _ in a.orders}
    # B's own options never list A's orders either
    assert "avancer" not in json.dumps(rs.options(st, "B")["units"].get("A1", {}))
    # B submits: the orders are revealed together, to everyone
    submit(g, "B", "attendre")
    st = g.state
    assert st.revealed
    for side in ("A", "B", None):
        v = rs.view(st, side)
        assert all(u["order"]["id"] == "avancer" for u in v["units"] if u["side"] == "A" and u["order"]
                   and u["kind"] != "character")
    reveal = next(e for e in st.log if e["type"] == "orders_revealed")
    assert reveal["orders"]["A1"]["order"] == "avancer"


def test_the_reveal_cannot_be_undone():
    g = game("undo")
    to_phase(g, 3)
    rs = ruleset()
    before = rs.clone(g.state)
    submit(g, "A")
    submit(g, "B", "attendre")
    assert rs.clears_undo(before, g.state)


def test_orders_are_checked_unit_by_unit_with_the_rule():
    g = game("orders-check")
    to_phase(g, 3)
    rs = ruleset()
    before = rs.digest(g.state)
    bad = [({"A1": {"order": "doubler", "target": None}}, "may not be given"),   # not in column
           ({"B1": {"order": "avancer", "target": None}}, "not a unit of side A"),
           ({"A1": {"order": "charger", "target": None}}, "may not be given|needs a target"),
           ({"A1": {"order": "avancer", "target": "B1"}}, "takes no target"),
           ({"A6": {"order": "tirer", "target": None}}, "may not be given")]     # a character
    for orders, why in bad:
        with pytest.raises(IllegalAction, match=why):
            rs.apply(g.state, {"type": "orders", "side": "A", "orders": orders})
        assert rs.digest(g.state) == before


def test_a_unit_without_an_order_does_nothing():
    """l.337-339: an order forgotten, the unit 'ne peut strictement rien faire'."""
    g = game("no-order")
    to_phase(g, 3)
    act(g, type="orders", side="A", orders={})
    assert all(u.order is None for u in g.state.side_units("A"))
    assert not turn.movers(g.state, "A")
    submit(g, "B", "attendre")
    assert not [e for e in g.state.log if e["type"] in ("move", "charge_move", "manoeuvre") and e["side"] == "A"
                and e["turn"] == 1]


def test_victory_by_broken_army_and_by_the_turn_limit():
    g = game("victory")
    st = ruleset().clone(g.state)
    for u in st.side_units("B"):
        u.figures = max(0, u.figures // 3)
        if u.figures == 0:
            u.status = "destroyed"
    assert victory.broken(st, "B") and not victory.broken(st, "A")
    victory.check(st)
    assert st.over and st.winner == "A" and "half" in st.result
    st2 = ruleset().clone(g.state)
    st2.turn = st2.scenario.turns
    victory.check(st2)
    assert st2.over and st2.winner is None and "draw" in st2.result
    assert rules().victory.decision == "OR-GF33" and rules().victory.broken_share == 0.5
