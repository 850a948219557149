"""The core contract, checked for every registered ruleset and every bundled scenario of each
(:class:`oriflamme.core.ruleset.Ruleset`; models: OpenSpiel's generic random-simulation test,
Rally the Troops' fuzzer). A new ruleset gets these tests by being registered.

Magna Carta's games are sampled, not exhausted (see ``conftest.py``): a few states per game,
a bounded number of legal actions per state.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from oriflamme.core import CHANCE, DiceSealed, IllegalAction, RecordError
from oriflamme.core import dice as dice_mod
from oriflamme.core.chance import TooManyDice
from oriflamme.core.dice import SampledDice
from oriflamme.core.record import Game, replay

from contract.kit import CASES, played, rng_for

PER_STATE = 8  # legal actions tried (applied, mutated) per sampled state, besides the fixture's all


def canon(obj) -> str:
    return json.dumps(obj, sort_keys=True)


def some(rng: random.Random, items: list, k: int) -> list:
    return list(items) if len(items) <= k else rng.sample(list(items), k)


def trial_copy(rs, state, rng: random.Random):
    """A copy of the state that may roll: its own dice, never the game's secret."""
    t = rs.clone(state)
    t.dice = SampledDice(rng, t.dice.count)
    return t


# --- random play ------------------------------------------------------------------------------
def test_random_play_reaches_the_end(case, playout):
    """to_act is a side (or None when over), legal actions are never empty before the end, every
    action the random player takes passes the checked apply, and the game ends."""
    assert not playout.problems, playout.problems
    g = playout.game
    out = g.outcome()
    assert out.over, f"{case}: not over after {len(playout.actions)} actions"
    assert g.to_act() is None
    sides = {s.id for s in case.ruleset.sides(g.scenario)}
    assert out.winner is None or out.winner in sides
    assert CHANCE not in sides


def test_every_legal_action_applies(case, playout):
    """Whatever legal_actions lists, the checked apply accepts (on a copy with its own dice)."""
    rs, rng = case.ruleset, rng_for(case, "applies")
    for i, state, legal in playout.samples:
        for a in some(rng, legal, PER_STATE):
            t = trial_copy(rs, state, rng)
            try:
                rs.apply(t, a)
            except IllegalAction as exc:
                pytest.fail(f"{case} action {i}: legal_actions lists {rs.action_to_json(a)} but apply refuses it: {exc}")


# --- codecs -------------------------------------------------------------------------------------
def test_state_json_round_trip(case, playout):
    rs = case.ruleset
    states = [s for _, s, _ in playout.samples] + [playout.game.state]
    for state in states:
        data = json.loads(json.dumps(rs.state_to_json(state)))
        back = rs.state_from_json(data, playout.game.scenario)
        assert rs.digest(back) == rs.digest(state)
        assert canon(rs.state_to_json(back)) == canon(data)
        assert case.secret not in json.dumps(data), "state_to_json carries the secret seed"


def test_action_codec_round_trip(case, playout):
    rs = case.ruleset
    for _, state, legal in playout.samples:
        for a in legal:
            data = json.loads(json.dumps(rs.action_to_json(a)))
            back = rs.action_from_json(data)
            assert back == a and rs.action_to_json(back) == data


# --- record, replay, commitment ---------------------------------------------------------------
def test_record_round_trip_and_replay(case, playout):
    g, rs = playout.game, case.ruleset
    rec = json.loads(json.dumps(g.record()))
    assert rec["over"] and rec["seed"] == case.secret
    assert rec["ruleset"] == rs.id and rec["actions"] == playout.actions
    again, verification = replay(rec)
    assert verification.commitment == "checked"
    assert again.digest() == g.digest() == rec["final_digest"]
    assert again.record() == rec


def test_a_tampered_seed_fails_on_its_commitment(case, playout):
    rec = json.loads(json.dumps(playout.game.record()))
    rec["seed"] = case.secret[:-1] + ("0" if case.secret[-1] != "0" else "1")
    with pytest.raises(RecordError, match="dice_commitment"):
        replay(rec)


def test_the_commitment_is_published_and_the_seed_verifies(case, playout):
    g = playout.game
    assert g.commitment == dice_mod.commitment(case.secret)
    for rec in playout.running_records:
        assert rec["dice_commitment"] == g.commitment
        assert rec["seed"] is None and not rec["over"]
    final = g.record()
    assert final["dice_commitment"] == g.commitment
    assert dice_mod.verify(final["seed"], final["dice_commitment"])


