"""The chance children of the Magna Carta family, one per result (issue 14): the same
distribution as the enumeration face by face, on real situations of the bundled scenarios.

The rules never read the log (it narrates), so two children are the same game when their
states agree but for the log's narration of the roll: the die's value and the words that read
it. :func:`state_key` is that state; the enumeration by result must give, key by key, exactly
the probabilities the enumeration of every sequence of faces gives.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from oriflamme.core import registry
from oriflamme.core.chance import TooManyDice
from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import DiceSealed
from oriflamme.core.record import Game

SCENARIOS = [("magna-carta", s) for s in ("hamlet-raid", "the-caravan", "the-ford", "the-hay-cart", "the-hill")] + \
    [("cry-havoc", "the-hill"), ("cry-havoc", "the-village"), ("croisades", "caravan-ambush"), ("croisades", "the-caravan")]


def state_key(rs, state) -> str:
    """The state but for the log's words (its length kept)."""
    body = rs.state_to_json(state)
    body["log"] = len(body["log"])
    return json.dumps(body, sort_keys=True)


def per_face(rs, state, action, max_dice: int = 3, limit: int = 2000) -> dict[str, Fraction]:
    """Every sequence of faces applied (no grouping at all), probabilities summed by state."""
    out: dict[str, Fraction] = {}
    frontier: list[tuple[int, ...]] = [()]
    leaves = 0
    while frontier:
        prefix = frontier.pop(0)
        trial = rs.clone(state)
        trial.dice = FixedDice(prefix, trial.dice.count)
        try:
            rs.apply_unchecked(trial, action)
        except DiceSealed:
            if len(prefix) >= max_dice or leaves + len(frontier) > limit:
                raise TooManyDice("too many faces to compare") from None
            frontier.extend(prefix + (d,) for d in range(1, rs.die_sides + 1))
            continue
        leaves += 1
        k = state_key(rs, trial)
        out[k] = out.get(k, Fraction(0)) + Fraction(1, rs.die_sides ** len(prefix))
    return out


def by_result(rs, state, action) -> tuple[dict[str, Fraction], int]:
    kids = rs.chance_children(state, action)
    out: dict[str, Fraction] = {}
    for o, child in kids:
        k = state_key(rs, child)
        out[k] = out.get(k, Fraction(0)) + o.probability
    return out, len(kids)


def rolls(rs, state, action) -> bool:
    try:
        rs.apply_unchecked(rs.clone(state), action)
    except DiceSealed:
        return True
    except Exception:  # noqa: BLE001 - an action the copy refuses is no chance point
        return False
    return False


def situations(rid: str, scenario: str, seed: int, per_type: int = 2, plies: int = 400, tries: int = 25):
    """Up to ``per_type`` rolling actions of each type met in a random game of ``scenario``."""
    rs = registry.get(rid)
    game = Game(rs, rs.load_scenario(scenario), seed)
    rng = random.Random(seed)
    found: dict[str, list] = {}
    for ply in range(plies):
        if game.outcome().over:
            break
        side = game.to_act()
        acts = rs.legal_actions(game.state, side)
        if ply % 2 == 0:
            for a in rng.sample(acts, min(tries, len(acts))):
                kind = getattr(a, "type", type(a).__name__)
                if len(found.get(kind, ())) < per_type and rolls(rs, game.state, a):
                    found.setdefault(kind, []).append((rs.clone(game.state), a))
        game.apply(rng.choice(acts))
    return rs, [s for v in found.values() for s in v]


def check(rs, state, action) -> int | None:
    """Asserts the two enumerations agree; the children by result (None: too many faces)."""
    try:
        expected = per_face(rs, state, action)
    except TooManyDice:
        return None
    got, n = by_result(rs, state, action)
    assert sum(got.values()) == 1
    assert got == expected, f"{rs.id}: {rs.action_to_json(action)}"
    return n


@pytest.mark.parametrize("rid,scenario", SCENARIOS, ids=[f"{r}:{s}" for r, s in SCENARIOS])
def test_children_by_result_are_the_faces_grouped_by_state(rid, scenario):
    """Fire (and its stray shot), melee, moves that meet infiltration tests, defensive fire,
    jumps or a camel's fear: the children by result give each state its faces' probability."""
    rs, found = situations(rid, scenario, seed=7)
    assert found, f"no rolling action met in {scenario}"
    kinds = Counter()
    for state, action in found:
        if check(rs, state, action) is not None:
            kinds[getattr(action, "type", "")] += 1
    assert kinds, "every situation had too many faces to compare"


def test_the_situations_cover_fire_melee_and_moves():
    """The comparison above meets the common rolls: offensive fire, melee and a roll in a move."""
    kinds = Counter()
    for rid, scenario in SCENARIOS[:5]:
        _, found = situations(rid, scenario, seed=7)
        kinds.update(getattr(a, "type", "") for _, a in found)
    assert {"fire", "attack", "move"} <= set(kinds), kinds


def test_a_shot_is_applied_once_per_result():
    """A shot of the-hill: one child per table result (and per stray-shot result after a miss),
    fewer than the faces; the children's dice are one face of each result."""
    rs, found = situations("magna-carta", "the-hill", seed=7)
    shots = [(s, a) for s, a in found if getattr(a, "type", "") == "fire"]
    assert shots
    for state, action in shots:
        kids = rs.chance_children(state, action)
        ruling = rs.explain(state, action)
        letters = {k for k, p in ruling["probabilities"].items() if p}
        assert {o.dice[0] for o, _ in kids} <= set(range(1, 11))
        assert len({o.dice[0] for o, _ in kids}) == len(letters)  # one first face per table result
        assert len(kids) < 10 + 10 * 10  # the faces (a miss rolls a stray-shot die)
        for o, child in kids:  # each child is its representative faces applied
            trial = rs.clone(state)
            trial.dice = FixedDice(o.dice, trial.dice.count)
            rs.apply_unchecked(trial, action)
            assert state_key(rs, trial) == state_key(rs, child)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(0, 1000))
def test_property_by_result_equals_per_face(where, seed, pick):
    """Any random game of any bundled scenario, any rolling action met: the same distribution."""
    rid, scenario = where
    rs, found = situations(rid, scenario, seed, per_type=1, plies=120, tries=10)
    if found:
        state, action = found[pick % len(found)]
        check(rs, state, action)
