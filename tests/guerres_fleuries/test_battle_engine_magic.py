"""Magic during the battle, wired into the turn (OR-GF40): a priest casts in one of its side's
steps, once a turn, at a target in range; gf-combat's magic_play rules and applies it."""

from __future__ import annotations

import random

import pytest

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from oriflamme.core.dice import SampledDice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import engine


def test_a_priest_casts_once_a_turn_in_range():
    rs = ruleset()
    g = game("magic")
    to_phase(g, 3)
    st = rs.clone(g.state)
    side = rs.to_act(st)
    priest = next(u for u in st.side_units(side) if u.kind == "character" and "pr" in u.type.lower())
    enemy = next(u for u in st.enemies(side) if u.kind == "troop")
    # bring an enemy within Blessure's 15 cm of the priest (a test position)
    enemy.x, enemy.y = priest.x, priest.y + (-12 if side == "A" else 12)
    enemy.x += 0.0
    casts = [a for a in rs.legal_actions(st) if a.type == "cast"]
    assert any(a.unit == priest.id and a.spell == "blessure" and a.target == enemy.id for a in casts)
    a = next(a for a in casts if a.spell == "blessure" and a.target == enemy.id)
    ex = rs.explain(st, a)
    assert ex["legal"] and 0 <= ex["percent"] <= 100 and "OR-GF40" in ex["citations"]
    trial = rs.clone(st)
    trial.dice = SampledDice(random.Random(1), trial.dice.count)
    events = rs.apply(trial, a)
    magic = [e for e in events if e["type"] == "magic"]
    assert magic and magic[0]["text"] and magic[0]["text_fr"] and magic[0]["ruling"]["citations"]
    # the same priest again this turn: refused with the rule (one spell a turn, GF-J4)
    with pytest.raises(IllegalAction) as e:
        rs.apply(trial, rs.action_from_json(a.to_json()))
    assert "l.1136" in e.value.ref
    # everyone sees a spell: it is not hidden
    assert any(ev["type"] == "magic" for ev in rs.visible_events(trial, "B" if side == "A" else "A"))


def test_a_spell_out_of_range_or_unknown_is_refused():
    rs = ruleset()
    g = game("magic-range")
    to_phase(g, 3)
    st = g.state
    side = rs.to_act(st)
    priest = next(u for u in st.side_units(side) if u.kind == "character" and "pr" in u.type.lower())
    far = max(st.enemies(side), key=lambda e: abs(e.y - priest.y))
    before = rs.digest(st)
    for data in ({"spell": "blessure", "target": far.id}, {"spell": "eclair", "target": far.id},
                 {"spell": "blessure", "target": "zz-nobody"}):
        with pytest.raises(IllegalAction):
            rs.apply(st, {"type": "cast", "side": side, "unit": priest.id, **data})
        assert rs.digest(st) == before
    assert set(engine.SPELLS) >= {"blessure", "bonte_divine", "aura_de_pouvoir", "eclair", "cauchemars"}
    assert "illusion_de_tezcatlipoca" in engine.SPELLS  # its target vanishes from the enemy (OR-GF126)
