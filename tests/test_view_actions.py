"""The view's actions (``engine.game.view_actions``): the legal actions with each character's
moves summed up (a rider's by their costs only: a search without paths). ``legal_actions`` stays the one source of
legality: the options the browser gets are exactly the ones built from the full legal actions,
and a rider's summary expands to exactly his ``Move`` actions."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from test_rider_search import positions

from oriflamme.core import registry
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta import web_options
from oriflamme.rulesets.magna_carta.engine import legal_actions, moves_of, riding
from oriflamme.rulesets.magna_carta.engine.actions import Move
from oriflamme.rulesets.magna_carta.engine.game import MoveSummary, move_table, view_actions
from oriflamme.rulesets.magna_carta.engine.memo import read_only
from oriflamme.rulesets.magna_carta.engine.movement import points_left

RS = registry.get("magna-carta")


def _positions(scenario: str, seed: int, n: int):
    """Positions of a random game: an action type drawn first, then an action of that type (so
    the steps end now and then and the game reaches fire, melee and prompts, not only moves)."""
    g = Game(RS, RS.load_scenario(scenario), seed)
    rng = random.Random(seed)
    for _ in range(n):
        if g.outcome().over:
            return
        yield g.state
        by_type: dict[str, list] = {}
        for a in legal_actions(g.state):
            by_type.setdefault(a.type, []).append(a)
        g.apply(rng.choice(by_type[rng.choice(sorted(by_type))]))


def _dump(opts: dict) -> str:
    return json.dumps(opts, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("scenario,seed", [("the-ford", 1), ("the-ford", 2), ("the-hill", 3), ("the-caravan", 4)])
def test_the_options_are_the_ones_of_the_full_legal_actions(scenario, seed):
    riders_seen = 0
    for state in _positions(scenario, seed, 60):
        full = _dump(web_options.options(state, legal_actions(state)))
        assert _dump(web_options.options(state)) == full  # view_actions, no memo
        with read_only(state):
            assert _dump(web_options.options(state)) == full
        assert _dump(RS.seat_view(state, state.to_act(), True)["options"]) == full
        # a rider's summary stands for exactly his moves, in their place
        acts = legal_actions(state)
        expanded = []
        for a in view_actions(state):
            if isinstance(a, MoveSummary):
                c = state.characters[a.char]
                riders_seen += c.mounted
                moves = moves_of(state, a.char)
                assert moves and len(moves) == len(a.costs)
                found, labels = move_table(state, c)
                assert list(a.costs) == sorted(found)
                assert a.costs == {k: found[k][0] for k in sorted(found)}
                assert [m.path for m in moves] == [labels[k] for k in a.costs]
                if a.paths is not None:  # on foot: the paths are the moves'
                    assert not c.mounted and [Move(a.char, a.paths[k]) for k in a.costs] == moves
                else:
                    assert c.mounted
                expanded.extend(moves)
            else:
                expanded.append(a)
        assert expanded == acts
    if scenario == "the-ford":
        assert riders_seen > 0


def test_the_cost_only_search_matches_the_full_one():
    for state in _positions("the-ford", 5, 40):
        for c in state.characters.values():
            if c.mounted and c.hex is not None:
                for budget in (points_left(state, c), 3, 12):
                    full = riding.reachable(state, c, budget)
                    costs = riding.reach_costs(state, c, budget)
                    assert list(costs) == sorted(full)
                    assert costs == {k: v[0] for k, v in full.items()}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions())
def test_the_cost_only_search_matches_the_full_one_anywhere(pos):
    """Random positions (test_rider_search's): low walls and water to jump, bodies, enemies,
    budgets up to 30."""
    st, c, budget = pos
    full = riding.reachable(st, c, budget)
    costs = riding.reach_costs(st, c, budget)
    assert list(costs) == sorted(full)
    assert costs == {k: v[0] for k, v in full.items()}
