"""An encounter's deployment placed by clicking the table (the browser, OR-GF101, GF-K3, GF-K5): the
server's ruling on a spot (``explain``) says why it is allowed, or refuses it with the rule — and it
agrees with ``apply``, which refuses the same spot with the same rule and leaves the state unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme.core.errors import IllegalAction
from oriflamme.core.record import Game
from oriflamme.rulesets.guerres_fleuries.battle import encounter
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

RS = GuerresFleuries()


def _side_a_deploys():
    """Side B (discovered) has set up on the table; side A deploys on movement bases, with the ambush."""
    for seed in range(2, 30):
        g = Game(RS, RS.load_scenario("encounter-in-the-valley"), seed)
        g.apply(next(a for a in RS.legal_actions(g.state) if a.type == "end_phase"))
        legal = RS.legal_actions(g.state)
        if any(a.type == "place_base" for a in legal) and any(a.type == "ambush" for a in legal):
            return g, legal
    pytest.skip("no seed gave side A a decoy and an ambush")


@pytest.fixture(scope="module")
def deploying():
    return _side_a_deploys()


def _frozen(g) -> str:
    return json.dumps(g.state.to_json(), sort_keys=True)


def test_a_decoy_in_the_zone_is_ruled_allowed_with_its_rule(deploying):
    g, legal = deploying
    a = next(a for a in legal if a.type == "place_base")
    r = RS.explain(g.state, a)
    assert r["legal"] is True and encounter.REF_DEPLOY in r["citations"]
    assert any("anonymous base" in s for s in r["steps"]) and any("base anonyme" in s for s in r["steps_fr"])


def test_a_decoy_outside_the_zone_is_refused_with_the_rule_and_the_state_unchanged(deploying):
    g, legal = deploying
    a = next(a for a in legal if a.type == "place_base")
    bad = RS.action_from_json({**a.to_json(), "y": 60.0})
    r = RS.explain(g.state, bad)
    assert r["legal"] is False and r["ref"] == encounter.REF_DEPLOY and "deployment zone" in r["reason"]
    before = _frozen(g)
    with pytest.raises(IllegalAction) as exc:
        g.apply(bad)
    assert exc.value.ref == encounter.REF_DEPLOY and _frozen(g) == before


def test_the_ambush_ruling_gives_the_verdict_or_the_enemy_that_sees_it(deploying):
    """l.485, GF-K3: out of the enemy's zone and out of its sight."""
    g, legal = deploying
    a = next(a for a in legal if a.type == "ambush")
    r = RS.explain(g.state, a)
    assert r["legal"] is True and "GF-K3" in " ".join(r["citations"])
    assert any("ambush may stand here" in s for s in r["steps"])
    bad = RS.action_from_json({**a.to_json(), "y": 20.0})   # in side B's zone, before its eyes
    r = RS.explain(g.state, bad)
    assert r["legal"] is False and r["ref"] == encounter.REF_AMBUSH and "sees it" in r["reason"]
    before = _frozen(g)
    with pytest.raises(IllegalAction):
        g.apply(bad)
    assert _frozen(g) == before


@settings(max_examples=25, deadline=None)
@given(x=st.floats(0, 180), y=st.floats(0, 120))
def test_the_ruling_on_any_spot_agrees_with_apply(deploying, x, y):
    """Invariant: for any spot of the table, explain's verdict on a decoy placed there is apply's."""
    g, legal = deploying
    a = next(a for a in legal if a.type == "place_base")
    spot = RS.action_from_json({**a.to_json(), "x": round(x, 1), "y": round(y, 1)})
    r = RS.explain(g.state, spot)
    trial = RS.clone(g.state)
    before = json.dumps(trial.to_json(), sort_keys=True)
    try:
        RS.apply(trial, spot)
        applied = True
    except IllegalAction as exc:
        applied = False
        assert exc.ref == r["ref"] and json.dumps(trial.to_json(), sort_keys=True) == before
    assert r["legal"] is applied
