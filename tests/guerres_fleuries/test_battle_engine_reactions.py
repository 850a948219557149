"""Phase 5, reactions to charges: a charged unit that went on and was not reached chooses to stand,
or tests to counter-charge, evade or fire (GF seed 003 l.285-287; OR-GF42)."""

from __future__ import annotations

import random

import pytest

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from oriflamme.core.dice import SampledDice
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry import tabletop as tt


class FirstThen(SampledDice):
    """The given faces first, then random ones (the reaction may end phase 5 and roll the rest of the turn)."""

    def __init__(self, first, count):
        super().__init__(random.Random(0), count)
        self.first = list(first)

    def roll(self, sides: int = 10) -> int:
        if self.first:
            self.count += 1
            return self.first.pop(0)
        return super().roll(sides)


def charged_state():
    """A state in phase 5 where side B must react to a charge by A1 (found over a few dice)."""
    rs = ruleset()
    g = game("reaction")
    to_phase(g, 3)
    base = rs.clone(g.state)
    a1 = base.units["A1"]
    target = base.units["B2"]
    # a test position: B2 20 cm before A1's front, facing it (within the charge, not within its half)
    p = tt.moved(a1.pose, a1.depth / 2 + 20 + target.depth / 2)
    target.x, target.y, target.heading = p.x, p.y, (a1.heading + 180) % 360
    for u in (a1, target):
        u.unmark("red")  # both passed their command tests (a test position)
    for seed in range(40):
        st = rs.clone(base)
        st.dice = SampledDice(random.Random(seed), st.dice.count)
        rs.apply(st, {"type": "orders", "side": "A", "orders": {"A1": {"order": "charger", "target": "B2"}}})
        rs.apply(st, {"type": "orders", "side": "B", "orders": {"B2": {"order": "attendre", "target": None}}})
        if st.phase == 5 and "B2" in st.reacting:
            return st
    pytest.skip("no reaction in 40 tries")


def test_a_charged_unit_chooses_its_reaction():
    rs = ruleset()
    st = charged_state()
    assert rs.to_act(st) == "B"
    legal = [a.reaction for a in rs.legal_actions(st) if a.unit == "B2"]
    assert "stand" in legal and "counter_charge" in legal
    assert "evade" not in legal  # B2 is not in open order (l.403)
    before = rs.digest(st)
    with pytest.raises(IllegalAction) as e:
        rs.apply(st, {"type": "react", "side": "B", "unit": "B2", "reaction": "evade"})
    assert "l.403" in e.value.ref and rs.digest(st) == before
    with pytest.raises(IllegalAction):
        rs.apply(st, {"type": "react", "side": "B", "unit": "B1", "reaction": "stand"})
    # a counter-charge whose test passes (d100 = 1) makes the first half of its charge now
    t = rs.clone(st)
    t.dice = FirstThen([1], t.dice.count)
    rs.apply(t, {"type": "react", "side": "B", "unit": "B2", "reaction": "counter_charge"})
    ev = next(e for e in t.log if e["type"] == "reaction")
    assert ev["result"] == "passed" and "l.285" in ev["ref"]
    after = t.log[ev["n"] + 1:]
    assert any(e["type"] in ("charge_move", "charge_contact") and e.get("unit") == "B2" and e.get("target") == "A1"
               for e in after)
    # one that fails (d100 = 100) takes the charge
    t = rs.clone(st)
    t.dice = FirstThen([100], t.dice.count)
    rs.apply(t, {"type": "react", "side": "B", "unit": "B2", "reaction": "counter_charge"})
    ev = next(e for e in t.log if e["type"] == "reaction")
    assert ev["result"] == "failed"
    assert not any(e["type"] in ("charge_move", "charge_contact") and e.get("unit") == "B2" for e in t.log)
