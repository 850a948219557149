"""The bundled scenario and the scenario errors (file, field, reason)."""

from __future__ import annotations

import pytest

from oriflamme.core import registry
from oriflamme.core.errors import ScenarioError
from oriflamme.core.dice import FixedDice

from kit_lb import RS, scenario, unit


def test_the_ruleset_is_registered_through_its_entry_point():
    assert registry.get("leader-battle").id == "leader-battle"


def test_the_bridge_of_vauclair_has_a_river_a_bridge_and_a_banner():
    sc = RS.load_scenario("the-bridge-of-vauclair")
    state = RS.setup(sc, FixedDice([]))
    kinds = set(state.board.sides.values())
    assert kinds == {"river", "bridge", "banner"}
    v = RS.view(state, None)
    assert v["map"]["banner"]["hex"] == "0403" and "House rules" in v["house_rules"]
    info = RS.scenario_info(sc.id).to_json()
    assert "House rules" in info["description"] or "house_rules" in info


@pytest.mark.parametrize("change,field", [
    ({"attacker": "green"}, "attacker"),
    ({"unit": [unit("x", "red", "dragon", "0101")]}, "kind"),
    ({"unit": [unit("x", "red", "cavalry", "0101"), unit("y", "red", "infantry", "0101")]}, "stacking"),
    ({"hexsides": {"river": ["0101-0505"]}}, "adjacent")])
def test_bad_scenarios_name_the_field(change, field):
    base = RS.scenario_to_json(scenario([unit("a", "red", "infantry", "0101"), unit("b", "blue", "infantry", "0806")]))
    with pytest.raises(ScenarioError, match=field):
        RS.scenario_from_json({**base, **change}, "bad.toml")
