"""Random playouts (the engine's fuzzer) and record replays, as property-based tests.

Invariants after every action of random legal play: at most one live character per hex
(§4.1), a rider covering two (§1.2) and never split from his horse; no character has negative movement points or spent more than his allowance; the dead
and the stunned are never offered an action as actors; the state survives a JSON round-trip;
and the whole record replays to the same state.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st_

from oriflamme.ai.random_player import RandomPlayer
from oriflamme.rulesets.magna_carta.engine import legal_actions
from oriflamme.rulesets.magna_carta.engine.actions import Advance, Attack, Fire, Move, Retreat
from oriflamme.rulesets.magna_carta.engine.movement import points_left
from oriflamme.rulesets.magna_carta.engine.record import Game, replay
from oriflamme.rulesets.magna_carta.engine.state import GameState
from oriflamme.rulesets.magna_carta.scenario import bundled_scenario_ids, load_scenario, validate_scenario

SCENARIOS = {sid: load_scenario(sid) for sid in bundled_scenario_ids()}


def check_invariants(state: GameState) -> None:
    seen = {}
    rs = state.rules
    # a stunned friend on his carrier's back until the set-down prompt is answered (§4.2.4)
    carried = {p.data["friend"] for p in state.pending if p.kind == "set_down"}
    for c in state.characters.values():
        if c.alive and c.hex is not None and c.id not in carried:
            for h in c.hexes:  # a rider covers two hexes (§1.2)
                assert h not in seen, f"{c.id} and {seen[h]} both alive in {h.label}"
                seen[h] = c.id
        if c.mounted and c.hex is not None:
            # a rider is never split from his horse: both hexes on the map, open to a horse,
            # no wall between them; and a dead character is never left in the saddle
            assert c.alive, f"{c.id} is dead in the saddle"
            front, rear = c.hexes
            assert front.distance(rear) == 1 and front in state.gmap and rear in state.gmap
            for h in (front, rear):
                assert rs.terrain[state.gmap.terrain(h)].cost_for(True, c.armour) != "impassable", (c.id, h.label)
            side = state.gmap.hexside(front, rear)
            assert not side or rs.hexsides[side].crossing_for(True) != "impassable"
        assert points_left(state, c) >= 0
        # never more than the healthy allowance (a wound later in the phase may lower it)
        assert state.phase.mp_spent.get(c.id, 0) <= c.movement
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
    rec = json.loads(json.dumps(g.record(reveal=True)))
    again = replay(rec, lambda d: validate_scenario(d, "record"))
    assert again.state.digest() == g.state.digest()
    assert again.state.log == g.state.log


def test_same_seed_same_game():
    a = play("the-hill", 42, check_every=50)
    b = play("the-hill", 42, check_every=50)
    assert a.actions == b.actions and a.state.digest() == b.state.digest()


def test_random_play_with_riders():
    """The bundled rider scenario, several seeds, every action checked (riders, horses, the
    volte, unhorsing, mounting and dismounting happen in random play)."""
    kinds = set()
    for seed in range(3):
        g = play("the-ford", seed, check_every=1)
        kinds |= {e["type"] for e in g.state.log}
        rec = json.loads(json.dumps(g.record(reveal=True)))
        assert replay(rec, lambda d: validate_scenario(d, "record")).state.digest() == g.state.digest()
    assert {"move", "infiltration"} <= kinds
