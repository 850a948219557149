"""Formation changes and turns on the spot cost the GF-D5 fraction of the normal move, by class
(GF seed 003 l.1414-1419 "Changement de formation: Classe A -1/4, Classe B -1/2, Classe C et M -3/4;
Saurien -1/2, -3/4, tour entier"; l.369, l.373, l.381, l.385 "Le coût dépend de la classe de
l'unité"): the unit changes at the start of phase 6 and may move what is left (OR-GF111), the same
distance the part-1 movement referee gives on the same situation."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import battle, troop
from guerres_fleuries.seed import line

from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt
from oriflamme.rulesets.guerres_fleuries.battle import moves, turn
from oriflamme.rulesets.guerres_fleuries.battle.rules import rules
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

REF = GuerresFleuries()


def _printed(race: str, klass: str) -> str:
    row = {"A": 1417, "B": 1418, "C": 1419}[klass]
    cells = line(row).split("\t")
    return cells[2] if race == "saurien" else cells[1]


@pytest.mark.parametrize("race", ["homme", "saurien"])
@pytest.mark.parametrize("klass", ["A", "B", "C"])
def test_what_is_left_after_a_change_is_the_referees(race, klass):
    u = troop("u", "A", race=race, klass=klass, mover=race)
    u.set_formation("line")
    left, steps = moves.formation_change_left(u)
    r = REF.adjudicate({"kind": "movement", "unit": race.capitalize() if race == "homme" else "Saurien",
                        "move": "normal", "formation": "ligne", "class": klass, "formation_change": True})
    assert left == pytest.approx(float(r["distance_cm"]))
    printed = _printed(race, klass)
    normal = moves.allowance(u, "normal")[0]
    if printed == "tour entier":
        assert left == 0
    else:
        assert left == pytest.approx(normal * (1 + eval(printed)))  # "-1/4" → 3/4 of the move
    assert any("GF-D5" in s["decision"] for s in steps)


def test_the_turns_and_the_formation_orders_change_first_then_move():
    for oid in ("colonne", "ligne", "demi_tour", "quart_de_tour"):
        assert rules().order_play[oid].change_first, oid
    for oid in ("reformer", "ordre_ouvert"):  # l.365 "la phase entière", l.389 "la totalité de son mouvement"
        assert not rules().order_play[oid].change_first and rules().order_play[oid].move == "none"
    assert "totalité de son mouvement" in line(389) and "phase entière" in line(365)


def test_a_class_b_unit_forms_column_and_moves_half_its_move():
    u = troop("u", "A", race="homme", klass="B", figures=30, figures_max=30, x=90, y=80, order="colonne")
    u.set_formation("line")
    enemy = troop("e", "B", x=90, y=15)
    st = battle(u, enemy, phase=6)
    normal = moves.allowance(u, "normal")[0]
    turn.phase6_orders_in_place(st)
    assert u.formation == "column" and not u.moved
    ev = [e for e in st.log if e["type"] == "manoeuvre" and e["unit"] == u.id][-1]
    assert "cm of its move left" in ev["text"] and "OR-GF111" in ev["ruling"]["citations"]
    assert u in turn.movers(st, "A")
    budget = turn.move_budget(u)[0]
    assert budget == pytest.approx(normal / 2)  # class B: -1/2 (l.1418)
    before = (u.x, u.y, u.heading, u.moved)
    far = tt.moved(u.pose, budget + 2)
    with pytest.raises(IllegalAction, match="may move"):
        turn.move(st, u, far.x, far.y, u.heading)
    assert (u.x, u.y, u.heading, u.moved) == before
    near = tt.moved(u.pose, budget - 1)
    turn.move(st, u, near.x, near.y, u.heading)
    assert (u.x, u.y) == pytest.approx((near.x, near.y)) and u.formation == "column" and u.moved


def test_a_turn_with_no_room_loses_the_order_and_the_move():
    u = troop("u", "A", race="homme", klass="A", figures=30, figures_max=30, x=90, y=80, order="colonne")
    u.set_formation("line")
    friend = troop("f", "A", x=90, y=90, figures=10, figures_max=10, ranks=1)  # where the column would stand
    st = battle(u, friend, troop("e", "B", x=90, y=15), phase=6)
    turn.phase6_orders_in_place(st)
    assert u.formation == "line" and u.moved and u not in turn.movers(st, "A")
    assert [e for e in st.log if e["type"] == "manoeuvre_blocked" and e["unit"] == "u"]


def test_a_saurian_class_c_change_takes_the_whole_turn():
    u = troop("s", "A", race="saurien", klass="C", mover="saurien")
    assert _printed("saurien", "C") == "tour entier"
    assert moves.formation_change_left(u)[0] == 0