def test_a_running_record_cannot_be_replayed_yet(case):
    rs = case.ruleset
    g = Game(rs, rs.load_scenario(case.scenario_id), seed=case.secret)
    rec = g.record()
    assert rec["seed"] is None
    with pytest.raises(RecordError, match="seed"):
        replay(rec)


# --- illegal actions ----------------------------------------------------------------------------
def mutations(data: dict, rng: random.Random, sides: list[str]) -> list[dict]:
    """Wrong ids and shapes of one action's JSON: every field changed in turn."""
    out = []
    for key, val in data.items():
        if key == "type":
            continue
        if isinstance(val, str):
            for other in ("zz-nobody", "9999", ""):
                out.append({**data, key: other})
            out += [{**data, key: s} for s in sides if s != val]  # another side's action
        elif isinstance(val, list):
            if val:
                out.append({**data, key: val[:-1]})
                out.append({**data, key: val[:-1] + ["9999"]})
            out.append({**data, key: val + ["zz-nobody"]})
        elif isinstance(val, (int, float)) and not isinstance(val, bool):
            out += [{**data, key: val + 1000}, {**data, key: -val - 1}]
        out.append({k: v for k, v in data.items() if k != key})  # a field missing
    out.append({**data, "type": "zz-no-such-action"})
    out.append({**data, "zz_extra": 1})
    return out


def refused(rs, state, data: dict, rng: random.Random, where: str) -> bool:
    """Try ``data`` on a copy of ``state``: True when refused (at parsing or by the checked
    apply) with the copy unchanged, False when accepted."""
    t = trial_copy(rs, state, rng)
    before = rs.digest(t)
    try:
        action = rs.action_from_json(data)
    except IllegalAction:
        return True  # malformed: refused at parsing
    try:
        rs.apply(t, action)
    except IllegalAction:
        assert rs.digest(t) == before, f"{where}: refusing {data} changed the state"
        return True
    return False


def unlisted_accepted(case, playout, rng) -> list[tuple[int, dict, bool]]:
    """Mutations of sampled legal actions, and actions taken in other states of the game, that
    are not in legal_actions but that apply accepts: (action index, action, from the pool)."""
    rs = case.ruleset
    sides = [s.id for s in rs.sides(playout.game.scenario)]
    out = []
    for i, state, legal in playout.samples:
        legal_json = [rs.action_to_json(a) for a in legal]
        listed = {rs.choice_of(x) for x in legal_json}
        tries = [(m, False) for a in some(rng, legal, PER_STATE)
                 for m in some(rng, mutations(rs.action_to_json(a), rng, sides), 6)]
        tries += [(d, True) for d in some(rng, playout.actions, PER_STATE)]  # actions from other states
        for data, pooled in tries:
            if rs.choice_of(data) not in listed and not refused(rs, state, data, rng, f"{case} action {i}"):
                out.append((i, data, pooled, legal_json))
    return out


def test_no_illegal_action_is_accepted(case, playout):
    """Mutated actions (wrong ids, another side's, fields missing or extra) and actions taken
    in other states of the game, whose choice (``Ruleset.choice_of``) is not in legal_actions,
    are refused with IllegalAction and leave the state unchanged."""
    bad = [(i, data) for i, data, _, _ in unlisted_accepted(case, playout, rng_for(case, "mutations"))]
    assert not bad, f"{case}: not in legal_actions, yet accepted: {bad[:5]}"


@pytest.mark.parametrize("ruleset_id", sorted({c.ruleset_id for c in CASES}))
def test_apply_accepts_only_listed_choices(ruleset_id):
    """The strict form of the contract over every bundled game (seed 1): no action whose choice
    is outside legal_actions is accepted."""
    found = []
    for case in [c for c in CASES if c.ruleset_id == ruleset_id and c.seed == 1]:
        found += [(str(case), i, d) for i, d, _, _ in unlisted_accepted(case, played(case), rng_for(case, "mutations"))]
    assert not found, f"accepted though not listed: {found[:5]}"


def test_the_finished_game_refuses_everything(case, playout):
    rs, g, rng = case.ruleset, playout.game, rng_for(case, "over")
    assert rs.legal_actions(g.state) == []
    for data in some(rng, playout.actions, 10):
        assert refused(rs, g.state, data, rng, f"{case} (over)")


# --- views and secrets --------------------------------------------------------------------------
def test_views_hide_the_seed_and_never_mutate(case, playout):
    rs, g = case.ruleset, playout.game
    sides = [s.id for s in rs.sides(g.scenario)] + [None]
    for _, state, _ in playout.samples + [(None, g.state, None)]:
        before = rs.digest(state)
        for side in sides:
            v = rs.view(state, side)
            text = json.dumps(v)  # the view is JSON
            assert case.secret not in text, f"the view of {side} shows the secret seed"
            assert case.secret not in json.dumps(rs.visible_events(state, side))
            assert rs.digest(state) == before, f"view(state, {side!r}) changed the state"
    for rec in playout.running_records:
        assert case.secret not in json.dumps(rec), "a running game's record carries the secret seed"


