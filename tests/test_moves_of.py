"""``moves_of`` (the engine's per-character move list, what the web client fetches for a rider)
is exactly the ``Move`` part of ``legal_actions``, in every state random play reaches."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st_

from oriflamme.ai.random_player import RandomPlayer
from oriflamme.rulesets.magna_carta.engine import legal_actions, moves_of
from oriflamme.rulesets.magna_carta.engine.actions import Move
from oriflamme.rulesets.magna_carta.engine.record import Game
from oriflamme.rulesets.magna_carta.scenario import load_scenario

FORD = load_scenario("the-ford")


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**31 - 1))
def test_moves_of_is_the_move_part_of_legal_actions(seed):
    g = Game(*FORD, seed)
    bot = RandomPlayer(seed)
    checked = 0
    for _ in range(120):
        if g.state.over:
            break
        acts = legal_actions(g.state)
        want: dict[str, list] = {}
        for a in acts:
            if isinstance(a, Move):
                want.setdefault(a.char, []).append(a)
        if want or checked < 3:
            for c in g.state.characters.values():
                assert moves_of(g.state, c.id) == want.get(c.id, [])
            checked += 1
        g.apply(bot.choose(g.state))
    assert checked > 0
    assert moves_of(g.state, "nobody") == []
