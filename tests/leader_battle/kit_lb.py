"""Small positions for the leader-battle rules tests: a scenario built in code on an 8x6 map,
sides ``red`` (the attacker) and ``blue``, and helpers to put the sequence at a given step."""

from __future__ import annotations

from pathlib import Path

from oriflamme.core.dice import FixedDice
from oriflamme.rulesets.leader_battle import engine
from oriflamme.rulesets.leader_battle.ruleset import LeaderBattle
from oriflamme.rulesets.leader_battle.scenario import from_data
from oriflamme.rulesets.leader_battle.state import initial

RS = LeaderBattle()
SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "001_f84dc879b59dfe01.txt"
if not SEED.exists():
    SEED = Path("/work/shared/seeds/001_f84dc879b59dfe01.txt")


def seed_line(n: int) -> str:
    """Line ``n`` (1-based) of the seed, as the citations "LB seed 001 l.N" count them."""
    return SEED.read_text(encoding="utf-8").splitlines()[n - 1]


def unit(uid, side, kind, hex_, facing=0, leader=None, steps=None):
    out = {"id": uid, "side": side, "kind": kind, "name": uid, "hex": hex_, "facing": facing,
           "leader": leader or ("r1" if side == "red" else "b1")}
    if steps:
        out["steps"] = steps
    return out


def scenario(units, leaders=None, hexsides=None, banner=None, terrain=None, turns=3, objectives=None,
             break_point=9):
    leaders = leaders or [
        {"id": "r1", "side": "red", "name": "Red One", "hex": "0101", "command_range": 9, "movement": 6},
        {"id": "b1", "side": "blue", "name": "Blue One", "hex": "0806", "command_range": 9, "movement": 6}]
    data = {"id": "test", "name": "test", "turns": turns, "cols": 8, "rows": 6, "attacker": "red",
            "side": [{"id": "red", "name": "Red", "break_point": break_point},
                     {"id": "blue", "name": "Blue", "break_point": break_point}],
            "leader": leaders, "unit": units, "hexsides": hexsides or {}, "terrain": terrain or {},
            "objectives": objectives or [], "objectives_needed": 1 if objectives else 0}
    if banner:
        data["banner"] = banner
    return from_data(data, "<test>")


def bare(units, **kw):
    """The state before any settling (step A), dice fixed to nothing."""
    return initial(scenario(units, **kw), FixedDice([]))


def started(units, dice=(), **kw):
    """The game set up: A done, the state waits in B (or later if B has nothing)."""
    st = initial(scenario(units, **kw), FixedDice(list(dice)))
    engine.setup(st)
    return st


def at_activation(st, leader_id: str, step: str = "D1"):
    """Put the sequence at ``step`` of ``leader_id``'s activation (the test's starting point)."""
    st.order = [leader_id]
    st.act_index = 0
    st.active_leader = leader_id
    st.moved, st.fired, st.combats, st.current = set(), set(), [], None
    st.step = step
    return st


def acts(st, side=None, kind=None):
    return [a for a in engine.legal_actions(st, side) if kind is None or a.type == kind]


def fires(st):
    return {(a.unit, a.target) for a in acts(st, kind="fire")}
