"""Invariants over random play (hypothesis): steps stay within the unit's strength, a broken
unit is off the map, stacking limits and the river hold, sides never share a hex, a refused
action leaves the state unchanged, and the view never mutates the state."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from oriflamme.ai.random_player import RandomPlayer
from oriflamme.core.dice import Dice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.leader_battle.queries import H
from oriflamme.rulesets.leader_battle.rules import rules

from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.leader_battle.queries import unit_moves

from kit_lb import RS, started, unit

SCENARIO = RS.load_scenario("the-bridge-of-vauclair")
EAST = {u.id for u in SCENARIO.unit if H(u.hex).col >= 6}  # who starts on the east bank


def check_invariants(state):
    r = rules()
    load: dict = {}
    sides: dict = {}
    for u in state.units.values():
        assert 0 <= u.steps <= u.spec.steps
        assert (u.steps == 0) == u.broken
        if u.broken:
            continue
        load[u.hex] = load.get(u.hex, 0) + u.spec.stack
        sides.setdefault(u.hex, set()).add(u.side)
        assert state.board.on_map(H(u.hex))
    assert all(v <= r.stacking.limit for v in load.values()), load
    assert all(len(s) == 1 for s in sides.values()), sides


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 10_000), weight=st.sampled_from([0.05, 0.3]))
def test_invariants_hold_after_any_legal_sequence(seed, weight):
    state = RS.setup(SCENARIO, Dice(f"prop-{seed}"))
    bots = {s.id: RandomPlayer(seed + i, end_step_weight=weight, ruleset=RS) for i, s in enumerate(RS.sides(SCENARIO))}
    n = 0
    while not RS.outcome(state).over:
        who = RS.to_act(state)
        if n % 17 == 0:  # a refusal leaves everything as it was
            before = RS.digest(state)
            other = next(s.id for s in SCENARIO.side if s.id != who)
            try:
                RS.apply(state, {"type": "end_step", "side": other})
            except IllegalAction as exc:
                assert exc.ref
            assert RS.digest(state) == before
            json.dumps(RS.view(state, other))
            assert RS.digest(state) == before
        RS.apply(state, bots[who].choose(state))
        check_invariants(state)
        n += 1
        assert n < 1500
    assert state.turn <= SCENARIO.turns


def test_the_river_is_crossed_only_by_the_bridge():
    """LB house §2.5: no move crosses a river hexside; the bridge is crossed. A red unit on the
    east bank of a river between columns 03 and 04 reaches the west bank only by the bridge."""
    river = [f"{h.label}-{h.neighbour(d).label}" for r in range(6) for h in [Hex.from_offset(2, r)]
             for d in (1, 2) if 0 <= h.neighbour(d).row < 6]
    units = [unit("rc", "red", "cavalry", "0504", 5), unit("bi", "blue", "infantry", "0801", 0)]
    closed = started(units, hexsides={"river": river})
    assert all(H(h).col >= 3 for h, _ in unit_moves(closed, closed.units["rc"]))
    bridge = "0303-0403"
    opened = started(units, hexsides={"river": [x for x in river if x != bridge], "bridge": [bridge]})
    west = {h for h, _ in unit_moves(opened, opened.units["rc"]) if H(h).col < 3}
    assert west and bridge[:4] in west
