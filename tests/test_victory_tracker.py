"""The board's victory tracker (view ``victory``, engine/victory.py ``tracker``): it reads the
scenario's own ``[victory]`` table and agrees with the checks that end the game — the hexes it
calls held are those :func:`holds` counts, and its ``rout_at`` is the least loss at which
:func:`sudden_death_check` ends the game."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from oriflamme.core import registry
from oriflamme.core.dice import Dice
from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.magna_carta.engine.victory import sudden_death_check, tracker

SCENARIOS = [(rs.id, s) for rs in registry.all_rulesets() if rs.web_module == "magna-carta" for s in rs.scenario_ids()]


def start(ruleset: str, scenario: str):
    rs = registry.get(ruleset)
    return rs, rs.setup(rs.load_scenario(scenario), Dice(seed=1))


def scenario_file(rs, scenario: str) -> dict:
    """The edition's own file, else its base's (an edition plays the base's scenarios too)."""
    pkg = Path(__import__(type(rs).__module__.rsplit(".", 1)[0], fromlist=["x"]).__file__).parent
    for folder in (pkg, pkg.parent / "magna_carta"):
        f = folder / "scenarios" / f"{scenario}.toml"
        if f.exists():
            return tomllib.loads(f.read_text())
    raise AssertionError(f"no file for {scenario}")


@pytest.mark.parametrize("ruleset,scenario", SCENARIOS)
def test_the_tracker_reads_the_scenarios_victory_table(ruleset, scenario):
    rs, st = start(ruleset, scenario)
    v = scenario_file(rs, scenario)["victory"]           # the file itself, re-read here
    t = rs.seat_view(st, None, False)["victory"]
    assert t["objectives"] == v.get("objectives", [])
    assert t["objective_side"] == v.get("objective_side")
    assert t["rout_fraction"] == v["rout_fraction"] and t["text"] == v["text"] and t["text_fr"] == v["text_fr"]
    for side in st.sides:
        mine = [c for c in st.characters.values() if c.side == side]
        assert t["losses"][side] == {"lost": 0, "total": len(mine), "rout_at": t["losses"][side]["rout_at"]}


@pytest.mark.parametrize("ruleset,scenario", SCENARIOS)
def test_rout_at_is_the_least_loss_that_ends_the_game(ruleset, scenario):
    rs, st0 = start(ruleset, scenario)
    for side in st0.sides:
        rout_at = tracker(st0)["losses"][side]["rout_at"]
        victims = sorted((c for c in st0.characters.values() if c.side == side), key=lambda c: c.id)
        for n in range(len(victims) + 1):
            st = rs.clone(st0)
            for c in victims[:n]:
                st.characters[c.id].status = "dead"
            assert tracker(st)["losses"][side]["lost"] == n
            sudden_death_check(st)
            # the game ends by rout at rout_at (or earlier when nobody is left able to act)
            if n >= rout_at:
                assert st.over and st.winner == st.enemy_of(side), (side, n)
            elif st.over:
                assert n == len(victims) or "nobody" in str(st.log[-1].get("msg")), (side, n, st.log[-1])


def test_held_objectives_follow_the_characters_on_them():
    rs, st = start("magna-carta", "the-hill")
    t = tracker(st)
    assert t["objectives"] == ["1505"] and t["held"] == [] and t["objective_count"] == 1
    raider = next(c for c in st.characters.values() if c.side == "A" and not c.mounted)
    raider.hex = Hex.from_label("1505")
    assert tracker(st)["held"] == ["1505"]
    raider.status = "stunned"                           # a stunned man holds nothing (engine/victory.py)
    assert tracker(st)["held"] == []
