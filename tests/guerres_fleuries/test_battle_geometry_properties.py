"""Invariants of the table (hypothesis): move_cost's bounds and monotony on the bundled table, and
the battlefield codec refusing any malformed document with a BattlefieldError (never a traceback)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from oriflamme.rulesets.guerres_fleuries.battle.battlefield import (
    Battlefield, BattlefieldError, battlefield_from_json, load_battlefield,
)
from oriflamme.rulesets.guerres_fleuries.battle.terrain import MoverProfile, move_cost

BF = load_battlefield("valley-of-flowers")
BF2 = load_battlefield("temple-of-the-ford")
xs, ys = st.floats(0, 180, allow_nan=False), st.floats(0, 120, allow_nan=False)
paths = st.lists(st.tuples(xs, ys), min_size=2, max_size=4).map(LineString)
movers = st.sampled_from(["homme", "saurien", "jaguar", "chauve_souris", "grand_saurien", "araignee"])


@settings(max_examples=120, deadline=None)
@given(paths, movers, st.floats(1, 60, allow_nan=False), st.floats(0, 30, allow_nan=False), st.sampled_from([BF, BF2]))
def test_move_cost_bounds_and_monotony(path, mover, allowance, more, bf):
    a = move_cost(path, MoverProfile(mover, allowance), bf)
    assert 0 <= a.allowed_cm <= min(path.length, allowance) + 1e-6
    assert 0 <= a.spent_cm <= allowance + 1e-6
    assert a.complete == (a.allowed_cm >= path.length - 1e-6)
    if a.complete and not a.penalties:
        assert a.spent_cm == pytest.approx(path.length, abs=1e-6)
    # every cm spent is either covered or a penalty's cost
    assert a.allowed_cm + sum(p["cost_cm"] for p in a.penalties) == pytest.approx(a.spent_cm, abs=1e-4)
    b = move_cost(path, MoverProfile(mover, allowance + more), bf)
    assert b.allowed_cm >= a.allowed_cm - 1e-6
    # on an empty table the whole allowance is movement
    c = move_cost(path, MoverProfile(mover, allowance), Battlefield())
    assert c.allowed_cm == pytest.approx(min(path.length, allowance), abs=1e-6) and not c.penalties


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-500, 500) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)
element = st.fixed_dictionaries({"id": st.text(max_size=3) | st.integers(), "kind": st.sampled_from(["bois", "haie", "lava", 3]),
                                 "points": st.lists(st.lists(st.floats(-10, 200) | st.text(max_size=2), min_size=1, max_size=3), max_size=5)})


@settings(max_examples=200, deadline=None)
@given(json_values | st.fixed_dictionaries({"elements": st.lists(element | json_values, max_size=3)}))
def test_the_codec_refuses_junk_clearly(doc):
    try:
        bf = battlefield_from_json(doc, "fuzz.json")
    except BattlefieldError as exc:
        assert str(exc).startswith("fuzz.json")
    else:
        assert isinstance(bf, Battlefield)
        assert battlefield_from_json(bf.to_json()).to_json() == bf.to_json()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("coords", [[(40, 60), (40, 60)], [(40, 60), (40 + 1e-170, 60), (120, 60)],
                                    [(40, 60), (40 + 5e-324, 60)]])
def test_a_path_with_legs_of_no_length_costs_no_division_by_zero(coords):
    """Found by CI: hypothesis drew legs of ~1e-170 cm, which Shapely's projection divided by."""
    a = move_cost(LineString(coords), MoverProfile("homme", 20), BF)
    assert 0 <= a.allowed_cm <= 20
