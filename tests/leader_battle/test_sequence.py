"""The sequence A–E (LB seed 001 l.2-25): the steps as data against the seed, initiative and
alternate activations, command and the loss of a leader."""

from __future__ import annotations

import re

import pytest

from oriflamme.core.dice import FixedDice
from oriflamme.rulesets.leader_battle import engine
from oriflamme.rulesets.leader_battle.rules import rules

from kit_lb import RS, acts, at_activation, seed_line, started, unit

TITLES = {"A": "Vérification du commandement", "B": "Tirs d’Artillerie et d’Archers",
          "C": "Initiative et activations des chefs", "D1": "D1. Déplacement du chef", "D2": "D.2 Tirs",
          "D3": "D.3 Déclaration des combats", "D4": "D.4 Résolution des combats", "E": "Phase de ralliement"}


def cited_lines(ref: str) -> list[int]:
    out = []
    for a, b in re.findall(r"l\.(\d+)(?:-(\d+))?", ref):
        out += list(range(int(a), int(b or a) + 1))
    return out


@pytest.mark.parametrize("step", list(TITLES))
def test_each_step_cites_the_seed_line_that_names_it(step):
    st = rules().step(step)
    assert any(TITLES[step] in seed_line(n) for n in cited_lines(st.ref)), (step, st.ref)


def test_the_steps_run_in_the_seeds_order():
    assert [s.id for s in rules().steps] == ["A", "B", "C", "D1", "D2", "D3", "D4", "E"]


LEADERS = [{"id": i, "side": s, "name": i, "hex": h, "command_range": 9, "movement": 6}
           for i, s, h in (("r1", "red", "0101"), ("r2", "red", "0102"), ("r3", "red", "0103"),
                           ("b1", "blue", "0806"), ("b2", "blue", "0805"))]
UNITS = [unit("ri", "red", "infantry", "0102", 2), unit("bi", "blue", "infantry", "0805", 5, leader="b1")]


@pytest.mark.parametrize("die,order", [(3, ["r1", "b1", "r2", "b2", "r3"]), (8, ["b1", "r1", "b2", "r2", "r3"])])
def test_activation_alternates_from_the_side_with_the_initiative(die, order):
    """l.11: the leaders of both sides are activated alternately; the house initiative roll
    (1-5 the attacker) says who starts; the side with more leaders finishes alone."""
    st = started(UNITS, dice=[die], leaders=LEADERS)
    assert st.step == "C" and engine.to_act(st) == "red"
    RS.apply(st, {"type": "initiative", "side": "red"})
    assert st.order == order
    activated = []
    while st.turn == 1 and not st.over:
        if not activated or activated[-1] != st.active_leader:
            activated.append(st.active_leader)
        RS.apply(st, engine.Action("end_step", engine.to_act(st)))
    assert activated == order


def test_initiative_outcomes_are_exact():
    st = started(UNITS, leaders=LEADERS)
    outs = RS.chance_outcomes(st, engine.Action("initiative", "red"))
    assert {o.label: str(o.probability) for o in outs} == {"red": "1/2", "blue": "1/2"}


def test_a_unit_beyond_its_leaders_range_is_out_of_command_and_does_not_move():
    leaders = [dict(LEADERS[0], command_range=1), LEADERS[3]]
    st = started([unit("near", "red", "infantry", "0102", 2), unit("far", "red", "infantry", "0105", 2),
                  unit("bi", "blue", "infantry", "0805", 5)], leaders=leaders)
    assert st.units["near"].in_command and not st.units["far"].in_command
    at_activation(st, "r1", "D1")
    movers = {a.unit for a in acts(st, kind="move")}
    assert "near" in movers and "far" not in movers and "r1" in movers


def test_a_leader_whose_last_unit_in_his_hex_breaks_is_lost_and_his_units_pass_on():
    leaders = [LEADERS[0], dict(LEADERS[3], hex="0603"), dict(LEADERS[4], hex="0805")]
    units = [unit("rg", "red", "artillery", "0203", 2), unit("bi", "blue", "infantry", "0603", 5, steps=1),
             unit("bj", "blue", "infantry", "0806", 0, leader="b1")]
    st = started(units, dice=[1], leaders=leaders)
    RS.apply(st, {"type": "fire", "side": "red", "unit": "rg", "target": "bi"})
    assert st.leaders["b1"].lost
    assert any(e["type"] == "leader_lost" for e in st.log)
    st.e_index, st.step = 1, "E"
    engine.advance(st)
    engine.settle(st)  # the next turn's command check
    assert st.units["bj"].leader == "b2" and not st.units["bj"].in_command


def test_rally_in_command_uses_the_house_threshold():
    st = started(UNITS, dice=[7])
    st.units["ri"].disordered = True
    st.step, st.e_index = "E", 0
    outs = {o.label: o.probability for o in RS.chance_outcomes(st, engine.Action("rally", "red", unit="ri"))}
    assert str(outs["rallied"]) == f"{rules().rally.in_command_max}/10"
    RS.apply(st, {"type": "rally", "side": "red", "unit": "ri"})
    assert not st.units["ri"].disordered


def test_a_side_that_reaches_its_break_point_loses_at_once():
    """LB house §8: the broken units reach the break point: the game ends, the other side wins."""
    st = started([unit("rg", "red", "artillery", "0203", 2), unit("bi", "blue", "infantry", "0603", 5, steps=1),
                  unit("bj", "blue", "infantry", "0806", 0)], dice=[1], break_point=1)
    RS.apply(st, {"type": "fire", "side": "red", "unit": "rg", "target": "bi"})
    out = RS.outcome(st)
    assert out.over and out.winner == "red" and "break point 1" in out.text
    assert RS.legal_actions(st) == [] and engine.to_act(st) is None


@pytest.mark.parametrize("where,winner", [("0403", "red"), ("0101", "blue")])
def test_at_the_end_of_the_last_turn_the_objectives_decide(where, winner):
    """LB house §8: the attacker wins if he holds the objectives needed (a unit there, no enemy)."""
    st = started([unit("ri", "red", "infantry", where, 0), unit("bi", "blue", "infantry", "0806", 0)],
                 dice=[3], turns=1, objectives=["0403"])
    RS.apply(st, {"type": "initiative", "side": "red"})
    while not st.over:
        RS.apply(st, engine.Action("end_step", engine.to_act(st)))
    assert RS.outcome(st).winner == winner and st.turn == 1
