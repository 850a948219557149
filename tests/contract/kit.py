"""The contract suite's kit — its cases: every registered ruleset (the hidden-duel fixture plugged in here
with :func:`oriflamme.core.registry.register`, nothing else), every bundled scenario of each,
a few seeds; and the random playouts the tests share (played once per session).

Magna Carta is kept fast: two seeds per scenario, states sampled along the game (the first
few actions, then every 25th), a bounded number of legal actions tried per sampled state.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from fixtures.hidden_duel import HiddenDuel
from oriflamme.ai.random_player import RandomPlayer
from oriflamme.core import registry
from oriflamme.core.record import Game

FIXTURE = HiddenDuel()

# parametrisation needs the fixture registered at collection; it is registered again around
# each contract test (below) and removed in between, so that the rest of the suite (the web
# lobby's list of rulesets, the CLI's) sees only the installed rulesets
registry.register(FIXTURE)
RULESETS = registry.all_rulesets()
registry.unregister(FIXTURE.id)

#: seeds per scenario, and the action cap of a random game (a longer game is a failure: no
#: bundled game comes near it — Magna Carta's longest random games are about 300 actions)
SEEDS = {"hidden-duel": (1, 2, 3, 4, 5)}
DEFAULT_SEEDS = (1, 2)
LIMIT = 1500


def sampled(i: int) -> bool:
    """Which states along a playout the heavier checks look at (the fixture: all of them)."""
    return i < 8 or i % 25 == 0


@dataclass(frozen=True)
class Case:
    ruleset_id: str
    scenario_id: str
    seed: int

    @property
    def ruleset(self):
        return next(r for r in RULESETS if r.id == self.ruleset_id)

    @property
    def secret(self) -> str:
        """The game's secret seed: 64 hex digits, as the server draws them (never seen by chance)."""
        return hashlib.sha256(f"contract:{self.ruleset_id}:{self.scenario_id}:{self.seed}".encode()).hexdigest()

    def __str__(self) -> str:
        return f"{self.ruleset_id}/{self.scenario_id}/{self.seed}"


CASES = [Case(rs.id, sid, seed) for rs in RULESETS for sid in rs.scenario_ids()
         for seed in SEEDS.get(rs.id, DEFAULT_SEEDS)]
SCENARIOS = [(rs.id, sid) for rs in RULESETS for sid in rs.scenario_ids()]


@dataclass
class Playout:
    """A random game played through the core :class:`Game`, with the states the tests sample:
    ``samples`` holds (action index, sealed copy of the state, its legal actions)."""
    case: Case
    game: Game
    samples: list = field(default_factory=list)
    actions: list = field(default_factory=list)  # every action taken (the pool of "other states' actions")
    running_records: list = field(default_factory=list)  # records exported while the game ran
    problems: list = field(default_factory=list)  # invariant violations met while playing


def bots_for(rs, scenario, seed: int) -> dict:
    return {s.id: RandomPlayer(seed * 7 + i, ruleset=rs) for i, s in enumerate(rs.sides(scenario))}


def play(case: Case) -> Playout:
    rs = case.ruleset
    scenario = rs.load_scenario(case.scenario_id)
    game = Game(rs, scenario, seed=case.secret)
    out = Playout(case, game)
    sides = {s.id for s in rs.sides(scenario)}
    bots = bots_for(rs, scenario, case.seed)
    i = 0
    while True:
        who = game.to_act()
        over = game.outcome().over
        if over:
            if who is not None:
                out.problems.append(f"action {i}: the game is over but to_act is {who!r}")
            if rs.legal_actions(game.state):
                out.problems.append(f"action {i}: the game is over but actions are legal")
            break
        if who not in sides:
            out.problems.append(f"action {i}: to_act is {who!r}, not a side (sides: {sorted(sides)})")
            break
        legal = rs.legal_actions(game.state)
        if not legal:
            out.problems.append(f"action {i}: the game is not over and {who} has no legal action (a dead end)")
            break
        if sampled(i):
            out.samples.append((i, rs.clone(game.state), legal))
        if i in (3, 11):
            out.running_records.append(game.record())
        action = bots[who].choose(game.state)
        game.apply(action)  # the checked path: a legal action the ruleset refuses raises here
        out.actions.append(rs.action_to_json(action))
        i += 1
        if i >= LIMIT:
            out.problems.append(f"the game does not end after {LIMIT} actions")
            break
    return out


_PLAYED: dict[Case, Playout] = {}


def played(case: Case) -> Playout:
    """The case's random game, played once per session."""
    if case not in _PLAYED:
        _PLAYED[case] = play(case)
    return _PLAYED[case]


def rng_for(case: Case, salt: str = "") -> random.Random:
    return random.Random(f"{case}:{salt}")
