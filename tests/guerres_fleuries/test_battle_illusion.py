"""« Illusion de Tezcatlipoca » (GF seed 003 l.1236-1240; OR-GF125, OR-GF126): "La cible disparaît
immédiatement de la vue de tous et reste invisible pendant 1d6 tours si elle ne bouge ni ne tire. Attention,
si un personnage possède une arme ou un objet magique tel que le Casque de Tezcatlipoca, l'unité est
découverte." The target leaves the enemy's view, frames, unit details and events; it is no target of fire,
charges or spells; it reappears when it moves, fires, fights, is touched, detected, or its turns are over."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from guerres_fleuries.battle_engine_kit import game, ruleset, to_phase
from guerres_fleuries.seed import line
from oriflamme.core.dice import Dice, FixedDice
from oriflamme.core.errors import IllegalAction
from oriflamme.rulesets.guerres_fleuries.battle import engine, fire_play, fog, illusion, orders, spells
from oriflamme.rulesets.guerres_fleuries.battle.actions import Action

SPELL = "illusion_de_tezcatlipoca"


def test_the_spell_as_printed():
    assert "« Illusion de Tezcatlipoca »" in line(1236)
    assert line(1238) == "Difficulté : -45% Distance : 15cm"
    assert "disparaît immédiatement de la vue de tous" in line(1240) and "pendant 1d6 tours" in line(1240)
    assert "Casque de Tezcatlipoca" in line(1240)
    row = spells.spell_effects()[SPELL]
    assert (row.effect, row.turns_die) == ("invisible", 6) and "l.1238-1240" in row.ref
    det = {(d.weapon or d.item): d.within_cm for d in illusion.detectors()}
    assert det == {"Détection": 40, "Casque de Tezcatlipoca": 15}
    assert "dans les 40cm" in line(194) and "une illusion magique" in line(194)
    assert line(230).startswith("Casque de Tezcatlipoca") and "dans les 15cms" in line(230)


@pytest.fixture(scope="module")
def at_orders():
    g = game("illusion")
    to_phase(g, 3)
    return g.state


def cast(st, target="A2", d6=3, caster="A7"):
    """A's priest stands against the target's rear (base contact) and casts; d100 1 works, d6 = turns."""
    p, t = st.units[caster], st.units[target]
    if target != caster:
        p.x, p.y = t.x, t.y + t.depth / 2 + p.depth / 2
    st.dice = FixedDice([1, d6], st.dice.count)
    start = len(st.log)
    engine.apply(st, engine.check(st, Action("cast", "A", unit=caster, spell=SPELL, target=target)))
    return start


def test_the_target_vanishes_from_the_enemy_view_frame_details_and_events(at_orders):
    st = ruleset().clone(at_orders)
    t = st.units["A2"]
    x, y = round(t.x, 2), round(t.y, 2)
    start = cast(st)
    ev = next(e for e in st.log[start:] if e["type"] == "magic")
    assert ev["success"] and ev["vanished"] == ["A2"] and "OR-GF126" in ev["ruling"]["citations"]
    assert illusion.invisible(st, t)["until_turn"] == st.turn + 3 - 1   # 1d6 = 3: this turn and two more
    rs = ruleset()
    view_b = rs.view(st, "B")
    assert "A2" not in [u["id"] for u in view_b["units"]]
    assert "A2" in [u["id"] for u in rs.view(st, "A")["units"]]      # its own side sees it
    assert "A2" not in [u["id"] for u in rs.view(st, None)["units"]]  # nor does a spectator
    assert "A2" not in [u["id"] for u in rs.frame(st, "B")["units"]]
    # no unit drawn for B stands where A2 stands
    assert not any((u["x"], u["y"]) == (x, y) for u in view_b["units"])
    # what B reads after the cast never places A2
    for e in rs.visible_events(st, "B", start):
        assert not (e.get("unit") == "A2" or "A2" in (e.get("units") or ())), e
    st.acting = "B"
    with pytest.raises(KeyError):
        rs.option_detail(st, "A2")


def test_no_enemy_fire_charge_or_spell_at_an_invisible_unit(at_orders):
    st = ruleset().clone(at_orders)
    cast(st)
    engine.apply(st, next(a for a in engine.legal_actions(st, "A") if a.type == "orders"))
    assert st.acting == "B"
    for a in engine.legal_actions(st, "B"):
        assert "A2" not in json.dumps(a.to_json()), a
    for u in orders.eligible(st, "B"):
        assert "A2" not in [t for t, _ in orders.charge_targets(st, u)]
    slinger = st.units["B4"]
    why = fire_play.eligibility(st, slinger, st.units["A2"])
    assert not why["eligible"] and "OR-GF126" in why["citations"]
    with pytest.raises(IllegalAction) as exc:
        orders.check_fire_targets(st, slinger, "tirer", ["A2"], "GF seed 003 l.830")
    assert "'A2'" in str(exc.value)
    with pytest.raises(IllegalAction) as exc:
        engine.check_cast(st, Action("cast", "B", unit="B6", spell="eclair", target="A2"))
    assert "l.1240" in str(exc.value)


def test_moving_reveals_it(at_orders):
    st = ruleset().clone(at_orders)
    cast(st)
    t = st.units["A2"]
    start = len(st.log)
    t.x += 3.0   # it moved (a move, a reaction, a recoil…): the watch of each step reveals it
    illusion.watch(st)
    assert not t.hidden and illusion.invisible(st, t) is None
    ev = next(e for e in st.log[start:] if e["type"] == "illusion_revealed")
    assert "private" not in ev and ev["units"] == ["A2"] and "moves" in ev["text"] and ev["decision"] == "OR-GF126"
    assert "A2" in [u["id"] for u in ruleset().view(st, "B")["units"]]


def test_firing_reveals_it_and_the_turns_run_out(at_orders):
    st = ruleset().clone(at_orders)
    cast(st, d6=1)
    t = st.units["A2"]
    fire_ev = {"n": len(st.log), "turn": st.turn, "phase": 8, "type": "fire", "side": "A", "unit": "A2",
               "target": "B2", "text": "", "text_fr": "", "ref": ""}
    fired = ruleset().clone(st)
    fired.log.append(dict(fire_ev))
    illusion.watch(fired)
    assert not fired.units["A2"].hidden
    # 1d6 = 1: invisible this turn only
    later = ruleset().clone(st)
    illusion.watch(later)
    assert later.units["A2"].hidden
    later.turn += 1
    illusion.watch(later)
    assert not later.units["A2"].hidden
    assert "over" in later.log[-1]["text"]


def test_the_helmet_of_tezcatlipoca_discovers_it_within_15_cm(at_orders):
    st = ruleset().clone(at_orders)
    cast(st)
    t, seer = st.units["A2"], st.units["B5"]
    seer.magic_item = "Casque de Tezcatlipoca"
    seer.x, seer.y = t.x, t.y - t.depth / 2 - seer.depth / 2 - 16   # 16 cm: beyond the helmet's 15
    illusion.watch(st)
    assert t.hidden
    seer.y += 2     # 14 cm
    illusion.watch(st)
    assert not t.hidden
    ev = st.log[-1]
    assert ev["type"] == "illusion_revealed" and ev["ref"] == "GF seed 003 l.230" and ev["detected_by"] == "B5"


def test_the_detection_weapon_discovers_it_within_40_cm(at_orders):
    st = ruleset().clone(at_orders)
    cast(st)
    t, seer = st.units["A2"], st.units["B5"]
    seer.magic_weapon = "Détection"
    seer.x, seer.y = t.x, t.y - t.depth / 2 - seer.depth / 2 - 39
    illusion.watch(st)
    assert not t.hidden and st.log[-1]["ref"] == "GF seed 003 l.194"


def test_an_enemy_move_into_it_stops_and_reveals_it(at_orders):
    st = ruleset().clone(at_orders)
    cast(st)
    t, mover = st.units["A2"], st.units["B2"]
    assert illusion.blocked(st, mover, t.x, t.y - t.depth - 1, mover.heading)   # ends 1 cm short of it
    assert not illusion.blocked(st, mover, mover.x, mover.y - 1, mover.heading)


def test_targets_a_friend_in_contact_or_a_character_within_15_cm(at_orders):
    st = ruleset().clone(at_orders)
    p = st.units["A7"]
    far = st.units["A1"]
    assert not spells.target_ok(st, p, SPELL, far)[0] or spells.target_ok(st, p, SPELL, far)[0] == \
        spells.touching(p, far)
    assert spells.target_ok(st, p, SPELL, p)[0]                         # the priest himself (a character)
    assert not spells.target_ok(st, p, SPELL, st.units["B8"])[0]        # not an enemy
    st.units["A6"].hidden = True                                        # already hidden: no
    assert not spells.target_ok(st, p, SPELL, st.units["A6"])[0]


@settings(max_examples=6, deadline=None)
@given(seed=st_.integers(0, 10_000))
def test_while_invisible_the_enemy_never_sees_nor_targets_it(at_orders, seed):
    """Random legal play after the cast: as long as the illusion holds, B's view has no A2 and no action
    offered to B names it (the invariant of l.1240)."""
    st = ruleset().clone(at_orders)
    cast(st, d6=6)
    st.dice = Dice(f"illusion-{seed}")
    rng = random.Random(seed)
    for _ in range(25):
        if st.over or st.acting is None:
            break
        side = st.acting
        legal = engine.legal_actions(st, side)
        if illusion.invisible(st, st.units["A2"]):
            assert "A2" not in [u["id"] for u in ruleset().view(st, "B")["units"]]
            if side == "B":
                assert not any("A2" in json.dumps(a.to_json()) for a in legal)
        engine.apply(st, engine.check(st, rng.choice(legal)))
        assert fog.hidden_from(st.units["A2"], "B") == bool(illusion.invisible(st, st.units["A2"])) \
            or not st.units["A2"].alive


def test_an_invisible_enemy_adds_no_morale_modifier(at_orders):
    """OR-GF150: an enemy unit 10 cm from a Saurian unit counts among "enemy unbroken within 30 cm" (l.1634)
    of its morale test; made invisible, it no longer does (the unit cannot know it is there); seen again, it
    counts again."""
    from oriflamme.rulesets.guerres_fleuries.battle import morale_play
    st = ruleset().clone(at_orders)
    t = st.units["A2"]
    b = next(u for u in st.side_units("B") if u.kind == "troop")
    b.x, b.y, b.heading = t.x, t.y - t.depth / 2 - 10 - b.depth / 2, 180.0

    def near(unit):
        sit, why = morale_play.situation(st, unit, "casualties")
        count = next((m["count"] for m in sit.get("modifiers", []) if m["modifier"] == "enemy_unbroken_near"), 0)
        return count, " ".join(why)
    seen, why = near(b)
    assert seen >= 1 and t.name in why
    cast(st, "A2", d6=3)
    assert illusion.invisible(st, t) is not None
    unseen, why = near(b)
    assert unseen == seen - 1 and t.name not in why
    t.hidden = False  # seen again (any reveal clears it)
    assert near(b)[0] == seen
