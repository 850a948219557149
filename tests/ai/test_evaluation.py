"""Magna Carta's evaluation for the computer players (``rulesets/magna_carta/evaluation.py``):
bounded, sensitive to what it claims to weigh, its weights validated with the file and field
named."""

from __future__ import annotations

import pytest

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta.evaluation import evaluate, load_weights

MC = registry.get("magna-carta")


def start(scenario="the-hill"):
    return Game(MC, MC.load_scenario(scenario), 1).state


@pytest.mark.parametrize("scenario", ["the-hill", "hamlet-raid", "the-caravan", "the-ford", "the-hay-cart"])
def test_values_are_bounded_and_the_hook_answers_them(scenario):
    st = start(scenario)
    for side in st.sides:
        v = MC.evaluate(st, side)
        assert -1 < v < 1 and v == evaluate(st, side)


def test_a_dead_enemy_is_better_than_a_wounded_one_better_than_none():
    st = start()
    enemy = next(c for c in st.characters.values() if c.side == "B")
    base = evaluate(st, "A")
    wounded = st.clone()
    wounded.characters[enemy.id].status = "wounded"
    dead = st.clone()
    dead.characters[enemy.id].status = "dead"
    assert base < evaluate(wounded, "A") < evaluate(dead, "A")
    assert evaluate(dead, "B") < evaluate(st, "B")


def test_the_objective_side_values_standing_on_its_objective():
    st = start()  # the-hill: A must hold 1505
    raider = next(c for c in st.characters.values() if c.side == "A" and not c.mounted)
    held = st.clone()
    for c in held.characters.values():  # clear the hilltop
        if c.hex is not None and c.hex.label == "1505":
            c.status = "dead"
    from oriflamme.geometry.hexgrid import Hex
    cleared = held.clone()
    held.characters[raider.id].hex = Hex.from_label("1505")
    assert evaluate(held, "A") > evaluate(cleared, "A")


def test_a_finished_game_is_worth_its_outcome():
    st = start()
    st.over, st.winner = True, "B"
    assert evaluate(st, "B") == 1.0 and evaluate(st, "A") == -1.0


def test_bad_weights_name_the_file_and_field(tmp_path):
    bad = tmp_path / "w.toml"
    bad.write_text('[weights]\nscale = -1\n[status]\nhealthy = 1\n', encoding="utf-8")
    with pytest.raises(ValueError) as exc:
        load_weights(str(bad))
    assert str(bad) in str(exc.value) and "scale" in str(exc.value)
    assert load_weights().weights.ref_material.startswith("MC §")
