"""Property: legal_actions and apply's check cannot disagree (python-chess: one legal-move
generator that validation draws on). Random play of a random length from a random seed; in the
state reached, everything listed applies, and the actions of the rest of the game (other
states) whose choice (``Ruleset.choice_of``: a move's route is the player's) is not listed are
refused, and leave the state unchanged. Bounded examples, so that it stays fast.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from contract.kit import FIXTURE, bots_for
from oriflamme.core import IllegalAction
from oriflamme.core.dice import SampledDice
from oriflamme.core.record import Game


EXAMPLES = {"hidden-duel": 40}  # Magna Carta: a few (a random game there costs about 0.3 s)


def play_to(rs, sid: str, seed: int, steps: int) -> tuple[Game, list]:
    g = Game(rs, rs.load_scenario(sid), seed=f"property-{seed}")
    bots = bots_for(rs, g.scenario, seed)
    taken = []
    while not g.outcome().over and len(taken) < steps:
        a = bots[g.to_act()].choose(g.state)
        g.apply(a)
        taken.append(rs.action_to_json(a))
    return g, taken


def check_agreement(rs, sid: str, seed: int, steps: int) -> None:
    from oriflamme.core import registry
    registry.register(FIXTURE)  # hypothesis runs the body outside the autouse fixture's reach
    g, _ = play_to(rs, sid, seed, steps)
    # the actions of another game of the same scenario: states other than this one
    _, elsewhere = play_to(rs, sid, seed + 1, steps + 40)
    rng = random.Random(seed)
    state = g.state
    legal = rs.legal_actions(state)
    listed = [rs.action_to_json(a) for a in legal]
    listed_set = {rs.choice_of(x) for x in listed}
    before = rs.digest(state)
    for a in (legal if len(legal) <= 12 else rng.sample(legal, 12)):
        t = rs.clone(state)
        t.dice = SampledDice(rng, t.dice.count)
        rs.apply(t, a)  # listed: must apply
    for data in elsewhere:
        if rs.choice_of(data) in listed_set:
            continue
        t = rs.clone(state)
        t.dice = SampledDice(rng, t.dice.count)
        d0 = rs.digest(t)
        try:
            rs.apply(t, rs.action_from_json(json.loads(json.dumps(data))))
        except IllegalAction:
            assert rs.digest(t) == d0
            continue
        raise AssertionError(f"{rs.id}/{sid}: {data}: its choice is not listed, but apply accepts it")
    assert rs.digest(state) == before


def test_legal_actions_and_apply_agree(rs_scenario):
    from contract.kit import RULESETS
    rid, sid = rs_scenario
    rs = next(r for r in RULESETS if r.id == rid)

    @settings(max_examples=EXAMPLES.get(rid, 3), deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(1, 10_000), steps=st.integers(0, 60))
    def prop(seed, steps):
        check_agreement(rs, sid, seed, steps)

    prop()
