"""The work a web response shares (engine/memo.py): inside ``read_only(state)`` the searches
answer once per position, and the seat view is exactly the one computed without the memo."""

from __future__ import annotations

import random

import pytest

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta import web_options
from oriflamme.rulesets.magna_carta.engine import legal_actions, riding
from oriflamme.rulesets.magna_carta.engine.memo import read_only

RS = registry.get("magna-carta")


def _positions(scenario: str, seed: int, n: int):
    g = Game(RS, RS.load_scenario(scenario), seed)
    rng = random.Random(seed)
    for _ in range(n):
        if g.outcome().over:
            return
        yield g.state
        acts = legal_actions(g.state)
        g.apply(rng.choice(acts))


@pytest.mark.parametrize("scenario", ["the-ford", "the-hay-cart", "the-caravan"])
def test_the_seat_view_is_the_same_with_the_memo(scenario):
    for state in _positions(scenario, 7, 40):
        plain = web_options.options(state, legal_actions(state))
        riders = [c.id for c in state.characters.values() if c.mounted and c.hex is not None]
        with read_only(state):
            shared = web_options.options(state, legal_actions(state))
            details = {cid: web_options.moves(state, cid) for cid in riders}
        assert shared == plain
        assert details == {cid: web_options.moves(state, cid) for cid in riders}
        assert RS.seat_view(state, state.to_act(), True)["options"] == plain


def test_the_memo_answers_once_per_position_and_only_inside():
    state = next(s for s in _positions("the-ford", 3, 60)
                 if s.step == "movement" and not s.pending
                 and any(c.mounted and c.side == s.active and c.hex is not None for c in s.characters.values()))
    import oriflamme.rulesets.magna_carta.engine.memo as memo
    rider = next(c for c in state.characters.values() if c.mounted and c.side == state.active and c.hex is not None)
    with read_only(state):
        a = riding.reachable(state, rider, 5)
        b = riding.reachable(state, rider, 5)
        c = riding.reachable(state, rider, 4)
        other = state.clone()
        d = riding.reachable(other, other.characters[rider.id], 5)
    assert a is b and a is not c and d is not a and d == a
    assert riding.reachable(state, rider, 5) is not a  # outside the scope: computed afresh
    assert memo._SCOPE.get() is None