def test_a_running_game_never_shows_its_seed(case):
    """A new game: its views, its log and its record export hold the commitment, not the seed."""
    rs = case.ruleset
    g = Game(rs, rs.load_scenario(case.scenario_id), seed=case.secret)
    for side in [s.id for s in rs.sides(g.scenario)] + [None]:
        assert case.secret not in json.dumps(rs.view(g.state, side))
        assert case.secret not in json.dumps(rs.visible_events(g.state, side))
    assert case.secret not in json.dumps(g.record())
    assert case.secret not in repr(g.state.dice)


def test_a_clone_holds_no_future_rolls(case, playout):
    rs = case.ruleset
    live = playout.game.state
    count = live.dice.count
    for _, state, _ in playout.samples[:3] + [(None, live, None)]:
        with pytest.raises(DiceSealed):
            rs.clone(state).dice.roll(rs.die_sides)
    assert live.dice.count == count


# --- chance -------------------------------------------------------------------------------------
def action_kinds(rs, legal) -> dict:
    """One action per JSON ``type`` (so that a sample reaches the actions that roll)."""
    by: dict = {}
    for a in legal:
        by.setdefault(rs.action_to_json(a).get("type", ""), a)
    return by


def rolling_actions(rs):
    """The sampled actions of the bundled games that roll dice, as ``(state, action, outcomes)``;
    an action with more dice than :func:`oriflamme.core.chance.enumerate_outcomes` allows (e.g. a
    volley of many bows) raises ``TooManyDice`` and is left out."""
    if not rs.scenario_ids():
        pytest.skip(f"{rs.id}: no bundled scenario to play yet")
    for case in [c for c in CASES if c.ruleset_id == rs.id and c.seed == 1]:
        for _, state, legal in played(case).samples:
            for a in action_kinds(rs, legal).values():
                try:
                    outs = rs.chance_outcomes(state, a)
                except TooManyDice:
                    continue
                if outs:
                    yield state, a, outs


def test_chance_outcomes_are_exact(ruleset):
    """For sampled actions that roll, the outcomes' probabilities are exact Fractions summing to
    1, their dice are faces of the ruleset's die, and the first die's faces are all covered. At
    least one such action is found in the bundled games."""
    rs = ruleset
    found = 0
    for _, _, outs in rolling_actions(rs):
        found += 1
        assert all(isinstance(o.probability, Fraction) and o.probability > 0 for o in outs)
        assert sum(o.probability for o in outs) == 1, [o.to_json() for o in outs]
        assert all(1 <= d <= rs.die_sides for o in outs for d in o.dice)
        assert len({o.label for o in outs}) == len(outs)
        json.dumps([o.to_json() for o in outs])
    assert found, f"{rs.id}: no action that rolls dice in the sampled states"


def test_chance_children_are_the_outcomes_applied(ruleset):
    """Where a ruleset provides ``chance_children`` (the search's shortcut), it gives exactly
    ``chance_outcomes``, and each child is the state that applying the outcome's dice to a copy
    gives (digest for digest, dice sealed): the shortcut changes no game."""
    from oriflamme.core.dice import FixedDice
    rs = ruleset
    checked = 0
    for state, a, outs in rolling_actions(rs):
        pairs = rs.chance_children(state, a)
        if pairs is None:
            pytest.skip(f"{rs.id}: no chance_children (the search applies each outcome itself)")
        assert [o for o, _ in pairs] == outs
        for o, child in pairs:
            again = rs.clone(state)
            again.dice = FixedDice(o.dice, state.dice.count)
            rs.apply_unchecked(again, a)
            assert rs.digest(child) == rs.digest(again)
            with pytest.raises(DiceSealed):
                child.dice.roll(rs.die_sides)
        checked += 1
    assert checked, f"{rs.id}: no action that rolls dice in the sampled states"


def test_advised_actions_are_legal(case, playout):
    """What a ruleset advises its computer players to weigh (``Ruleset.advised_actions``, optional)
    is always among the legal actions it is given: advice never makes an illegal action playable."""
    rs = case.ruleset
    for _, state, legal in playout.samples:
        side = rs.to_act(state)
        if side is None or side == CHANCE:
            continue
        advised = rs.advised_actions(state, side, legal)
        assert all(a in legal for a in advised)
