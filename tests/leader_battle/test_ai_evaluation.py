"""The leader-battle evaluation the computer players search with (issue 14): bounded, each
term moves the value the way its rule says, the weights are cited data."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from oriflamme.rulesets.leader_battle import evaluation
from oriflamme.rulesets.leader_battle.evaluation import Weights, evaluate, load_weights

from kit_lb import RS, bare, unit

UNITS = [unit("ri", "red", "infantry", "0303"), unit("rc", "red", "cavalry", "0203"),
         unit("bi", "blue", "infantry", "0603"), unit("ba", "blue", "archers", "0604")]


def test_values_are_bounded_opposite_and_the_hook_answers_them():
    st = bare(UNITS, objectives=["0505"])
    for side in ("red", "blue"):
        v = RS.evaluate(st, side)
        assert -1 < v < 1
    assert RS.evaluate(st, "red") == pytest.approx(-RS.evaluate(st, "blue"))


def test_a_lost_step_then_a_broken_unit_is_worse_and_worse():
    st = bare(UNITS)
    full = evaluate(st, "blue")
    st.units["ri"].steps -= 1
    one_step = evaluate(st, "blue")
    st.units["ri"].hex = None  # broken: off the map
    broken = evaluate(st, "blue")
    assert full < one_step < broken


def test_the_attacker_values_holding_the_objective_more_as_the_end_nears():
    st = bare(UNITS, objectives=["0505"], turns=4)
    away = evaluate(st, "red")
    st.units["ri"].hex = "0505"
    held = evaluate(st, "red")
    st.turn = 4
    held_late = evaluate(st, "red")
    assert away < held < held_late
    assert evaluate(st, "blue") < 0  # the defender sees the same position from the other side


def test_disordered_and_out_of_command_units_count_against_their_side():
    st = bare(UNITS)
    base = evaluate(st, "red")
    st.units["bi"].disordered = True
    assert evaluate(st, "red") > base
    st.units["bi"].disordered = False
    st.units["ri"].in_command = False
    assert evaluate(st, "red") < base


def test_a_finished_game_is_worth_its_outcome():
    st = bare(UNITS)
    st.over, st.winner = True, "blue"
    assert evaluate(st, "blue") == 1.0 and evaluate(st, "red") == -1.0


def test_every_weight_is_cited_and_a_bad_value_names_the_field(monkeypatch):
    raw = tomllib.loads((Path(evaluation.__file__).parent / "data" / "ai_evaluation.toml").read_text(encoding="utf-8"))
    w = raw["weights"]
    refs = [k for k in w if k.startswith("ref")]
    assert len(refs) >= 8 and all(len(w[k]) > 3 for k in refs)
    assert load_weights() == Weights.model_validate(w)
    bad = dict(raw, weights=dict(w, material=-1))
    monkeypatch.setattr(evaluation, "read_toml", lambda *a, **k: bad)
    load_weights.cache_clear()
    try:
        with pytest.raises(evaluation.RulesDataError, match=r"ai_evaluation.toml: field weights.material"):
            load_weights()
    finally:
        load_weights.cache_clear()
