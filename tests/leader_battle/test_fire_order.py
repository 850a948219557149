"""Step B and who may fire when (LB seed 001 l.3-9, l.15, l.21-24)."""

from __future__ import annotations

import pytest

from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.leader_battle import engine
from oriflamme.rulesets.leader_battle.rules import rules

from kit_lb import RS, acts, at_activation, fires, seed_line, started, unit

# both sides with artillery and archers out of contact (distance 3 to 5), and horse archers
LINE = [unit("rg", "red", "artillery", "0203", 2), unit("ra", "red", "archers", "0303", 2),
        unit("ri", "red", "infantry", "0103", 2),
        unit("bg", "blue", "artillery", "0703", 5), unit("ba", "blue", "archers", "0603", 5),
        unit("bh", "blue", "light_cavalry", "0604", 5)]


def test_the_fire_order_of_b_is_the_seeds_l6_to_l9():
    """B: attacker's artillery, defender's artillery, defender's archers, attacker's archers,
    each entry read from data/sequence.toml and checked against the seed's line."""
    words = {"attacker": "attaquant", "defender": "défenseur", "artillery": "artillerie", "archers": "archers"}
    order = rules().fire_order
    assert [(o.side, o.category) for o in order] == [("attacker", "artillery"), ("defender", "artillery"),
                                                      ("defender", "archers"), ("attacker", "archers")]
    for o in order:
        line = seed_line(int(o.ref.rsplit("l.", 1)[1]))
        assert words[o.side] in line and words[o.category] in line.lower(), (o, line)
        assert "immédiatement" in line  # results applied at once


def test_b_runs_the_four_fires_in_order_each_side_its_own_units():
    st = started(LINE)
    seen = []
    while st.step == "B":
        shooters = {a.unit for a in acts(st, kind="fire")}
        seen.append((engine.to_act(st), shooters))
        RS.apply(st, engine.Action("end_step", engine.to_act(st)))
    assert seen == [("red", {"rg"}), ("blue", {"bg"}), ("blue", {"ba"}), ("red", {"ra"})]
    assert st.step == "C"


def test_b_results_apply_at_once_a_broken_artillery_does_not_fire_back():
    units = [dict(u, steps=1) if u["id"] == "bg" else u for u in LINE]
    st = started(units, dice=[1])
    RS.apply(st, engine.Action("fire", "red", unit="rg", target="bg"))
    assert st.units["bg"].broken
    # the defender's artillery step has no unit left: the defender's archers fire next
    assert (engine.to_act(st), {a.unit for a in acts(st, kind="fire")}) == ("blue", {"ba"})


def test_only_artillery_and_archers_fire_in_b_not_other_units_with_fire():
    """l.9: the horse archers have a fire capability, but do not fire in B."""
    st = started(LINE)
    assert all(a.unit != "bh" for _ in range(4) for a in acts(st, kind="fire"))
    while st.b_index < 2:
        RS.apply(st, engine.Action("end_step", engine.to_act(st)))
    with pytest.raises(IllegalAction) as exc:
        RS.apply(st, {"type": "fire", "side": "blue", "unit": "bh", "target": "ra"})
    assert "l.9" in exc.value.ref
    assert "les autres unités ayant une capacité de tir" in seed_line(9)


def test_a_unit_adjacent_to_an_enemy_does_not_fire_in_b():
    """l.4: only units not adjacent to enemy units fire in B."""
    units = LINE + [unit("bi", "blue", "infantry", "0402", 3)]  # next to the red archers (0303)
    st = started(units)
    shooters = set()
    while st.step == "B":
        shooters |= {a.unit for a in acts(st, kind="fire")}
        RS.apply(st, engine.Action("end_step", engine.to_act(st)))
    assert shooters == {"rg", "bg", "ba"}  # the red archers' turn was passed: they could not fire
    st.step, st.b_index = "B", 3
    before = RS.digest(st)
    with pytest.raises(IllegalAction) as exc:
        RS.apply(st, {"type": "fire", "side": "red", "unit": "ra", "target": "ba"})
    assert "l.21" in exc.value.ref and RS.digest(st) == before


@pytest.mark.parametrize("hexsides,banner", [({"river": ["0303-0403"]}, None),
                                              ({}, {"hex": "0403", "facing": 5, "name": "banner"})])
def test_fire_at_an_adjacent_enemy_across_a_hexside_that_forbids_combat(hexsides, banner):
    """l.24: a unit fires at an adjacent enemy in a front hex when combat with it is impossible
    (a river; a banner's special rule); it may not attack it."""
    units = [unit("ra", "red", "archers", "0303", 2), unit("ri", "red", "infantry", "0303", 2),
             unit("bi", "blue", "infantry", "0403", 5), unit("bb", "blue", "archers", "0603", 5)]
    st = started(units, hexsides=hexsides, banner=banner)
    at_activation(st, "r1", "D2")
    assert fires(st) == {("ra", "bi")}  # the adjacent enemy only (l.21 keeps it from firing further)
    at_activation(st, "r1", "D3")
    assert acts(st, kind="declare") == []
    with pytest.raises(IllegalAction) as exc:
        RS.apply(st, {"type": "declare", "side": "red", "unit": "ri", "hex": "0403"})
    assert "l.24" in exc.value.ref
    assert "interdisant le combat" in seed_line(24)


def test_without_the_forbidding_hexside_the_adjacent_enemy_is_fought_not_shot():
    units = [unit("ra", "red", "archers", "0303", 2), unit("ri", "red", "infantry", "0303", 2),
             unit("bi", "blue", "infantry", "0403", 5)]
    st = started(units)
    at_activation(st, "r1", "D2")
    assert fires(st) == set()
    at_activation(st, "r1", "D3")
    assert {(a.unit, a.hex) for a in acts(st, kind="declare")} == {("ra", "0403"), ("ri", "0403")}


def test_d2_fire_by_the_activated_leaders_units_not_adjacent_to_an_enemy():
    """l.15, l.21: at D2 the active player's units with a fire capability fire, if not adjacent
    to an enemy; the horse archers do; another leader's units do not."""
    units = LINE + [unit("ra2", "red", "archers", "0304", 1, leader="r2"),
                    unit("rb", "red", "archers", "0502", 3), unit("bi", "blue", "infantry", "0503", 0),
                    unit("rt", "red", "infantry", "0404", 0)]
    leaders = [{"id": "r1", "side": "red", "name": "R1", "hex": "0101", "command_range": 9, "movement": 6},
               {"id": "r2", "side": "red", "name": "R2", "hex": "0101", "command_range": 9, "movement": 6},
               {"id": "b1", "side": "blue", "name": "B1", "hex": "0806", "command_range": 9, "movement": 6}]
    st = started(units, leaders=leaders)
    at_activation(st, "r1", "D2")
    shooters = {u for u, _ in fires(st)}
    assert shooters == {"rg", "ra"}  # rb is adjacent to bi (0503); ra2 is r2's
    at_activation(st, "b1", "D2")
    assert "bh" in {u for u, _ in fires(st)}  # horse archers fire at D2
    assert "l.15" in rules().step("D2").ref and "adjacente" in seed_line(15)
