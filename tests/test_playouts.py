"""Random playouts (the engine's fuzzer) and record replays, as property-based tests.

Invariants after every action of random legal play: at most one live character per hex
(§4.1); no character has negative movement points or spent more than his allowance; the dead
and the stunned are never offered an action as actors; the state survives a JSON round-trip;
and the whole record replays to the same state.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st_

from oriflamme.ai.random_player import RandomPlayer
from oriflamme.engine import legal_actions
from oriflamme.engine.actions import Advance, Attack, Fire, Move, Retreat
from oriflamme.engine.movement import points_left
from oriflamme.engine.record import Game, replay
from oriflamme.engine.state import GameState
from oriflamme.scenario import bundled_scenario_ids, load_scenario, validate_scenario

SCENARIOS = {sid: load_scenario(sid) for sid in bundled_scenario_ids()}


def check_invariants(state: GameState) -> None:
    seen = {}
    for c in state.characters.values():
        if c.alive and c.hex is not None:
            assert c.hex not in seen, f"{c.id} and {seen[c.hex]} both alive in {c.hex.label}"
            seen[c.hex] = c.id
        assert points_left(state, c) >= 0
        # never more than the healthy allowance (a wound later in the phase may lower it)
        assert state.mp_spent.get(c.id, 0) <= c.movement
    for a in legal_actions(state):
        actors = []
        if isinstance(a, Move):
            actors = [a.char]
        elif isinstance(a, Fire):
            actors = [a.shooter]
        elif isinstance(a, Attack):
            actors = list(a.attackers)
        elif isinstance(a, Advance):
            actors = [a.char]
        for cid in actors:
            c = state.characters[cid]
            assert c.active, f"{cid} is {c.status} but is offered {a}"
        if isinstance(a, Retreat):
            assert state.characters[a.char].alive


def play(sid: str, seed: int, check_every: int = 1, limit: int = 4000) -> Game:
    scenario, gmap = SCENARIOS[sid]
    g = Game(scenario, gmap, seed)
    bots = {s: RandomPlayer(seed * 7 + i) for i, s in enumerate(g.state.sides)}
    n = 0
    while not g.state.over:
        g.apply(bots[g.state.to_act()].choose(g.state))
        n += 1
        assert n < limit, "the game does not end"
        if n % check_every == 0:
            check_invariants(g.state)
            rt = GameState.from_json(json.loads(json.dumps(g.state.to_json())), g.state.gmap)
            assert rt.digest() == g.state.digest()
    return g


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sid=st_.sampled_from(sorted(SCENARIOS)), seed=st_.integers(0, 2**31 - 1))
def test_random_play_keeps_invariants_and_replays(sid, seed):
    g = play(sid, seed, check_every=3)
    assert g.state.over and g.state.result_text
    rec = json.loads(json.dumps(g.record()))
    again = replay(rec, lambda d: validate_scenario(d, "record"))
    assert again.state.digest() == g.state.digest()
    assert again.state.log == g.state.log


def test_same_seed_same_game():
    a = play("the-hill", 42, check_every=50)
    b = play("the-hill", 42, check_every=50)
    assert a.actions == b.actions and a.state.digest() == b.state.digest()
