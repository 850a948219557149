"""The game state's feature parts (engine/parts.py): each owns its fields, its phase reset, its
copy and its JSON; the state's JSON keeps the flat keys it had before the split."""

from __future__ import annotations

import dataclasses
import json

from gamekit import H, game

from oriflamme.rulesets.magna_carta.engine.parts import PARTS, Cart, Horse, Part
from oriflamme.rulesets.magna_carta.engine.state import GameState
from oriflamme.rulesets.magna_carta.engine import turn

OPEN = [" ".join("." * 10)] * 10

#: The keys of the state's JSON before the split (grab_failed and kneeling: only when set).
CORE_KEYS = {"ruleset", "scenario", "characters", "sides", "dice", "weather", "turn", "last_turn", "phase_no",
             "active", "step", "pending", "log", "winner", "over", "result_text"}
PART_KEYS = {"fired", "fire_limit", "mp_spent", "stopped", "attacked", "engaged", "opportunity_used", "clearing",
             "harnessing", "carcasses", "declared", "defensive_ready", "df_fired", "df_targets", "df_walked",
             "df_last", "horses", "carts", "frightened"}
WHEN_SET = {"grab_failed", "kneeling"}


def _state() -> GameState:
    return game(OPEN, [("a", "spearman", "A", "0202"), ("b", "spearman", "B", "0805")])


def _filled(st: GameState) -> GameState:
    """Every field of every part set to something."""
    ph, df = st.phase, st.defensive_fire
    ph.fired.add("a"); ph.fire_limit["a"] = "half"; ph.mp_spent["a"] = 2; ph.stopped.add("a")  # noqa: E702
    ph.attacked.add("a"); ph.engaged.add("b"); ph.opportunity_used.add("b"); ph.clearing.add("a")  # noqa: E702
    df.declared["b"] = "defensive"; df.defensive_ready.add("b"); df.df_fired.add("b")  # noqa: E702
    df.df_targets.append("a"); df.df_walked["a"] = 3; df.df_last["a"] = 1  # noqa: E702
    st.riders.horses["h"] = Horse("h", H("0505"), 0, "A")
    st.riders.frightened["a"] = 1
    st.riders.grab_failed["a/h"] = 1
    st.camels.kneeling.add("a")
    st.carts.carts["c1"] = Cart("c1", H("0707"), H("0708"))
    st.carts.harnessing.add("a")
    st.bodies.carcasses[H("0303")] = {"horse": 1}
    return st


def test_every_part_is_on_the_state_under_its_name():
    st = _state()
    assert [type(p) for p in st.parts()] == list(PARTS)
    assert all(isinstance(p, Part) and getattr(st, p.name) is p for p in st.parts())
    assert len({p.name for p in PARTS}) == len(PARTS)


def test_the_state_json_keeps_its_flat_keys():
    st = _state()
    assert set(st.to_json()) == CORE_KEYS | PART_KEYS  # grab_failed, kneeling: written only when set
    assert set(_filled(st).to_json()) == CORE_KEYS | PART_KEYS | WHEN_SET


def test_parts_round_trip_through_json():
    st = _filled(_state())
    d = json.loads(json.dumps(st.to_json()))
    back = GameState.from_json(d, st.gmap)
    assert back.to_json() == st.to_json() and back.digest() == st.digest()
    for part in st.parts():
        assert getattr(back, part.name) == part


def test_an_older_state_without_the_optional_keys_reads():
    d = json.loads(json.dumps(_state().to_json()))
    for key in ("clearing", "harnessing", "carcasses", "declared", "defensive_ready", "df_fired", "df_targets",
                "df_walked", "df_last", "horses", "carts", "frightened"):
        d.pop(key)
    back = GameState.from_json(d, _state().gmap)
    assert set(back.to_json()) == CORE_KEYS | PART_KEYS


def test_a_clone_shares_no_mutable_field_of_a_part():
    st = _filled(_state())
    other = st.clone()
    for part in st.parts():
        copy = getattr(other, part.name)
        assert copy == part and copy is not part
        for f in dataclasses.fields(part):
            value = getattr(part, f.name)
            assert getattr(copy, f.name) is not value, (part.name, f.name)
    other.riders.horses["h"].hex = H("0606")
    other.carts.carts["c1"].moving = True
    assert st.riders.horses["h"].hex == H("0505") and not st.carts.carts["c1"].moving


def test_a_new_phase_clears_the_bookkeeping_of_the_parts():
    st = _filled(_state())
    turn.begin_phase(st)
    ph, df = st.phase, st.defensive_fire
    assert not (ph.fired or ph.fire_limit or ph.mp_spent or ph.stopped or ph.attacked or ph.engaged
                or ph.opportunity_used or ph.clearing)
    assert not (df.declared or df.df_fired or df.df_targets or df.df_walked or df.df_last)
    assert not st.carts.harnessing
    # what lasts beyond a phase stays
    assert st.riders.horses and st.riders.frightened and st.riders.grab_failed and st.camels.kneeling
    assert st.carts.carts and st.bodies.carcasses
