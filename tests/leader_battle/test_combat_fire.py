"""D4: defensive fire, offensive fire, melee (LB seed 001 l.17-20, l.22-23)."""

from __future__ import annotations

import pytest

from oriflamme.core.dice import FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.leader_battle import engine

from kit_lb import RS, acts, at_activation, fires, seed_line, started, unit


def to_d4(st, declares):
    at_activation(st, "r1", "D3")
    for uid, h in declares:
        RS.apply(st, {"type": "declare", "side": "red", "unit": uid, "hex": h})
    if st.step == "D3":  # declarations left: the player ends the step (else it ended by itself)
        RS.apply(st, {"type": "end_step", "side": "red"})
    return st


def test_artillery_fires_offensively_when_stacked_with_attacking_infantry():
    """l.22: artillery, which cannot melee, fires offensively only when stacked with infantry
    that will melee."""
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("rg", "red", "artillery", "0303", 2),
                  unit("bi", "blue", "infantry", "0403", 5)])
    to_d4(st, [("ri", "0403")])
    assert st.step == "D4" and st.combats[0].stage == "offensive"  # blue had no defensive fire
    assert fires(st) == {("rg", "bi")}
    assert "n'est possible que si" not in seed_line(22) and "empilée avec une unité d’infanterie" in seed_line(22)


def test_artillery_stacked_with_attacking_archers_does_not_fire_offensively():
    st = started([unit("ra", "red", "archers", "0303", 2), unit("rg", "red", "artillery", "0303", 2),
                  unit("bi", "blue", "infantry", "0403", 5)])
    to_d4(st, [("ra", "0403")])
    assert fires(st) == {("ra", "bi")}  # the archers melee, so they fire; the artillery does not
    before = RS.digest(st)
    with pytest.raises(IllegalAction) as exc:
        RS.apply(st, {"type": "fire", "side": "red", "unit": "rg", "target": "bi"})
    assert "l.22" in exc.value.ref and RS.digest(st) == before


def test_artillery_stacked_with_infantry_that_does_not_attack_does_not_fire():
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("rg", "red", "artillery", "0303", 2),
                  unit("rc", "red", "cavalry", "0404", 0), unit("bi", "blue", "infantry", "0403", 5)])
    to_d4(st, [("rc", "0403")])
    assert fires(st) == set()


def test_archers_stacked_with_attacking_infantry_fire_offensively():
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("ra", "red", "archers", "0303", 2),
                  unit("bi", "blue", "infantry", "0403", 5)])
    to_d4(st, [("ri", "0403")])
    assert ("ra", "bi") in fires(st)


def test_defensive_fire_by_the_attacked_unit_in_any_direction():
    """l.23: a unit attacked through its rear hexes fires defensively through its front hexes —
    the direction and the target do not matter; a unit not attacked does not fire."""
    st = started([unit("ri", "red", "infantry", "0303", 2),          # behind the blue archers
                  unit("rx", "red", "infantry", "0504", 0),          # in their front
                  unit("ba", "blue", "archers", "0403", 2),          # faces SE, attacked from NW
                  unit("bb", "blue", "archers", "0604", 5)])         # not attacked
    to_d4(st, [("ri", "0403")])
    assert st.combats[0].stage == "defensive" and engine.to_act(st) == "blue"
    assert fires(st) == {("ba", "ri"), ("ba", "rx")}
    assert "hex. d'arrière" in seed_line(23)


def test_d4_runs_defensive_then_offensive_fire_then_melee():
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("ra", "red", "archers", "0303", 2),
                  unit("ba", "blue", "archers", "0403", 2)], dice=[10, 10, 1])
    to_d4(st, [("ri", "0403")])
    stages = []
    stages.append((st.combats[0].stage, engine.to_act(st)))
    RS.apply(st, {"type": "fire", "side": "blue", "unit": "ba", "target": "ri"})
    RS.apply(st, {"type": "end_step", "side": "blue"}) if st.combats[0].stage == "defensive" else None
    stages.append((st.combats[0].stage, engine.to_act(st)))
    RS.apply(st, {"type": "fire", "side": "red", "unit": "ra", "target": "ba"})
    RS.apply(st, {"type": "end_step", "side": "red"}) if st.combats[0].stage == "offensive" else None
    stages.append((st.combats[0].stage, engine.to_act(st)))
    assert stages == [("defensive", "blue"), ("offensive", "red"), ("melee", "red")]
    kinds = [a.type for a in acts(st)]
    assert kinds == ["melee"]
    RS.apply(st, {"type": "melee", "side": "red", "hex": "0403"})
    ev = next(e for e in reversed(st.log) if e["type"] == "melee")
    assert ev["ruling"]["die"] == 1 and ev["ruling"]["citations"][0].startswith("LB seed 001 l.17")


def test_the_active_player_chooses_the_order_of_the_combats():
    """l.17: combats are resolved in the order the active player wishes."""
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("rj", "red", "infantry", "0505", 0),
                  unit("bi", "blue", "infantry", "0403", 5), unit("bj", "blue", "infantry", "0504", 0)])
    to_d4(st, [("ri", "0403"), ("rj", "0504")])
    assert st.current is None and {a.hex for a in acts(st, kind="resolve")} == {"0403", "0504"}
    RS.apply(st, {"type": "resolve", "side": "red", "hex": "0504"})
    assert st.combats[st.current].hex == "0504"


@pytest.mark.parametrize("choice", ["advance", "end_step"])
def test_after_a_melee_that_empties_the_hex_the_attackers_may_advance(choice):
    """LB house §6.3, §6.5: 8 against 2 is 4-1; a 1 is D2: the archers break, the hex is
    empty, and the active player advances into it or stays."""
    st = started([unit("ri", "red", "infantry", "0303", 2), unit("bi", "blue", "archers", "0403", 5)], dice=[1])
    to_d4(st, [("ri", "0403")])
    RS.apply(st, {"type": "end_step", "side": "blue"})       # no defensive fire
    ex = RS.explain(st, {"type": "melee", "side": "red", "hex": "0403"})
    assert ex["column"] == "4-1" and ex["cells"][0]["result"] == "D2"
    RS.apply(st, {"type": "melee", "side": "red", "hex": "0403"})
    assert st.units["bi"].broken and {a.type for a in acts(st)} == {"advance", "end_step"}
    action = {"type": "advance", "side": "red", "hex": "0403"} if choice == "advance" else {"type": "end_step", "side": "red"}
    RS.apply(st, action)
    assert st.units["ri"].hex == ("0403" if choice == "advance" else "0303")
    assert any(e["type"] == "advance" for e in st.log) == (choice == "advance")
