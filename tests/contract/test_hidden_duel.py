"""What only the hidden-duel fixture exercises: hidden information in views and logs, a
reveal that clears the undo history, and the plug-in itself (registered at run time, found by
the registry, played by the generic Game and random player)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from contract.kit import FIXTURE
from oriflamme.ai.random_player import RandomPlayer
from oriflamme.core import IllegalAction, registry
from oriflamme.core.record import Game, replay


def new_game(sid: str = "quick-draw") -> Game:
    return Game(FIXTURE, FIXTURE.load_scenario(sid), seed="duel-secret-" + "ab" * 20)


def hides(view: dict, events: list, other: str, card: str) -> None:
    """Neither the view nor the log shows ``other``'s card."""
    assert view["picks"][other] in (None, "hidden")
    for ev in events:
        if ev.get("type") == "pick" and ev["side"] == other:
            assert "card" not in ev  # the other side's picks stay redacted in its log
            if ev["round"] == view["round"]:
                assert card not in json.dumps(ev)
    assert not [e for e in view["log"] if e.get("type") == "reveal" and e["round"] == view["round"]]


def test_the_fixture_is_found_through_the_registry():
    assert registry.get("hidden-duel") is FIXTURE
    assert registry.get("duel") is FIXTURE  # an alias
    assert "hidden-duel" in registry.ids()


def test_a_pick_is_hidden_from_the_other_side_until_revealed():
    g = new_game()
    red, blue = "red", "blue"
    g.apply({"type": "pick", "side": red, "card": "lance"})
    for viewer in (blue, None):  # the other side and a spectator
        hides(FIXTURE.view(g.state, viewer), FIXTURE.visible_events(g.state, viewer), red, "lance")
    assert FIXTURE.view(g.state, red)["picks"][red] == "lance"  # its own card
    g.apply({"type": "pick", "side": blue, "card": "dagger"})
    hides(FIXTURE.view(g.state, red), FIXTURE.visible_events(g.state, red), blue, "dagger")
    g.apply({"type": "reveal", "side": red})
    for viewer in (red, blue, None):
        v = FIXTURE.view(g.state, viewer)
        assert v["picks"] == {red: "lance", blue: "dagger"}
        assert v["log"][-1]["type"] == "reveal"


def test_views_of_every_state_hide_the_other_pick():
    """Along random games: whatever a side has picked and not yet revealed is in no view or
    visible log of the other side (nor a spectator's)."""
    for seed in range(1, 6):
        for sid in FIXTURE.scenario_ids():
            g = Game(FIXTURE, FIXTURE.load_scenario(sid), seed=seed)
            bots = {s: RandomPlayer(seed + i, ruleset=FIXTURE) for i, s in enumerate(g.state.sides)}
            while not g.outcome().over:
                st = g.state
                if not st.revealed:
                    for owner, card in st.picks.items():
                        for viewer in [s for s in st.sides if s != owner] + [None]:
                            hides(FIXTURE.view(st, viewer), FIXTURE.visible_events(st, viewer), owner, card)
                g.apply(bots[g.to_act()].choose(st))


def test_a_pick_can_be_undone_a_reveal_cannot():
    g = new_game()
    g.apply({"type": "pick", "side": "red", "card": "sword"})
    assert g.can_undo
    g.undo()
    assert g.state.picks == {} and g.actions == []
    g.apply({"type": "pick", "side": "red", "card": "sword"})
    g.apply({"type": "pick", "side": "blue", "card": "lance"})
    assert g.can_undo
    g.apply({"type": "reveal", "side": "red"})  # no die, but hidden cards are shown
    assert not g.can_undo
    with pytest.raises(IllegalAction):
        g.undo()
    g.apply({"type": "roll", "side": "blue"})  # two dice
    assert g.state.dice.count == 2 and not g.can_undo


def test_another_sides_action_is_refused_with_the_reason():
    g = new_game()
    before = g.digest()
    with pytest.raises(IllegalAction, match="red's turn"):
        g.apply({"type": "pick", "side": "blue", "card": "sword"})
    with pytest.raises(IllegalAction, match="no card named"):
        g.apply({"type": "pick", "side": "red", "card": "mace"})
    with pytest.raises(IllegalAction, match="field card"):
        g.apply({"type": "pick", "side": "red"})
    assert g.digest() == before and g.actions == []


def test_a_whole_game_replays_with_its_hidden_picks():
    g = new_game("long-feud")
    bots = {s: RandomPlayer(i, ruleset=FIXTURE) for i, s in enumerate(g.state.sides)}
    while not g.outcome().over:
        g.apply(bots[g.to_act()].choose(g.state))
    rec = json.loads(json.dumps(g.record()))
    again, verification = replay(rec)
    assert verification.commitment == "checked" and again.digest() == g.digest()
    assert rec["events"][-1]["type"] == "end" and g.state.dice.count == 2 * 4


def test_the_roll_odds_are_exact():
    g = new_game()
    g.apply({"type": "pick", "side": "red", "card": "lance"})   # +3
    g.apply({"type": "pick", "side": "blue", "card": "dagger"})  # +1
    g.apply({"type": "reveal", "side": "red"})
    outs = {o.label: o.probability for o in FIXTURE.chance_outcomes(g.state, FIXTURE.legal_actions(g.state)[0])}
    # red (d6 + 3) against blue (d6' + 1): a tie when d6' - d6 = 2 (4 of 36), blue wins when
    # d6' - d6 >= 3 (3 + 2 + 1 = 6 of 36), red the other 26
    assert set(outs) == {"red", "blue", "tie"}
    assert outs["red"] == Fraction(26, 36) and outs["tie"] == Fraction(4, 36) and outs["blue"] == Fraction(6, 36)
