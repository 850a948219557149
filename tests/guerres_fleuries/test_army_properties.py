"""Invariants of the army arithmetic (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from guerres_fleuries.army_kit import valid_army
from oriflamme.rulesets.guerres_fleuries import army_rows as data
from oriflamme.rulesets.guerres_fleuries.army import validate_army
from oriflamme.rulesets.guerres_fleuries.costs import unit_cost

troop_weapons = [w.name for w in data.weapons().values() if not w.characters_only and not w.races]
groups = st.fixed_dictionaries({
    "figures": st.integers(1, 60),
    "race": st.sampled_from([r.name for r in data.races().values()]),
    "class": st.sampled_from(list(data.classes())),
    "weapons": st.lists(st.sampled_from(troop_weapons), unique=True, max_size=3),
    "armour": st.lists(st.sampled_from([a.name for a in data.armours().values()]), unique=True, max_size=3),
    "mercenary": st.booleans(), "fanatic": st.booleans()})


@settings(max_examples=60, deadline=None)
@given(st.lists(groups, min_size=1, max_size=4), st.lists(groups, min_size=1, max_size=4))
def test_unit_cost_is_additive_over_groups(a, b):
    assert unit_cost(a + b)["cost"] == unit_cost(a)["cost"] + unit_cost(b)["cost"]
    assert unit_cost(a + b)["figures"] == unit_cost(a)["figures"] + unit_cost(b)["figures"]


@settings(max_examples=60, deadline=None)
@given(groups, st.integers(1, 5))
def test_unit_cost_is_linear_in_figures(g, k):
    one = unit_cost([g])
    many = unit_cost([{**g, "figures": g["figures"] * k}])
    assert many["cost"] == k * one["cost"] and many["cost_per_figure"] == one["cost_per_figure"]
    assert one["cost"] == one["cost_per_figure"] * one["figures"]
    assert one["valid_size"] == (one["figures"] >= 20)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fixed_dictionaries({"figures": st.integers(20, 60), "points": st.integers(0, 400)}), max_size=4))
def test_adding_home_class_b_units_keeps_a_valid_army_valid_within_the_budget(extra):
    """Class B, not allied, not mercenary, 20+ figures: every share moves the right way, more
    warriors allow more heroes; only the budget can break."""
    army = valid_army()
    assert validate_army(army)["valid"]
    army["units"] += [{"figures": e["figures"], "class": "B", "points": e["points"]} for e in extra]
    res = validate_army(army)
    assert res["valid"] == (res["total_points"] <= res["budget"])


@settings(max_examples=40, deadline=None)
@given(st.lists(groups, min_size=1, max_size=5), st.integers(0, 10_000))
def test_the_verdict_does_not_depend_on_the_order_of_the_units(gs, seed):
    units = [{"groups": [g], "ally": i % 3 == 0} for i, g in enumerate(gs)]
    shuffled = units[:]
    random.Random(seed).shuffle(shuffled)
    a = validate_army({"units": units, "characters": [{"type": "prêtre", "points": 200}]})
    b = validate_army({"units": shuffled, "characters": [{"type": "prêtre", "points": 200}]})
    for key in ("valid", "total_points", "troop_figures", "max_heroes", "class_b_share", "allied_share",
                "mercenary_share"):
        assert a[key] == b[key]
    assert sorted(v["rule"] for v in a["violation_details"]) == sorted(v["rule"] for v in b["violation_details"])
    for key in ("class_b_share", "allied_share", "mercenary_share"):
        assert 0 <= a[key] <= 1
    assert a["valid"] == (a["violations"] == [])
